import Physics
import Simulation

/// The smart-preheat calculation, free of I/O: given the room temperature now, an outdoor curve
/// and the flat's ``PreheatModel``, the latest instant heating at full power can start so that the
/// room reaches the comfort temperature exactly at check-in.
///
/// The room drifts freely (no heat input) until the start `s`, then heats at `heatingPowerW`; each
/// stretch between outdoor knots (and `s`) is an exact Physics ``ZoneSegment`` with the outdoor
/// temperature linear in time. The temperature at check-in falls monotonically as `s` moves later,
/// so `s` is found by bisection to the second.
public struct PreheatPlanner: Hashable, Sendable {
    /// The outcome of a plan.
    public struct Estimate: Hashable, Sendable {
        /// The latest start (whole seconds); `now` when comfort cannot be reached in time, check-in when
        /// the room will be warm enough without heating.
        public var latestStart: SimInstant
        /// The predicted room temperature at check-in when heating starts at ``latestStart``, °C.
        public var predictedC: Double
        /// The room temperature at check-in without any heating, °C.
        public var unheatedC: Double
        /// Whether comfort is reachable when starting now.
        public var reachable: Bool
    }

    /// The flat.
    public let model: PreheatModel

    /// A planner for `model`.
    public init(model: PreheatModel) { self.model = model }

    /// The room temperature at `end`, drifting from `roomC` at `start` until `heatingFrom`, heating at full
    /// power from then on; `nil` if the physics refuses the numbers (non-finite inputs).
    public func temperatureC(at end: SimInstant, from start: SimInstant, roomC: Double, heatingFrom: SimInstant,
                             outdoor: OutdoorProfile) -> Double? {
        guard end > start else { return roomC }
        var breaks = outdoor.knotInstants(after: start, before: end)
        if heatingFrom > start, heatingFrom < end { breaks.append(heatingFrom) }
        breaks = Array(Set(breaks)).sorted()
        var t = start
        var temperature = roomC
        for next in breaks + [end] {
            let seconds = (next - t).seconds
            let a = outdoor.temperatureC(at: t)
            let slope = (outdoor.temperatureC(at: next) - a) / seconds
            let heat = t >= heatingFrom ? model.heatingPowerW : 0
            do {
                let segment = try ZoneSegment(parameters: model.parameters, initialCelsius: temperature, outdoorCelsius: a,
                                              outdoorSlopeKPerSecond: slope, heatInputW: heat)
                temperature = segment.temperature(at: seconds)
            } catch {
                return nil
            }
            guard temperature.isFinite else { return nil }
            t = next
        }
        return temperature
    }

    /// The latest start so that the room, at `roomC` now, reaches `comfortC` at `checkIn`.
    /// - Returns: the estimate, or `nil` when `checkIn` is not after `now` or the physics refuses the numbers.
    public func latestStart(now: SimInstant, roomC: Double, checkIn: SimInstant, comfortC: Double,
                            outdoor: OutdoorProfile) -> Estimate? {
        guard checkIn > now else { return nil }
        func final(_ start: SimInstant) -> Double? {
            temperatureC(at: checkIn, from: now, roomC: roomC, heatingFrom: start, outdoor: outdoor)
        }
        guard let earliest = final(now), let unheated = final(checkIn) else { return nil }
        if unheated >= comfortC {
            return Estimate(latestStart: checkIn, predictedC: unheated, unheatedC: unheated, reachable: true)
        }
        if earliest < comfortC {
            return Estimate(latestStart: now, predictedC: earliest, unheatedC: unheated, reachable: false)
        }
        // Invariant: final(low) ≥ comfortC > final(high).
        var low = now.unixMilliseconds, high = checkIn.unixMilliseconds
        while high - low > 1_000 {
            let mid = low + (high - low) / 2
            guard let value = final(SimInstant(unixMilliseconds: mid)) else { return nil }
            if value >= comfortC { low = mid } else { high = mid }
        }
        let start = max(now, SimInstant(unixSeconds: SimInstant(unixMilliseconds: low).unixSeconds))
        guard let predicted = final(start) else { return nil }
        return Estimate(latestStart: start, predictedC: predicted, unheatedC: unheated, reachable: true)
    }
}
