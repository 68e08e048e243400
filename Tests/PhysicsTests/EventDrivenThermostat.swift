import Physics

/// A small event-driven hysteresis thermostat for the checks in PHYSICS.md.
///
/// It never steps a clock: from each event (a switch or an outdoor knot) it builds a
/// `ZoneSegment`, asks for the first crossing of the threshold that would switch the
/// device, and jumps straight there (or to the next knot, whichever is first).
struct EventDrivenThermostat {
    /// What the device does to the room.
    enum Mode {
        /// Resistive heating: heat = electricity = `powerW` while on.
        case heating(powerW: Double)
        /// Cooling: draws `powerW`, removes `powerW × cop` of heat while on.
        case cooling(powerW: Double, cop: Double)
    }

    /// One outdoor knot: linear interpolation in between.
    struct Knot {
        var seconds: Double
        var celsius: Double
    }

    /// A switching event.
    struct Switch {
        var seconds: Double
        var on: Bool
    }

    /// Everything a check needs to know about a run.
    struct Run {
        var durationSeconds = 0.0
        var onSeconds = 0.0
        var electricEnergyJ = 0.0
        /// Net heat put into the room by the device (negative when cooling), J.
        var deviceHeatJ = 0.0
        var finalCelsius = 0.0
        /// ∫ T dt in °C·s from the segment integrals.
        var roomIntegral = 0.0
        /// ∫ T_out dt in °C·s (trapezoids of the knots, exact for linear interpolation).
        var outdoorIntegral = 0.0
        var minCelsius = Double.infinity
        var maxCelsius = -Double.infinity
        var switches: [Switch] = []
        var segments = 0
    }

    let parameters: ZoneParameters
    let mode: Mode
    let setpointCelsius: Double
    let hysteresisK: Double

    var lower: Double { setpointCelsius - hysteresisK / 2 }
    var upper: Double { setpointCelsius + hysteresisK / 2 }

    /// Runs from `initialCelsius` at `t = 0` for `durationSeconds` under the outdoor knots.
    ///
    /// The device starts as PHYSICS.md says for switch-ON: heating on iff `T < S`, cooling on iff `T > S`.
    func run(from initialCelsius: Double, outdoor knots: [Knot], durationSeconds: Double) throws -> Run {
        precondition(knots.count >= 2 && knots[0].seconds == 0 && knots[knots.count - 1].seconds >= durationSeconds)
        var run = Run()
        var t = 0.0
        var celsius = initialCelsius
        var on: Bool
        switch mode {
        case .heating: on = celsius < setpointCelsius
        case .cooling: on = celsius > setpointCelsius
        }
        var k = 0
        run.minCelsius = celsius
        run.maxCelsius = celsius
        while t < durationSeconds {
            while k + 2 < knots.count && knots[k + 1].seconds <= t { k += 1 }
            let knotStart = knots[k]
            let knotEnd = knots[k + 1]
            let intervalEnd = min(knotEnd.seconds, durationSeconds)

            // The hysteresis rule, applied to where the room is now.
            let heatW: Double
            let target: Double
            let electricW: Double
            switch mode {
            case .heating(let powerW):
                if celsius <= lower { on = true } else if celsius >= upper { on = false }
                heatW = on ? powerW : 0
                electricW = on ? powerW : 0
                target = on ? upper : lower
            case .cooling(let powerW, let cop):
                if celsius >= upper { on = true } else if celsius <= lower { on = false }
                heatW = on ? -powerW * cop : 0
                electricW = on ? powerW : 0
                target = on ? lower : upper
            }

            let slope = (knotEnd.celsius - knotStart.celsius) / (knotEnd.seconds - knotStart.seconds)
            let outdoorNow = knotStart.celsius + slope * (t - knotStart.seconds)
            let segment = try ZoneSegment(
                parameters: parameters, initialCelsius: celsius, outdoorCelsius: outdoorNow,
                outdoorSlopeKPerSecond: slope, heatInputW: heatW)
            let horizon = intervalEnd - t
            let crossing = segment.firstCrossing(of: target, within: horizon)
            let step = crossing ?? horizon

            if let turn = segment.turningPointSeconds, turn < step {
                let extreme = segment.temperature(at: turn)
                run.minCelsius = min(run.minCelsius, extreme)
                run.maxCelsius = max(run.maxCelsius, extreme)
            }
            run.roomIntegral += segment.integral(to: step)
            run.outdoorIntegral += step * (outdoorNow + segment.outdoorTemperature(at: step)) / 2
            run.deviceHeatJ += heatW * step
            run.electricEnergyJ += electricW * step
            if on { run.onSeconds += step }
            run.segments += 1
            precondition(run.segments < 10_000_000, "thermostat loop does not advance")

            celsius = segment.temperature(at: step)
            run.minCelsius = min(run.minCelsius, celsius)
            run.maxCelsius = max(run.maxCelsius, celsius)
            if crossing != nil {
                t += step
                on.toggle()
                run.switches.append(Switch(seconds: t, on: on))
            } else {
                t = intervalEnd
            }
        }
        run.durationSeconds = t
        run.finalCelsius = celsius
        return run
    }

    /// Constant outdoor temperature over `[0, durationSeconds]` as two knots.
    static func constant(_ celsius: Double, for durationSeconds: Double) -> [Knot] {
        [Knot(seconds: 0, celsius: celsius), Knot(seconds: durationSeconds, celsius: celsius)]
    }
}
