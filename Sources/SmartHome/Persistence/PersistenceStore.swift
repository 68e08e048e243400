import Simulation
import Synchronization

/// One persisted state of an Item: openHAB's `HistoricItem` (timestamp and state).
public struct PersistedEntry: Sendable, Hashable {
    /// When the state was stored (virtual time).
    public var instant: SimInstant
    /// The state.
    public var state: State

    public init(_ instant: SimInstant, _ state: State) {
        self.instant = instant
        self.state = state
    }
}

/// What a persistence configuration stores, as a `.persist` file's strategies say it.
public enum PersistenceStrategy: String, Sendable, CaseIterable {
    /// Every state change (`everyChange`).
    case everyChange
    /// Every state update, changed or not (`everyUpdate`).
    case everyUpdate
}

/// An in-memory persistence service on the virtual clock: each Item's persisted states in time order,
/// bounded per Item (the oldest are forgotten first), queried as openHAB's `QueryablePersistenceService`
/// with `FilterCriteria` (begin and end inclusive).
///
/// States are kept compactly (24 bytes for a number, a quantity in the Item's usual unit, ON/OFF,
/// OPEN/CLOSED): a number is kept as its value, as a persistence database keeps a double, so `21.50`
/// comes back as `21.5` (equal, as states compare by value). Other states are kept whole.
///
/// Thread-safe: its data sit behind a `Mutex`; the simulation task writes, anyone may read.
public final class PersistenceStore: Sendable {
    /// How many states each Item keeps at most (the oldest go first).
    public let maxEntriesPerItem: Int
    private let series = Mutex<[ItemName: Series]>([:])

    /// One stored state, compact.
    private enum Stored {
        case decimal(Double)
        case percent(Double)
        /// A quantity in the series' unit.
        case quantity(Double)
        case on, off, open, closed, null, undef
        indirect case other(State)
    }

    private struct Compact {
        var millis: Int64
        var stored: Stored
    }

    /// One Item's states: a ring over `entries` once it is full (`start` is the oldest).
    private struct Series {
        var entries: [Compact] = []
        var start = 0
        /// The unit of the first quantity stored; quantities in it are kept as numbers.
        var unit: QuantityUnit?

        var ordered: [Compact] { start == 0 ? entries : Array(entries[start...] + entries[..<start]) }

        mutating func compact(_ state: State, at instant: SimInstant) -> Compact {
            let stored: Stored
            switch state {
            case .decimal(let n): stored = .decimal(n.value)
            case .percent(let n): stored = .percent(n.value)
            case .quantity(let q):
                if unit == nil { unit = q.unit }
                stored = q.unit == unit ? .quantity(q.value) : .other(state)
            case .onOff(let v): stored = v.isOn ? .on : .off
            case .openClosed(let v): stored = v == .open ? .open : .closed
            case .null: stored = .null
            case .undef: stored = .undef
            default: stored = .other(state)
            }
            return Compact(millis: instant.unixMilliseconds, stored: stored)
        }

        func entry(_ c: Compact) -> PersistedEntry {
            let state: State
            switch c.stored {
            case .decimal(let v): state = .decimal(Self.number(v))
            case .percent(let v): state = .percent(Self.number(v))
            case .quantity(let v): state = .quantity(Quantity(Self.number(v), unit ?? .one))
            case .on: state = .onOff(.on)
            case .off: state = .onOff(.off)
            case .open: state = .openClosed(.open)
            case .closed: state = .openClosed(.closed)
            case .null: state = .null
            case .undef: state = .undef
            case .other(let s): state = s
            }
            return PersistedEntry(SimInstant(unixMilliseconds: c.millis), state)
        }

        static func number(_ v: Double) -> DecimalNumber {
            v == v.rounded() && abs(v) < 1e15 ? DecimalNumber(integer: Int(v)) : DecimalNumber(v)
        }
    }

    /// A store keeping at most `maxEntriesPerItem` states per Item (at least 1: mapdb keeps only the last).
    public init(maxEntriesPerItem: Int = 100_000) {
        self.maxEntriesPerItem = max(1, maxEntriesPerItem)
    }

    /// Stores `state` for `name` at `instant` (openHAB's `ModifiablePersistenceService.store(item, date, state)`):
    /// appended when it is the newest, else put in time order after the states of the same instant.
    public func store(_ name: ItemName, _ state: State, at instant: SimInstant) {
        let limit = maxEntriesPerItem
        series.withLock { all in
            // Taken out and put back, so the arrays are changed in place (not copied per store).
            var s = all.removeValue(forKey: name) ?? Series()
            defer { all[name] = s }
            let entry = s.compact(state, at: instant)
            let millis = entry.millis
            if s.entries.count < limit, s.start == 0 {
                if let last = s.entries.last, last.millis > millis {
                    let index = s.entries.lastIndex { $0.millis <= millis }.map { $0 + 1 } ?? 0
                    s.entries.insert(entry, at: index)
                } else {
                    s.entries.append(entry)
                }
                return
            }
            // Full: the ring drops the oldest.
            let newest = s.entries[(s.start + s.entries.count - 1) % s.entries.count]
            if newest.millis > millis {
                var ordered = s.ordered
                let index = ordered.lastIndex { $0.millis <= millis }.map { $0 + 1 } ?? 0
                guard index > 0 else { return }  // older than everything kept
                ordered.insert(entry, at: index)
                ordered.removeFirst()
                s.entries = ordered
                s.start = 0
                return
            }
            s.entries[s.start] = entry
            s.start = (s.start + 1) % s.entries.count
        }
    }

