import Booking
import Foundation
import Physics
import Simulation
import Testing

@Suite("PreheatPlanner: the latest start, exactly")
struct PreheatPlannerTests {
    static let model: PreheatModel = {
        do { return PreheatModel(parameters: try ZoneParameters(uaWPerK: 80, capacitanceKWhPerK: 2.3), heatingPowerW: 2000) } catch { fatalError("\(error)") }
    }()
    static let now = SimInstant(unixSeconds: 1_767_970_800)
    let planner = PreheatPlanner(model: PreheatPlannerTests.model)

    @Test("constant weather: the bisection matches the closed form to the second")
    func closedForm() throws {
        let outdoor = try #require(OutdoorProfile.constant(8))
        let checkIn = Self.now + .hours(24)
        let estimate = try #require(planner.latestStart(now: Self.now, roomC: 12.8, checkIn: checkIn, comfortC: 21, outdoor: outdoor))
        // Drift T(s) = 8 + 4.8·e^(−s/τ), then heat towards 33 °C: 33 − (33 − T(s))·e^(−(24 h − s)/τ) = 21.
        let tau = Self.model.parameters.timeConstantSeconds
        func final(_ s: Double) -> Double { 33 - (33 - (8 + 4.8 * exp(-s / tau))) * exp(-(86_400 - s) / tau) }
        var low = 0.0, high = 86_400.0
        for _ in 0..<80 { let mid = (low + high) / 2; if final(mid) >= 21 { low = mid } else { high = mid } }
        #expect(abs((estimate.latestStart - Self.now).seconds - low) <= 1)
        #expect(estimate.predictedC >= 21 && estimate.predictedC < 21.001)
        #expect(estimate.reachable)
        let later = try #require(planner.temperatureC(at: checkIn, from: Self.now, roomC: 12.8, heatingFrom: estimate.latestStart + .seconds(2),
                                                     outdoor: outdoor))
        #expect(later < 21)
    }

    @Test("already warm: start at check-in; out of reach: start now")
    func edges() throws {
        let checkIn = Self.now + .hours(3)
        let mild = try #require(OutdoorProfile.constant(20)), frost = try #require(OutdoorProfile.constant(-20))
        let warm = try #require(planner.latestStart(now: Self.now, roomC: 25, checkIn: checkIn, comfortC: 21, outdoor: mild))
        #expect(warm.latestStart == checkIn && warm.reachable)
        let cold = try #require(planner.latestStart(now: Self.now, roomC: 5, checkIn: checkIn, comfortC: 21, outdoor: frost))
        #expect(cold.latestStart == Self.now && !cold.reachable && cold.predictedC < 21)
        #expect(planner.latestStart(now: Self.now, roomC: 5, checkIn: Self.now, comfortC: 21, outdoor: frost) == nil)
    }

    @Test("a piecewise-linear forecast agrees with a fine numerical integration")
    func rampAgreesWithIntegration() throws {
        let outdoor = try #require(OutdoorProfile(knots: [
            .init(at: Self.now + .hours(3), tempC: -4), .init(at: Self.now, tempC: 2),
            .init(at: Self.now + .hours(6), tempC: 5), .init(at: Self.now + .hours(9), tempC: 1),
        ]))
        #expect(outdoor.temperatureC(at: Self.now - .hours(1)) == 2)
        #expect(abs(outdoor.temperatureC(at: Self.now + .minutes(90)) - (-1)) < 1e-12)
        #expect(outdoor.temperatureC(at: Self.now + .hours(20)) == 1)
        let end = Self.now + .hours(12), heatFrom = Self.now + .minutes(250)
        let exact = try #require(planner.temperatureC(at: end, from: Self.now, roomC: 18, heatingFrom: heatFrom, outdoor: outdoor))
        // RK4 with 10 s steps on C·dT/dt = UA·(T_out − T) + Q.
        let ua = 80.0, c = 2.3 * 3.6e6
        func rate(_ t: Double, _ temperature: Double) -> Double {
            let q = t >= (heatFrom - Self.now).seconds ? 2000.0 : 0
            return (ua * (outdoor.temperatureC(at: Self.now + .milliseconds(Int64((t * 1000).rounded()))) - temperature) + q) / c
        }
        var t = 0.0, temperature = 18.0
        let h = 10.0
        while t < 12 * 3600 - 1e-9 {
            let k1 = rate(t, temperature), k2 = rate(t + h / 2, temperature + h / 2 * k1)
            let k3 = rate(t + h / 2, temperature + h / 2 * k2), k4 = rate(t + h, temperature + h * k3)
            temperature += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            t += h
        }
        #expect(abs(exact - temperature) < 0.01)
    }

    @Test("a setback floor the free drift reaches makes the latest start later, exactly as the closed form says")
    func floorDelaysTheStart() throws {
        // Room 20 °C, 8 °C outside, check-in in D = 24 h. The free drift 8 + 12·e^(−s/τ) reaches the floor
        // F = 16 − 0.5/2 = 15.75 °C at s_F = τ·ln(12 / 7.75) ≈ 12.6 h; full power heads for 33 °C.
        let outdoor = try #require(OutdoorProfile.constant(8))
        let checkIn = Self.now + .hours(24)
        let tau = Self.model.parameters.timeConstantSeconds, d = 86_400.0
        let floorC = Self.model.floorC(setpointC: 16)
        #expect(floorC == 15.75)
        let free = try #require(planner.latestStart(now: Self.now, roomC: 20, checkIn: checkIn, comfortC: 21, outdoor: outdoor))
        let held = try #require(planner.latestStart(now: Self.now, roomC: 20, checkIn: checkIn, comfortC: 21, outdoor: outdoor,
                                                    floorC: floorC))
        // Free: 33 − 25·e^(−(D − s)/τ) + 12·e^(−D/τ) = 21. Held (s > s_F): 33 − (33 − F)·e^(−(D − s)/τ) = 21.
        let freeLatest = d - tau * log(25 / (12 + 12 * exp(-d / tau)))
        let heldLatest = d - tau * log((33 - floorC) / 12)
        #expect(heldLatest > tau * log(12 / 7.75))
        expectJustBefore((free.latestStart - Self.now).seconds, root: freeLatest)
        expectJustBefore((held.latestStart - Self.now).seconds, root: heldLatest)
        #expect(held.latestStart - free.latestStart > .minutes(15))
        #expect(free.floorC == nil && held.floorC == floorC)
        #expect(abs(free.unheatedC - (8 + 12 * exp(-d / tau))) < 1e-9)
        #expect(held.unheatedC == floorC)
        #expect(held.predictedC >= 21 && held.predictedC < 21.001 && held.reachable)
        // The latest start really is the latest: two seconds later misses comfort, with the floor too.
        let later = try #require(planner.temperatureC(at: checkIn, from: Self.now, roomC: 20, heatingFrom: held.latestStart + .seconds(2),
                                                     outdoor: outdoor, floorC: floorC))
        #expect(later < 21)
        // The trajectory itself: free until it meets the floor, then the floor.
        let before = try #require(planner.temperatureC(at: Self.now + .hours(6), from: Self.now, roomC: 20, heatingFrom: checkIn,
                                                      outdoor: outdoor, floorC: floorC))
        #expect(abs(before - (8 + 12 * exp(-6 * 3600 / tau))) < 1e-9)
        let after = try #require(planner.temperatureC(at: Self.now + .hours(18), from: Self.now, roomC: 20, heatingFrom: checkIn,
                                                     outdoor: outdoor, floorC: floorC))
        #expect(after == floorC)
    }

    @Test("a floor the drift never reaches changes nothing; without a floor nothing changes either")
    func floorOutOfTheWay() throws {
        let outdoor = try #require(OutdoorProfile.constant(8))
        let checkIn = Self.now + .hours(24)
        let plain = try #require(planner.latestStart(now: Self.now, roomC: 12.8, checkIn: checkIn, comfortC: 21, outdoor: outdoor))
        let explicitNil = try #require(planner.latestStart(now: Self.now, roomC: 12.8, checkIn: checkIn, comfortC: 21, outdoor: outdoor,
                                                           floorC: nil))
        #expect(plain == explicitNil && plain.floorC == nil)
        // 7 °C: below the 8 °C the room drifts towards, so never reached.
        var low = try #require(planner.latestStart(now: Self.now, roomC: 12.8, checkIn: checkIn, comfortC: 21, outdoor: outdoor, floorC: 7))
        #expect(low.floorC == 7)
        low.floorC = nil
        #expect(low == plain)
    }

    @Test("a room below the floor rises towards it at full power before the start")
    func roomBelowTheFloor() throws {
        // Room 12.8 °C, floor 15.75 °C, 8 °C outside: the element runs from now; full power 33 − 20.2·e^(−s/τ)
        // reaches the floor at s₁ = τ·ln(20.2 / 17.25) ≈ 4.5 h, and the room is held there afterwards.
        let outdoor = try #require(OutdoorProfile.constant(8))
        let checkIn = Self.now + .hours(24)
        let tau = Self.model.parameters.timeConstantSeconds, d = 86_400.0
        let rising = try #require(planner.temperatureC(at: Self.now + .hours(2), from: Self.now, roomC: 12.8,
                                                      heatingFrom: Self.now + .hours(3), outdoor: outdoor, floorC: 15.75))
        #expect(abs(rising - (33 - 20.2 * exp(-7_200 / tau))) < 1e-9)
        let reached = try #require(planner.temperatureC(at: Self.now + .hours(6), from: Self.now, roomC: 12.8,
                                                       heatingFrom: Self.now + .hours(6), outdoor: outdoor, floorC: 15.75))
        #expect(reached == 15.75)
        let estimate = try #require(planner.latestStart(now: Self.now, roomC: 12.8, checkIn: checkIn, comfortC: 21, outdoor: outdoor,
                                                        floorC: 15.75))
        expectJustBefore((estimate.latestStart - Self.now).seconds, root: d - tau * log(17.25 / 12))
        #expect(estimate.unheatedC == 15.75)
    }

    @Test("a floor full power cannot hold against the coldest outdoor moment is ignored")
    func unholdableFloor() throws {
        // 2000 W against UA 80 W/K holds at most T_out + 25 K.
        let frost = try #require(OutdoorProfile.constant(-20))
        #expect(planner.holdsFloor(5, from: Self.now, to: Self.now + .hours(3), outdoor: frost))
        #expect(!planner.holdsFloor(5.01, from: Self.now, to: Self.now + .hours(3), outdoor: frost))
        #expect(!planner.holdsFloor(.nan, from: Self.now, to: Self.now + .hours(3), outdoor: frost))
        // A cold knot inside the window counts; one after check-in does not; the end is interpolated.
        let dip = try #require(OutdoorProfile(knots: [
            .init(at: Self.now, tempC: 2), .init(at: Self.now + .hours(3), tempC: -10), .init(at: Self.now + .hours(6), tempC: 5),
        ]))
        #expect(planner.holdsFloor(15, from: Self.now, to: Self.now + .hours(6), outdoor: dip))
        #expect(!planner.holdsFloor(15.1, from: Self.now, to: Self.now + .hours(6), outdoor: dip))
        #expect(planner.holdsFloor(19, from: Self.now, to: Self.now + .hours(2), outdoor: dip))  // −6 °C at +2 h
        #expect(!planner.holdsFloor(19.1, from: Self.now, to: Self.now + .hours(2), outdoor: dip))
        // Ignored: the same estimate as without it (assumed, 15.75 °C ≥ 10 °C would need no heating at all).
        let checkIn = Self.now + .hours(15)
        let plain = try #require(planner.latestStart(now: Self.now, roomC: 16, checkIn: checkIn, comfortC: 10, outdoor: frost))
        var ignored = try #require(planner.latestStart(now: Self.now, roomC: 16, checkIn: checkIn, comfortC: 10, outdoor: frost,
                                                       floorC: 15.75))
        #expect(ignored.floorC == nil)
        #expect(ignored.latestStart < checkIn && ignored.reachable)
        ignored.floorC = nil
        #expect(ignored == plain)
    }

    @Test("a floor at or above comfort: warm enough without preheat")
    func floorAboveComfort() throws {
        let outdoor = try #require(OutdoorProfile.constant(0))
        let checkIn = Self.now + .hours(3)
        let estimate = try #require(planner.latestStart(now: Self.now, roomC: 22, checkIn: checkIn, comfortC: 21, outdoor: outdoor,
                                                        floorC: 21.25))
        #expect(estimate.latestStart == checkIn && estimate.reachable)
        #expect(estimate.unheatedC == 21.25 && estimate.predictedC == 21.25)
        let without = try #require(planner.latestStart(now: Self.now, roomC: 22, checkIn: checkIn, comfortC: 21, outdoor: outdoor))
        #expect(without.latestStart < checkIn)
    }

    @Test("the model's floor is the setpoint minus half the hysteresis, 0.5 K unless told")
    func modelFloor() throws {
        let parameters = Self.model.parameters
        #expect(PreheatModel.defaultHysteresisK == 0.5)
        #expect(PreheatModel(parameters: parameters, heatingPowerW: 2000).floorC(setpointC: 16) == 15.75)
        #expect(PreheatModel(parameters: parameters, heatingPowerW: 2000, hysteresisK: 1).floorC(setpointC: 16) == 15.5)
    }
}

/// Expects a planned latest start (seconds after now) to be the exact `root` of a closed form rounded down by the
/// planner's bisection: never after it (heating would start too late), less than 2 s before it (the bisection
/// stops within 1 s and the start is truncated to whole seconds).
func expectJustBefore(_ seconds: Double, root: Double, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(seconds <= root + 1e-6 && seconds > root - 2, "start \(seconds) s, exact \(root) s", sourceLocation: sourceLocation)
}
