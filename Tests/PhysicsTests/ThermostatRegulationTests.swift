import Foundation
import Physics
import Simulation
import Testing

@Suite("Thermostat regulation checks from PHYSICS.md (2–5), event-driven")
struct ThermostatRegulationTests {
    static let hysteresisK = 0.5
    static let thirtyDays = 30 * 86_400.0

    /// The mean offset of T from the band's middle, toward T∞, while crossing the band.
    ///
    /// In a phase the room moves across `[S − w, S + w]` at speed ∝ distance D to T∞, so the
    /// time density is ∝ 1/D and the time-mean of D is `2w / ln((R + w)/(R − w))`, R = |T∞ − S|.
    /// Over whole cycles the mean of T − S is a time-weighted average of the two phases' offsets.
    static func phaseOffset(distance r: Double, halfBand w: Double) -> Double {
        r - 2 * w / log((r + w) / (r - w))
    }

    // MARK: Check 2 — steady regulation

    @Test("heating for 30 days uses UA·(S − T_out)·t of electricity, within C·h", arguments: RegulationCase.heating)
    func steadyHeating(_ c: RegulationCase) throws {
        let zone = try ZoneParameters(uaWPerK: c.ua, capacitanceKWhPerK: c.capacitanceKWh)
        let thermostat = EventDrivenThermostat(
            parameters: zone, mode: .heating(powerW: c.powerW), setpointCelsius: c.setpoint,
            hysteresisK: Self.hysteresisK)
        let run = try thermostat.run(
            from: c.setpoint, outdoor: EventDrivenThermostat.constant(c.outdoor, for: Self.thirtyDays),
            durationSeconds: Self.thirtyDays)

        let expected = c.ua * (c.setpoint - c.outdoor) * Self.thirtyDays
        let storedInBand = zone.capacitanceJPerK * Self.hysteresisK
        #expect(abs(run.electricEnergyJ - expected) <= storedInBand)

        // Exact energy balance: Σ Q·Δt = C·(T_end − T0) + UA·∫(T − T_out) dt.
        let balance =
            zone.capacitanceJPerK * (run.finalCelsius - c.setpoint)
            + zone.uaWPerK * (run.roomIntegral - run.outdoorIntegral)
        #expect(abs(run.deviceHeatJ - balance) <= 1e-9 * run.deviceHeatJ)
        // The room never leaves the band (to the root finder's 1e-9 K).
        #expect(run.minCelsius >= thermostat.lower - 1e-9)
        #expect(run.maxCelsius <= thermostat.upper + 1e-9)
        // Event-driven: two switches per cycle, no stepping.
        #expect(run.segments == run.switches.count + 1)
        #expect(run.switches.count > 100)
    }

    // MARK: Check 3 — duty cycle

    @Test(
        "duty cycle ≈ UA·(S − T_out)/P, within UA·δ/P; and equals the closed-form cycle to 1e-9",
        arguments: RegulationCase.heating)
    func dutyCycle(_ c: RegulationCase) throws {
        let zone = try ZoneParameters(uaWPerK: c.ua, capacitanceKWhPerK: c.capacitanceKWh)
        let h = Self.hysteresisK
        let w = h / 2
        let thermostat = EventDrivenThermostat(
            parameters: zone, mode: .heating(powerW: c.powerW), setpointCelsius: c.setpoint, hysteresisK: h)
        let run = try thermostat.run(
            from: c.setpoint, outdoor: EventDrivenThermostat.constant(c.outdoor, for: Self.thirtyDays),
            durationSeconds: Self.thirtyDays)

        // Whole cycles only: from the first switch-on to the last switch-on, so no heat is left in storage.
        let ons = run.switches.filter(\.on)
        let first = try #require(ons.first).seconds
        let last = try #require(ons.last).seconds
        var onSeconds = 0.0
        for (on, off) in zip(run.switches.drop { !$0.on }, run.switches.drop { !$0.on }.dropFirst())
        where on.on && !off.on && off.seconds <= last {
            onSeconds += off.seconds - on.seconds
        }
        let duty = onSeconds / (last - first)

        // Closed-form cycle: on from S − w to S + w heading for T_out + P/UA, off back heading for T_out.
        let rOn = c.outdoor + c.powerW / c.ua - c.setpoint
        let rOff = c.setpoint - c.outdoor
        let lnOn = log((rOn + w) / (rOn - w))
        let lnOff = log((rOff + w) / (rOff - w))
        #expect(abs(duty - lnOn / (lnOn + lnOff)) <= 1e-9)

        // Over whole cycles P·t_on = UA·∫(T − T_out), so duty − UA(S − T_out)/P = UA·mean(T − S)/P,
        // and |mean(T − S)| ≤ max(δ_on, δ_off) with δ the phase offsets above.
        let delta = max(Self.phaseOffset(distance: rOn, halfBand: w), Self.phaseOffset(distance: rOff, halfBand: w))
        let tolerance = c.ua * delta / c.powerW
        let ideal = c.ua * (c.setpoint - c.outdoor) / c.powerW
        #expect(abs(duty - ideal) <= tolerance)
        // And the whole 30-day run, including partial cycles, within C·h/(P·t) more.
        let overall = run.onSeconds / run.durationSeconds
        #expect(abs(overall - ideal) <= tolerance + zone.capacitanceJPerK * h / (c.powerW * run.durationSeconds))
    }

