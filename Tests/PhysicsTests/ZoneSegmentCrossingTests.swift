import Foundation
import Physics
import Simulation
import Testing

@Suite("ZoneSegment: turning points and first crossings (check 7)")
struct ZoneSegmentCrossingTests {
    /// 20 °C room, outdoor 0 °C rising 2 K/h, no heat: it cools, turns near 8.6 h at ≈ 17.16 °C, then warms.
    static func turningRoom() throws -> ZoneSegment {
        try ZoneSegment(
            parameters: .typicalFlat, initialCelsius: 20, outdoorCelsius: 0,
            outdoorSlopeKPerSecond: 2.0 / 3600, heatInputW: 0)
    }

    @Test("the turning point is where dT/dt = 0, at T = T∞₀ + b·t")
    func turningPoint() throws {
        let room = try Self.turningRoom()
        let turn = try #require(room.turningPointSeconds)
        let tau = room.parameters.timeConstantSeconds
        let b = room.outdoorSlopeKPerSecond
        #expect(abs(turn - tau * log(1 + 20 / (b * tau))) <= 1e-6)
        #expect(abs(room.rate(at: turn)) <= 1e-15)
        #expect(room.rate(at: turn - 60) < 0 && room.rate(at: turn + 60) > 0)
        #expect(abs(room.temperature(at: turn) - b * turn) <= 1e-9)
    }

    @Test("no turning point when the ramp and the drift agree, or without a ramp")
    func noTurningPoint() throws {
        let zone = ZoneParameters.typicalFlat
        let fallingBoth = try ZoneSegment(
            parameters: zone, initialCelsius: 20, outdoorCelsius: 0, outdoorSlopeKPerSecond: -1.0 / 3600, heatInputW: 0)
        let risingBoth = try ZoneSegment(
            parameters: zone, initialCelsius: 20, outdoorCelsius: 25, outdoorSlopeKPerSecond: 1.0 / 3600, heatInputW: 0)
        let flat = try ZoneSegment(parameters: zone, initialCelsius: 20, outdoorCelsius: 0, heatInputW: 0)
        #expect(fallingBoth.turningPointSeconds == nil)
        #expect(risingBoth.turningPointSeconds == nil)
        #expect(flat.turningPointSeconds == nil)
    }

