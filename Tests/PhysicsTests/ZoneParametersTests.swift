import Foundation
import Testing

@testable import Physics

@Suite("ZoneParameters: validation and constant-condition closed forms")
struct ZoneParametersTests {
    @Test("derived quantities of the typical flat")
    func derived() throws {
        let zone = try ZoneParameters(uaWPerK: 80, capacitanceKWhPerK: 2.3)
        #expect(zone == ZoneParameters.typicalFlat)
        #expect(abs(zone.capacitanceJPerK - 8_280_000) <= 1e-8)
        #expect(abs(zone.timeConstantSeconds - 103_500) <= 1e-10)
        #expect(zone.description == "UA 80.0 W/K, C 2.3 kWh/K (τ 28.75 h)")
    }

    // MARK: Check 8 — bad input

    @Test(
        "bad UA or capacitance throws physics.invalidParameter naming the field and value",
        arguments: [
            (0.0, 2.3, "uaWPerK is 0.0 W/K"),
            (-80.0, 2.3, "uaWPerK is -80.0 W/K"),
            (Double.nan, 2.3, "uaWPerK is nan W/K"),
            (Double.infinity, 2.3, "uaWPerK is inf W/K"),
            (80.0, 0.0, "capacitanceKWhPerK is 0.0 kWh/K"),
            (80.0, -2.3, "capacitanceKWhPerK is -2.3 kWh/K"),
            (80.0, Double.nan, "capacitanceKWhPerK is nan kWh/K"),
            (80.0, -Double.infinity, "capacitanceKWhPerK is -inf kWh/K"),
        ])
    func badParameters(ua: Double, capacitance: Double, expectedStart: String) throws {
        let error = try #require(throws: PhysicsError.self) {
            try ZoneParameters(uaWPerK: ua, capacitanceKWhPerK: capacitance)
        }
        #expect(error.code == .invalidParameter)
        #expect(error.code.rawValue == "physics.invalidParameter")
        #expect(error.message.hasPrefix(expectedStart + "; it must be a finite number greater than 0 "))
        #expect(error.message.hasSuffix("."))
    }

    @Test("the exact sentence a user sees for a negative UA")
    func exactMessage() throws {
        let error = try #require(throws: PhysicsError.self) {
            try ZoneParameters(uaWPerK: -5, capacitanceKWhPerK: 2.3)
        }
        #expect(
            error.message
                == "uaWPerK is -5.0 W/K; it must be a finite number greater than 0 W/K "
                + "(40–120 W/K is typical for a 50 m² flat).")
        #expect(error.description == "physics.invalidParameter: " + error.message)
        #expect(error.errorDescription == error.message)
        #expect(error.localizedDescription == error.message)
    }

    @Test(
        "valid fields whose time constant or J/K overflow throw physics.outOfRange",
        arguments: [(Double.leastNonzeroMagnitude, 2.3), (80.0, 1e305)])
    func overflowingTimeConstant(ua: Double, capacitance: Double) throws {
        let error = try #require(throws: PhysicsError.self) {
            try ZoneParameters(uaWPerK: ua, capacitanceKWhPerK: capacitance)
        }
        #expect(error.code == .outOfRange)
        #expect(error.message.contains("uaWPerK \(ua) W/K"))
        #expect(error.message.contains("capacitanceKWhPerK \(capacitance) kWh/K"))
    }

    // MARK: Check 1 — free decay

    @Test("free decay: T0 = 20 °C, T_out = 0 °C, heater off → T(τ) = 20/e = 7.358 °C")
    func freeDecay() throws {
        let zone = ZoneParameters.typicalFlat
        let tau = zone.timeConstantSeconds
        let viaParameters = zone.temperature(after: tau, from: 20, outdoorCelsius: 0, heatInputW: 0)
        let segment = try ZoneSegment(parameters: zone, initialCelsius: 20, outdoorCelsius: 0, heatInputW: 0)
        let viaSegment = segment.temperature(at: tau)
        #expect(abs(viaParameters - 20 / M_E) <= 1e-9)
        #expect(abs(viaSegment - 20 / M_E) <= 1e-9)
        #expect((viaSegment * 1000).rounded() / 1000 == 7.358)
    }

    @Test(
        "free decay holds for any zone: T(τ) − T_out = (T0 − T_out)/e",
        arguments: [(40.0, 1.0), (80.0, 2.3), (120.0, 4.0), (1e-3, 2.3)])
    func freeDecayAnyZone(ua: Double, capacitance: Double) throws {
        let zone = try ZoneParameters(uaWPerK: ua, capacitanceKWhPerK: capacitance)
        let t = zone.temperature(after: zone.timeConstantSeconds, from: 20, outdoorCelsius: -5, heatInputW: 0)
        #expect(abs(t - (-5 + 25 / M_E)) <= 1e-9)
    }

    @Test("steady state is T_out + Q/UA and is approached, not passed")
    func steadyState() {
        let zone = ZoneParameters.typicalFlat
        #expect(zone.steadyState(outdoorCelsius: 0, heatInputW: 2000) == 25)
        #expect(zone.steadyState(outdoorCelsius: 30, heatInputW: -3000) == -7.5)
        let late = zone.temperature(after: 50 * zone.timeConstantSeconds, from: 5, outdoorCelsius: 0, heatInputW: 2000)
        #expect(abs(late - 25) <= 1e-12)
        #expect(zone.temperature(after: 0, from: 17.25, outdoorCelsius: 0, heatInputW: 2000) == 17.25)
    }

    // MARK: Check 7 (constant case) — crossing times against t* = τ·ln((T0 − T∞)/(T* − T∞))

    @Test(
        "time to reach a threshold matches the closed form",
        arguments: [
            // (T0, T_out, Q, T*)
            (20.0, 0.0, 0.0, 19.75),
            (20.0, 0.0, 0.0, 1.0),
            (19.75, 0.0, 2000.0, 20.25),
            (24.25, 32.0, -3000.0, 23.75),
            (10.0, 10.0, 400.0, 14.999),
            (-3.0, -10.0, 1500.0, 5.0),
        ])
    func timeToReach(initial: Double, outdoor: Double, heatW: Double, threshold: Double) throws {
        let zone = ZoneParameters.typicalFlat
        let target = outdoor + heatW / zone.uaWPerK
        let expected = zone.timeConstantSeconds * log((initial - target) / (threshold - target))
        let seconds = try #require(
            zone.timeToReach(threshold: threshold, from: initial, outdoorCelsius: outdoor, heatInputW: heatW))
        #expect(abs(seconds - expected) <= 1e-9 * max(1, expected))
        let reached = zone.temperature(after: seconds, from: initial, outdoorCelsius: outdoor, heatInputW: heatW)
        #expect(abs(reached - threshold) <= 1e-9)
    }

    @Test(
        "time to reach is nil when the threshold is not between T0 and T∞",
        arguments: [
            // Heading down to 0 °C: a threshold above T0, at T∞, below T∞, or not a number.
            21.0, 0.0, -1.0, Double.nan, Double.infinity,
        ])
    func neverReached(threshold: Double) {
        let zone = ZoneParameters.typicalFlat
        #expect(zone.timeToReach(threshold: threshold, from: 20, outdoorCelsius: 0, heatInputW: 0) == nil)
    }

    @Test("time to reach is 0 when already at the threshold, even at steady state")
    func alreadyThere() {
        let zone = ZoneParameters.typicalFlat
        #expect(zone.timeToReach(threshold: 20, from: 20, outdoorCelsius: 0, heatInputW: 0) == 0)
        #expect(zone.timeToReach(threshold: 25, from: 25, outdoorCelsius: 0, heatInputW: 2000) == 0)
        #expect(zone.timeToReach(threshold: 26, from: 25, outdoorCelsius: 0, heatInputW: 2000) == nil)
    }

    @Test("the constant-condition integral matches Simpson's rule")
    func constantIntegral() {
        let zone = ZoneParameters.typicalFlat
        for seconds: Double in [1, 600, 3600, 86_400, 864_000] {
            let exact = zone.temperatureIntegral(over: seconds, from: 20, outdoorCelsius: -5, heatInputW: 1500)
            let numeric = NumericalReference.simpson(from: 0, to: seconds, intervals: 2_000) {
                zone.temperature(after: $0, from: 20, outdoorCelsius: -5, heatInputW: 1500)
            }
            #expect(abs(exact - numeric) <= 1e-10 * abs(numeric))
        }
        #expect(zone.temperatureIntegral(over: 0, from: 20, outdoorCelsius: -5, heatInputW: 1500) == 0)
    }

    @Test("a huge time constant does not cancel: T − T0 = (Q − UA·(T0 − T_out))·t/C to 1e-12 K")
    func hugeTimeConstant() throws {
        // τ ≈ 8.3e15 s: the textbook form T∞ + (T0 − T∞)e^(−t/τ) would subtract numbers near
        // 1e12 °C and lose about 1e-4 K.
        let zone = try ZoneParameters(uaWPerK: 1e-9, capacitanceKWhPerK: 2.3)
        let seconds = 3600.0
        let warmed = zone.temperature(after: seconds, from: 20, outdoorCelsius: 0, heatInputW: 1000)
        // x = t/τ ≈ 4e-13, so the second-order term (x/2 relative) is below 1e-13 K.
        let expected = 20 + (1000 - zone.uaWPerK * 20) * seconds / zone.capacitanceJPerK
        #expect(abs(warmed - expected) <= 1e-12)
        let reach = try #require(
            zone.timeToReach(threshold: expected, from: 20, outdoorCelsius: 0, heatInputW: 1000))
        #expect(abs(reach - seconds) <= 1e-6)
    }
}
