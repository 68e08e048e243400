import Simulation

/// openHAB's persistence extensions (openhab-core `PersistenceExtensions`) over a ``PersistenceStore``, at
/// one instant `now` of the virtual clock: what a rule's `Item.previousState()`, `averageSince(…)`,
/// `changedSince(…)` … answer. `nil` is Java's `null` (nothing persisted, or an interval openHAB refuses).
///
/// Every `…Since(t)` is `…Between(t, now)` and every `…Until(t)` is `…Between(now, t)`, as in openHAB; the
/// store holds no future states, so an `…Until` of a future instant sees only the current state.
/// Numbers are computed in binary floating point (openHAB uses `BigDecimal`), so a mean may differ from
/// openHAB's in its 16th significant digit.
public struct PersistenceQueries: Sendable {
    public let store: PersistenceStore
    /// The instant the queries are asked at (Java's `ZonedDateTime.now()`).
    public let now: SimInstant

    public init(store: PersistenceStore, now: SimInstant) {
        self.store = store
        self.now = now
    }

    // MARK: Storing

    /// `persist(item)`: stores the Item's current state now, whatever the strategy.
    public func persist(_ item: Item) { store.store(item.name, item.state, at: now) }

    /// `persist(item, timestamp, state)`: stores `state` at `instant` (a `ModifiablePersistenceService`).
    public func persist(_ item: Item, at instant: SimInstant, _ state: State) { store.store(item.name, state, at: instant) }

    // MARK: Single states

    /// `persistedState(item, timestamp)` (formerly `historicState`): the newest state stored at or before `instant`.
    public func historicState(_ item: Item, at instant: SimInstant) -> PersistedEntry? {
        store.persistedState(item.name, at: instant)
    }

    /// `previousState(item, skipEqual)`: the newest stored state up to now; with `skipEqual`, the newest one
    /// that differs from the Item's current state (`internalAdjacentState`).
    /// Without `skipEqual` this is usually the current state itself, stored when it changed — a classic trap
    /// that openHAB has too.
    public func previousState(_ item: Item, skipEqual: Bool = false) -> PersistedEntry? {
        let past = store.entries(item.name, to: now)
        guard skipEqual else { return past.last }
        return past.last { $0.state != item.state }
    }

    /// `lastUpdate(item)`: when the newest stored state was stored — or the Item's own last update when its
    /// state differs from that (it updated since, unpersisted) (`internalAdjacent`, backward, not skipping).
    public func lastUpdate(_ item: Item) -> SimInstant? {
        guard let newest = store.persistedState(item.name, at: now) else { return nil }
        return newest.state != item.state ? item.lastStateUpdate : newest.instant
    }

    /// `lastChange(item)`: when the Item took its current state by the stored history: the oldest of the
    /// newest run of stored states equal to the current state; the Item's own last change when the newest
    /// stored state differs from the current one; `nil` when every stored state equals it.
    public func lastChange(_ item: Item) -> SimInstant? {
        let past = store.entries(item.name, to: now)
        guard let newest = past.last else { return nil }
        guard newest.state == item.state else { return item.lastStateChange }
        var index = past.count - 1
        while index > 0, past[index - 1].state == item.state { index -= 1 }
        return index > 0 ? past[index].instant : nil
    }

    // MARK: Changes and updates