    @Test(
        "ramp crossings match a scan-and-bisect reference to 1 ms and land on the threshold to 1e-9 K",
        arguments: [
            19.9,  // on the way down, before the turn
            17.5,  // just above the minimum, before the turn
            21.0,  // only after the turn: the first crossing follows a turning point
            30.0,  // far after the turn
        ])
    func rampCrossing(threshold: Double) throws {
        let room = try Self.turningRoom()
        let horizon = 3 * 86_400.0
        let crossing = try #require(room.firstCrossing(of: threshold, within: horizon))
        let reference = try #require(
            NumericalReference.firstZero(horizon: horizon, gridSeconds: 60) {
                room.temperature(at: $0) - threshold
            })
        #expect(abs(crossing - reference) <= 1e-3)
        #expect(abs(room.temperature(at: crossing) - threshold) <= 1e-9)
        let turn = try #require(room.turningPointSeconds)
        #expect((crossing > turn) == (threshold > 20))
    }

    @Test("a threshold touched only at the turning point is reached there")
    func touchAtTurningPoint() throws {
        let room = try Self.turningRoom()
        let turn = try #require(room.turningPointSeconds)
        let bottom = room.temperature(at: turn)
        #expect(room.firstCrossing(of: bottom, within: 86_400) == turn)
    }

    @Test(
        "nil when the threshold is not reached within the horizon",
        arguments: [
            (17.0, 30 * 86_400.0),  // below the minimum, and the room only warms after it
            (21.0, 19 * 3600.0),  // reached only later (≈ 19.76 h)
            (19.9, 0.0),  // zero horizon
            (19.9, -1.0),  // negative horizon
            (19.9, Double.nan),  // horizon not a number
            (Double.nan, 86_400.0),  // threshold not a number
        ])
    func notReached(threshold: Double, horizon: Double) throws {
        let room = try Self.turningRoom()
        #expect(room.firstCrossing(of: threshold, within: horizon) == nil)
    }

    @Test("0 when the room is already at the threshold")
    func alreadyAtThreshold() throws {
        #expect(try Self.turningRoom().firstCrossing(of: 20, within: 0) == 0)
    }

    @Test("an infinite horizon with a ramp still brackets the crossing")
    func infiniteHorizon() throws {
        let room = try Self.turningRoom()
        let crossing = try #require(room.firstCrossing(of: 60, within: .infinity))
        #expect(abs(room.temperature(at: crossing) - 60) <= 1e-9)
        let finite = try #require(room.firstCrossing(of: 60, within: 10 * 86_400))
        #expect(abs(crossing - finite) <= 1e-6)
        // Cooling ramp, heading down for ever.
        let falling = try ZoneSegment(
            parameters: .typicalFlat, initialCelsius: 20, outdoorCelsius: 30,
            outdoorSlopeKPerSecond: -3.0 / 3600, heatInputW: 500)
        let down = try #require(falling.firstCrossing(of: -40, within: .infinity))
        #expect(abs(falling.temperature(at: down) + 40) <= 1e-9)
    }

    @Test(
        "constant conditions: the crossing is the closed form t* = τ·ln((T0 − T∞)/(T* − T∞))",
        arguments: [(20.0, 0.0, 0.0, 10.0), (19.75, 0.0, 2000.0, 20.25), (24.25, 32.0, -3000.0, 23.75)])
    func constantClosedForm(initial: Double, outdoor: Double, heatW: Double, threshold: Double) throws {
        let segment = try ZoneSegment(
            parameters: .typicalFlat, initialCelsius: initial, outdoorCelsius: outdoor, heatInputW: heatW)
        let target = outdoor + heatW / 80
        let expected = 103_500 * log((initial - target) / (threshold - target))
        let crossing = try #require(segment.firstCrossing(of: threshold, within: .infinity))
        #expect(abs(crossing - expected) <= 1e-6)
        #expect(segment.firstCrossing(of: threshold, within: expected * 0.999) == nil)
        #expect(segment.firstCrossing(of: target, within: .infinity) == nil)
    }

    @Test("mayReach is false only when the first crossing is missing or later than the window")
    func mayReachRulesOutOnlyLaterCrossings() throws {
        var random = SplitMix64(seed: 0xC0FF_EE11)
        var ruledOut = 0, reachable = 0
        for _ in 0..<2_000 {
            let zone = try ZoneParameters(
                uaWPerK: Double.random(in: 30...300, using: &random),
                capacitanceKWhPerK: Double.random(in: 0.3...5, using: &random))
            let initial = Double.random(in: 10...30, using: &random)
            let segment = try ZoneSegment(
                parameters: zone, initialCelsius: initial,
                outdoorCelsius: Double.random(in: -15...35, using: &random),
                outdoorSlopeKPerSecond: Bool.random(using: &random) ? 0 : Double.random(in: -8...8, using: &random) / 3600,
                heatInputW: Double.random(in: -4000...4000, using: &random))
            // Thresholds near the start (0.1 K reports), anywhere, and at the start itself.
            let threshold = [initial + 0.1, initial - 0.1, Double.random(in: 5...35, using: &random), initial][Int.random(in: 0..<4, using: &random)]
            let window = Double.random(in: 0...(6 * 3600), using: &random)
            let horizon = window + Double.random(in: 0...(2 * 86_400), using: &random)
            let crossing = segment.firstCrossing(of: threshold, within: horizon)
            if segment.mayReach(threshold, within: window) {
                reachable += 1
            } else {
                ruledOut += 1
                #expect(crossing.map { $0 > window } ?? true, "T*=\(threshold) window \(window) crossing \(crossing ?? -1) \(segment)")
            }
            // Whatever is found inside the window is never ruled out.
            if let crossing, crossing <= window { #expect(segment.mayReach(threshold, within: window)) }
        }
        #expect(ruledOut > 200 && reachable > 200)
        #expect(try Self.turningRoom().mayReach(20, within: 0))
        #expect(try Self.turningRoom().mayReach(.nan, within: 10))
    }

    @Test("500 seeded random ramps: crossings agree with scan-and-bisect to 1 ms, or both are nil")
    func randomRamps() throws {
        var random = SplitMix64(seed: 0x5EED_F00D)
        var compared = 0
        for _ in 0..<500 {
            let zone = try ZoneParameters(
                uaWPerK: Double.random(in: 30...300, using: &random),
                capacitanceKWhPerK: Double.random(in: 0.3...5, using: &random))
            let segment = try ZoneSegment(
                parameters: zone,
                initialCelsius: Double.random(in: 10...30, using: &random),
                outdoorCelsius: Double.random(in: -15...35, using: &random),
                outdoorSlopeKPerSecond: Double.random(in: -8...8, using: &random) / 3600,
                heatInputW: Double.random(in: -4000...4000, using: &random))
            let threshold = Double.random(in: 5...35, using: &random)
            let horizon = Double.random(in: 600...(2 * 86_400), using: &random)
            // Keep clear of thresholds that only graze the extremum: a 60 s grid could miss those.
            if let turn = segment.turningPointSeconds, turn < horizon,
                abs(segment.temperature(at: turn) - threshold) < 1e-3
            {
                continue
            }
            let reference = NumericalReference.firstZero(horizon: horizon, gridSeconds: 60) {
                segment.temperature(at: $0) - threshold
            }
            let crossing = segment.firstCrossing(of: threshold, within: horizon)
            #expect((crossing == nil) == (reference == nil), "T*=\(threshold) H=\(horizon) \(segment)")
            if let crossing, let reference {
                #expect(abs(crossing - reference) <= 1e-3)
                #expect(abs(segment.temperature(at: crossing) - threshold) <= 1e-9)
                compared += 1
            }
        }
        #expect(compared > 100)
    }
}