    /// Every state of `name` from `begin` to `end` (both inclusive, either open), oldest first.
    public func entries(_ name: ItemName, from begin: SimInstant? = nil, to end: SimInstant? = nil) -> [PersistedEntry] {
        series.withLock { all in
            guard let s = all[name] else { return [] }
            let ordered = s.ordered
            let low = begin.map { b in Self.firstIndex(ordered) { $0.millis >= b.unixMilliseconds } } ?? 0
            let high = end.map { e in Self.firstIndex(ordered) { $0.millis > e.unixMilliseconds } } ?? ordered.count
            return low < high ? ordered[low..<high].map(s.entry) : []
        }
    }

    /// The newest state of `name` at or before `instant` (`FilterCriteria` with end date, descending, page size 1).
    public func persistedState(_ name: ItemName, at instant: SimInstant) -> PersistedEntry? {
        series.withLock { all in
            guard let s = all[name] else { return nil }
            let ordered = s.ordered
            let index = Self.firstIndex(ordered) { $0.millis > instant.unixMilliseconds }
            return index > 0 ? s.entry(ordered[index - 1]) : nil
        }
    }

    /// The newest state of `name`, if any.
    public func latest(_ name: ItemName) -> PersistedEntry? {
        series.withLock { all in
            guard let s = all[name], !s.entries.isEmpty else { return nil }
            return s.entry(s.entries[(s.start + s.entries.count - 1) % s.entries.count])
        }
    }

    /// The Items with stored states, sorted by name.
    public var itemNames: [ItemName] { series.withLock { $0.keys.sorted() } }

    /// How many states are stored in all.
    public var count: Int { series.withLock { $0.values.reduce(0) { $0 + $1.entries.count } } }

    /// Forgets `name`'s states from `begin` to `end` (inclusive), as `removeAllStatesBetween`.
    public func remove(_ name: ItemName, from begin: SimInstant, to end: SimInstant) {
        series.withLock { all in
            guard var s = all.removeValue(forKey: name) else { return }
            s.entries = s.ordered.filter { $0.millis < begin.unixMilliseconds || $0.millis > end.unixMilliseconds }
            s.start = 0
            all[name] = s
        }
    }

    /// The first index whose element satisfies `belongs`, for an array partitioned by it. - Complexity: O(log n).
    private static func firstIndex(_ array: [Compact], where belongs: (Compact) -> Bool) -> Int {
        var low = 0, high = array.count
        while low < high {
            let mid = (low + high) / 2
            if belongs(array[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

extension PersistenceStore {
    /// Records the states of the Items `names` as the runtime's bus reports them, by `strategy`
    /// (openHAB's `PersistenceManager` listening to the Item registry), and with `restoreOnStartup` first
    /// gives each such Item whose state is `NULL` its newest stored state (set without events, so it is not
    /// stored again). A Group's aggregated state is an
    /// update of the Group like any other.
    /// - Returns: the bus subscription (unsubscribe to stop recording).
    @discardableResult
    public func record(_ runtime: OpenHABRuntime, items names: [ItemName], strategy: PersistenceStrategy = .everyChange,
                       restoreOnStartup: Bool = true) async -> EventBus.SubscriptionID {
        let chosen = Set(names)
        let selects: @Sendable (ItemName) -> Bool = { chosen.contains($0) }
        if restoreOnStartup {
            for name in itemNames where selects(name) {
                // Set as the Item's state without events, so the restored state is not stored again.
                if let item = runtime.items.current(name), item.state == .null, let entry = latest(name) {
                    _ = runtime.items.setState(name, entry.state, at: runtime.scheduler.now)
                }
            }
        }
        // One exact topic per Item: Items nobody persists stay unheard (their events are never built).
        let action = strategy == .everyChange ? "statechanged" : "stateupdated"
        let scheduler = runtime.scheduler
        return runtime.events.subscribe(EventFilter(topics: chosen.sorted().map { "openhab/items/\($0)/\(action)" })) { [self] event in
            switch event.kind {
            case .itemStateChanged(let name, let state, _, _, _) where strategy == .everyChange && selects(name):
                store(name, state, at: scheduler.now)
            case .itemStateUpdated(let name, let state, _) where strategy == .everyUpdate && selects(name):
                store(name, state, at: scheduler.now)
            default:
                break
            }
        }
    }
}