    // MARK: Check 4 — degree-days

    @Test("heating energy over two weeks of hourly outdoor knots ≈ UA·Σ(S − T_out)·Δt")
    func degreeDays() throws {
        let zone = ZoneParameters.typicalFlat
        let h = Self.hysteresisK
        let setpoint = 20.0
        let powerW = 3000.0
        let hours = 14 * 24
        var random = SplitMix64(seed: 2026)
        let knots = (0...hours).map { hour in
            let t = Double(hour)
            let daily = 5 * sin(2 * Double.pi * (t - 9) / 24)
            let synoptic = 3 * sin(2 * Double.pi * t / (24 * 5))
            let noise = Double.random(in: -1...1, using: &random)
            return EventDrivenThermostat.Knot(seconds: t * 3600, celsius: 4 + daily + synoptic + noise)
        }
        let duration = Double(hours) * 3600
        let thermostat = EventDrivenThermostat(
            parameters: zone, mode: .heating(powerW: powerW), setpointCelsius: setpoint, hysteresisK: h)
        let run = try thermostat.run(from: setpoint, outdoor: knots, durationSeconds: duration)

        // UA·Σ(S − T_out)·Δt with trapezoids: exact for the linearly interpolated series.
        var degreeSeconds = 0.0
        for (a, b) in zip(knots, knots.dropFirst()) {
            degreeSeconds += (b.seconds - a.seconds) * (setpoint - (a.celsius + b.celsius) / 2)
        }
        let expected = zone.uaWPerK * degreeSeconds

        // Exact balance again: E = C·ΔT + UA·Σ(S − T_out)Δt + UA·∫(T − S) dt.
        let storage = zone.capacitanceJPerK * (run.finalCelsius - setpoint)
        let offset = zone.uaWPerK * (run.roomIntegral - setpoint * duration)
        #expect(abs(run.electricEnergyJ - (expected + storage + offset)) <= 1e-9 * expected)
        #expect(run.minCelsius >= thermostat.lower - 1e-9 && run.maxCelsius <= thermostat.upper + 1e-9)

        // Margin: storage ≤ C·h/2 (start at S, end inside the band). The offset term is UA·t·mean(T − S);
        // with constant weather |mean(T − S)| ≤ max δ(R) (check 3), largest at the smallest distance R
        // to either steady state over the series. Weather also drifts within a phase, which shifts the
        // mean by at most the same order; we allow twice the worst-case δ for it.
        let coldest = try #require(knots.map(\.celsius).min())
        let warmest = try #require(knots.map(\.celsius).max())
        let rOn = coldest + powerW / zone.uaWPerK - setpoint
        let rOff = setpoint - warmest
        let delta = max(
            Self.phaseOffset(distance: rOn, halfBand: h / 2), Self.phaseOffset(distance: rOff, halfBand: h / 2))
        let margin = zone.uaWPerK * duration * 2 * delta
        #expect(abs(run.electricEnergyJ - expected) <= zone.capacitanceJPerK * h + margin)
        // The two parts separately: storage within one band, the mean offset within the margin.
        #expect(abs(storage) <= zone.capacitanceJPerK * h / 2 + 1e-3)
        #expect(abs(offset) <= margin)
    }

    // MARK: Check 5 — cooling mirror of check 2

    @Test(
        "cooling for 30 days uses UA·(T_out − S)·t / cop of electricity, within C·h / cop",
        arguments: [(32.0, 24.0, 1000.0, 3.0), (35.0, 22.0, 1500.0, 2.9), (28.0, 25.0, 800.0, 3.3)])
    func steadyCooling(outdoor: Double, setpoint: Double, powerW: Double, cop: Double) throws {
        let zone = ZoneParameters.typicalFlat
        let h = Self.hysteresisK
        let w = h / 2
        let thermostat = EventDrivenThermostat(
            parameters: zone, mode: .cooling(powerW: powerW, cop: cop), setpointCelsius: setpoint, hysteresisK: h)
        let run = try thermostat.run(
            from: setpoint, outdoor: EventDrivenThermostat.constant(outdoor, for: Self.thirtyDays),
            durationSeconds: Self.thirtyDays)

        let expected = zone.uaWPerK * (outdoor - setpoint) * Self.thirtyDays / cop
        #expect(abs(run.electricEnergyJ - expected) <= zone.capacitanceJPerK * h / cop)
        #expect(abs(run.deviceHeatJ + run.electricEnergyJ * cop) <= 1e-9 * run.deviceHeatJ.magnitude)

        // Duty cycle mirror: ≈ UA·(T_out − S)/(P·cop) within UA·δ/(P·cop) + C·h/(P·cop·t).
        let rOn = setpoint - (outdoor - powerW * cop / zone.uaWPerK)
        let rOff = outdoor - setpoint
        let delta = max(Self.phaseOffset(distance: rOn, halfBand: w), Self.phaseOffset(distance: rOff, halfBand: w))
        let ideal = zone.uaWPerK * (outdoor - setpoint) / (powerW * cop)
        let duty = run.onSeconds / run.durationSeconds
        let tolerance = (zone.uaWPerK * delta + zone.capacitanceJPerK * h / run.durationSeconds) / (powerW * cop)
        #expect(abs(duty - ideal) <= tolerance)
        #expect(run.minCelsius >= thermostat.lower - 1e-9 && run.maxCelsius <= thermostat.upper + 1e-9)
    }
}
