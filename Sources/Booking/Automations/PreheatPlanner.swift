import Physics
import Simulation

/// The smart-preheat calculation, free of I/O: given the room temperature now, an outdoor curve
/// and the flat's ``PreheatModel``, the latest instant heating at full power can start so that the
/// room reaches the comfort temperature exactly at check-in.
///
/// Until the start `s` the room drifts without preheat; from `s` on it heats at `heatingPowerW`.
/// Without a floor the drift is free (no heat input). With a floor `F` — a heating thermostat that is
/// switched ON at a lower setpoint `S` (a setback) holds the room in `[S − h/2, S + h/2]`, so
/// `F = S − h/2` — the room before `s` is taken as `max(free drift, min(full-power trajectory, F))`:
/// it never falls below `F`, and a room that starts below `F` rises towards it at full power (the
/// element is on below `S − h/2`). That is a lower bound of the regulated room, so the start it gives
/// is never too late; a floor the heater cannot hold (full power below `UA·(F − T_out)` at some
/// moment before check-in) is ignored. Each stretch between outdoor knots (and `s`) is an exact
/// Physics ``ZoneSegment`` with the outdoor temperature linear in time. The temperature at check-in
/// falls monotonically as `s` moves later, so `s` is found by bisection to the second.
public struct PreheatPlanner: Hashable, Sendable {
    /// The outcome of a plan.
    public struct Estimate: Hashable, Sendable {
        /// The latest start (whole seconds); `now` when comfort cannot be reached in time, check-in when
        /// the room will be warm enough without preheat.
        public var latestStart: SimInstant
        /// The predicted room temperature at check-in when heating starts at ``latestStart``, °C.
        public var predictedC: Double
        /// The room temperature at check-in without preheat (free drift, held at ``floorC`` if any), °C.
        public var unheatedC: Double
        /// Whether comfort is reachable when starting now.
        public var reachable: Bool
        /// The floor the estimate assumed, °C: `nil` when none was given or the heater cannot hold it.
        public var floorC: Double?
    }

    /// The flat.
    public let model: PreheatModel

    /// A planner for `model`.
    public init(model: PreheatModel) { self.model = model }

    /// The room temperature at `end`, drifting from `roomC` at `start` until `heatingFrom`, heating at full
    /// power from then on; `nil` if the physics refuses the numbers (non-finite inputs).
    /// - Parameter floorC: The temperature a thermostat holds the room at or above before `heatingFrom`
    ///   (see the type's summary), °C; `nil` for a free drift. It is taken as given: check it with
    ///   ``holdsFloor(_:from:to:outdoor:)`` first.
    public func temperatureC(at end: SimInstant, from start: SimInstant, roomC: Double, heatingFrom: SimInstant,
                             outdoor: OutdoorProfile, floorC: Double? = nil) -> Double? {
        guard let floorC, end > start, heatingFrom > start else {
            return exactC(at: end, from: start, roomC: roomC, heatingFrom: heatingFrom, outdoor: outdoor)
        }
        let switchAt = min(heatingFrom, end)
        guard let free = exactC(at: switchAt, from: start, roomC: roomC, heatingFrom: switchAt, outdoor: outdoor),
              let full = exactC(at: switchAt, from: start, roomC: roomC, heatingFrom: start, outdoor: outdoor) else { return nil }
        let held = max(free, min(full, floorC))
        return exactC(at: end, from: switchAt, roomC: held, heatingFrom: switchAt, outdoor: outdoor)
    }

    /// Whether full heating power can hold the room at `floorC` throughout `[start, end]`:
    /// `heatingPowerW ≥ UA · (floorC − T_out)` at every moment (checked at `start`, `end` and the knots
    /// between, where the piecewise-linear outdoor curve has its minima).
    public func holdsFloor(_ floorC: Double, from start: SimInstant, to end: SimInstant, outdoor: OutdoorProfile) -> Bool {
        guard floorC.isFinite else { return false }
        let instants = [start, end] + outdoor.knotInstants(after: start, before: end)
        let coldestC = instants.map(outdoor.temperatureC(at:)).min() ?? outdoor.temperatureC(at: start)
        return model.heatingPowerW >= model.parameters.uaWPerK * (floorC - coldestC)
    }

    /// The latest start so that the room, at `roomC` now, reaches `comfortC` at `checkIn`.
    /// - Parameter floorC: The temperature a heating thermostat switched ON holds the room at or above until
    ///   preheat starts (setpoint − hysteresis/2), °C; `nil` (default) when the heating is OFF: a free drift.
    ///   Ignored (``Estimate/floorC`` is `nil`) when the heater cannot hold it until check-in.
    /// - Returns: the estimate, or `nil` when `checkIn` is not after `now` or the physics refuses the numbers.
    public func latestStart(now: SimInstant, roomC: Double, checkIn: SimInstant, comfortC: Double,
                            outdoor: OutdoorProfile, floorC: Double? = nil) -> Estimate? {
        guard checkIn > now else { return nil }
        let floor = floorC.flatMap { holdsFloor($0, from: now, to: checkIn, outdoor: outdoor) ? $0 : nil }
        func final(_ start: SimInstant) -> Double? {
            temperatureC(at: checkIn, from: now, roomC: roomC, heatingFrom: start, outdoor: outdoor, floorC: floor)
        }
        guard let earliest = final(now), let unheated = final(checkIn) else { return nil }
        if unheated >= comfortC {
            return Estimate(latestStart: checkIn, predictedC: unheated, unheatedC: unheated, reachable: true, floorC: floor)
        }
        if earliest < comfortC {
            return Estimate(latestStart: now, predictedC: earliest, unheatedC: unheated, reachable: false, floorC: floor)
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
        return Estimate(latestStart: start, predictedC: predicted, unheatedC: unheated, reachable: true, floorC: floor)
    }

    /// The exact 1R1C temperature at `end`: no heat input before `heatingFrom`, full power from then on.
    private func exactC(at end: SimInstant, from start: SimInstant, roomC: Double, heatingFrom: SimInstant,
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
}
