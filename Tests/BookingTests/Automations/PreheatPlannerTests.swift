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
}