    /// `changedBetween(item, begin, end)`: whether a stored state in the interval differs from the state at
    /// `begin` or from the one before it; without a state at `begin`, whether anything was stored.
    public func changedBetween(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> Bool? {
        guard let states = allStatesBetween(item, begin, end) else { return nil }
        guard let begin, let then = store.persistedState(item.name, at: begin) else { return !states.isEmpty }
        var state = then.state
        for entry in states {
            if entry.state != state { return true }
            state = entry.state
        }
        return false
    }

    public func changedSince(_ item: Item, _ instant: SimInstant) -> Bool? { changedBetween(item, instant, nil) }
    public func changedUntil(_ item: Item, _ instant: SimInstant) -> Bool? { changedBetween(item, nil, instant) }

    /// `updatedBetween(item, begin, end)`: whether anything was stored in the interval.
    public func updatedBetween(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> Bool? {
        allStatesBetween(item, begin, end).map { !$0.isEmpty }
    }

    public func updatedSince(_ item: Item, _ instant: SimInstant) -> Bool? { updatedBetween(item, instant, nil) }
    public func updatedUntil(_ item: Item, _ instant: SimInstant) -> Bool? { updatedBetween(item, nil, instant) }

    // MARK: Aggregates

    /// `maximumBetween`: the stored state (with the states at the interval's ends, retimed to them) of the
    /// greatest value, or the current state when there is none.
    public func maximumBetween(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> PersistedEntry? {
        extreme(item, begin, end, greater: true)
    }

    public func maximumSince(_ item: Item, _ instant: SimInstant) -> PersistedEntry? { maximumBetween(item, instant, nil) }
    public func maximumUntil(_ item: Item, _ instant: SimInstant) -> PersistedEntry? { maximumBetween(item, nil, instant) }

    /// `minimumBetween`, as ``maximumBetween(_:_:_:)``.
    public func minimumBetween(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> PersistedEntry? {
        extreme(item, begin, end, greater: false)
    }

    public func minimumSince(_ item: Item, _ instant: SimInstant) -> PersistedEntry? { minimumBetween(item, instant, nil) }
    public func minimumUntil(_ item: Item, _ instant: SimInstant) -> PersistedEntry? { minimumBetween(item, nil, instant) }

    /// `averageBetween`: the time-weighted mean (a left Riemann sum: each state holds until the next), from
    /// the first state known in the interval (the state at `begin`, or the first stored after it) to `end`,
    /// in the Item's unit. `begin == end`: the state then.
    public func averageBetween(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> State? {
        let beginTime = begin ?? now, endTime = end ?? now
        if beginTime == endTime { return store.persistedState(item.name, at: beginTime)?.state }
        guard let points = statesWithBoundaries(item, begin, end) else { return nil }
        var start = beginTime
        if beginTime < now, let first = points.first { start = first.instant }
        let total = Double(endTime.unixMilliseconds - start.unixMilliseconds)
        guard total != 0 else { return nil }
        var sum = 0.0
        for (previous, next) in zip(points, points.dropFirst()) {
            guard let value = value(previous.state, of: item) else { continue }
            sum += value * Double(next.instant.unixMilliseconds - previous.instant.unixMilliseconds)
        }
        return number(sum / total, of: item)
    }

    public func averageSince(_ item: Item, _ instant: SimInstant) -> State? { averageBetween(item, instant, nil) }
    public func averageUntil(_ item: Item, _ instant: SimInstant) -> State? { averageBetween(item, nil, instant) }

    /// `sumBetween`: the sum of the stored values in the interval (no boundary states), in the Item's unit.
    public func sumBetween(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> State? {
        guard let states = allStatesBetween(item, begin, end) else { return nil }
        return number(states.compactMap { value($0.state, of: item) }.reduce(0, +), of: item)
    }

    public func sumSince(_ item: Item, _ instant: SimInstant) -> State? { sumBetween(item, instant, nil) }
    public func sumUntil(_ item: Item, _ instant: SimInstant) -> State? { sumBetween(item, nil, instant) }

    /// `deltaBetween`: the value at `end` minus the value at `begin` (each the stored state at or before it;
    /// the current state stands for an open end that is now).
    public func deltaBetween(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> State? {
        guard let (start, stop) = endValues(item, begin, end) else { return nil }
        return number(stop - start, of: item)
    }

    public func deltaSince(_ item: Item, _ instant: SimInstant) -> State? { deltaBetween(item, instant, nil) }
    public func deltaUntil(_ item: Item, _ instant: SimInstant) -> State? { deltaBetween(item, nil, instant) }

    /// `evolutionRateBetween`: the change from `begin` to `end` in percent of the value at `begin` (`nil`
    /// when that is 0), a plain number.
    public func evolutionRateBetween(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> DecimalNumber? {
        guard let (start, stop) = endValues(item, begin, end), start != 0 else { return nil }
        return DecimalNumber((stop - start) / start * 100)
    }

    public func evolutionRate(_ item: Item, since instant: SimInstant) -> DecimalNumber? { evolutionRateBetween(item, instant, nil) }
    public func evolutionRate(_ item: Item, until instant: SimInstant) -> DecimalNumber? { evolutionRateBetween(item, nil, instant) }

    /// `countBetween`: how many states were stored in the interval.
    public func countBetween(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> Int? {
        allStatesBetween(item, begin, end)?.count
    }

    public func countSince(_ item: Item, _ instant: SimInstant) -> Int? { countBetween(item, instant, nil) }
    public func countUntil(_ item: Item, _ instant: SimInstant) -> Int? { countBetween(item, nil, instant) }

    /// `countStateChangesBetween`: how many stored states in the interval differ from the one stored before
    /// them in it (the first does not count).
    public func countStateChangesBetween(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> Int? {
        guard let states = allStatesBetween(item, begin, end) else { return nil }
        guard var previous = states.first?.state else { return 0 }
        var count = 0
        for entry in states.dropFirst() where entry.state != previous {
            previous = entry.state
            count += 1
        }
        return count
    }

    public func countStateChangesSince(_ item: Item, _ instant: SimInstant) -> Int? { countStateChangesBetween(item, instant, nil) }
    public func countStateChangesUntil(_ item: Item, _ instant: SimInstant) -> Int? { countStateChangesBetween(item, nil, instant) }

    /// `getAllStatesBetween`: the stored states from `begin` to `end`, oldest first (`nil` as openHAB refuses).
    public func allStates(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> [PersistedEntry]? {
        allStatesBetween(item, begin, end)
    }

    // MARK: openHAB's helpers

    /// `internalGetAllStatesBetween`: the stored states from `begin` (now when open) to `end` (now when open),
    /// or `nil` for an interval openHAB refuses (both open, a begin after now with an open end, an end before
    /// now with an open begin).
    func allStatesBetween(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> [PersistedEntry]? {
        if begin == nil && end == nil { return nil }
        if let begin, end == nil, begin > now { return nil }
        if let end, begin == nil, end < now { return nil }
        return store.entries(item.name, from: begin ?? now, to: end ?? now)
    }

    /// `getAllStatesBetweenWithBoundaries`: the states in the interval, with the state at `begin` and at
    /// `end` (the current state where that is now) retimed to them when no stored state falls there.
    func statesWithBoundaries(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> [PersistedEntry]? {
        let between = allStatesBetween(item, begin, end)
        if begin == nil && end == nil { return nil }
        if let begin, end == nil, begin > now { return nil }
        if let end, begin == nil, end < now { return nil }
        if let begin, let end, end < begin { return nil }
        let beginTime = begin ?? now, endTime = end ?? now
        var list = between ?? []
        if list.first?.instant != begin {
            let first = beginTime == now ? PersistedEntry(now, item.state) : store.persistedState(item.name, at: beginTime)
            if let first { list.insert(PersistedEntry(beginTime, first.state), at: 0) }
        }
        if list.last?.instant != end {
            let last = endTime == now ? PersistedEntry(now, item.state) : store.persistedState(item.name, at: endTime)
            if let last { list.append(PersistedEntry(endTime, last.state)) }
        }
        return list.isEmpty ? nil : list
    }

    private func extreme(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?, greater: Bool) -> PersistedEntry? {
        guard let points = statesWithBoundaries(item, begin, end) else { return nil }
        var best: (value: Double, entry: PersistedEntry)?
        for entry in points {
            guard let v = value(entry.state, of: item) else { continue }
            if best == nil || (greater ? v > best!.value : v < best!.value) { best = (v, entry) }
        }
        return best?.entry ?? PersistedEntry(now, item.state)  // historicItemOrCurrentState
    }

    private func endValues(_ item: Item, _ begin: SimInstant?, _ end: SimInstant?) -> (Double, Double)? {
        var start = begin.flatMap { store.persistedState(item.name, at: $0) }.flatMap { value($0.state, of: item) }
        var stop = end.flatMap { store.persistedState(item.name, at: $0) }.flatMap { value($0.state, of: item) }
        if begin == nil, let end, end > now { start = value(item.state, of: item) }
        if end == nil, let begin, begin < now { stop = value(item.state, of: item) }
        guard let start, let stop else { return nil }
        return (start, stop)
    }

    /// `getPersistedValue`: with the Item's unit, a quantity converted to it (anything else: `nil`);
    /// without, the state as a number (`DecimalType`; ON and OPEN are 1).
    func value(_ state: State, of item: Item) -> Double? {
        if let unit = item.unit {
            guard case .quantity(let q) = state else { return nil }
            return q.converted(to: unit)?.value
        }
        return GroupFunction.numbers([state], unit: nil).first?.value
    }

    private func number(_ value: Double, of item: Item) -> State {
        if let unit = item.unit { return .quantity(Quantity(DecimalNumber(value), unit)) }
        return .decimal(DecimalNumber(value))
    }
}
