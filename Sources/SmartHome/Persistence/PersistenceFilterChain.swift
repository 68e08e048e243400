import Simulation
import Synchronization

/// The filters of one `.persist` Items line, applied as openHAB's `PersistenceManager` applies them: a state is
/// stored only when every filter admits it, and each filter then remembers it (`persisted`).
public final class PersistenceFilterChain: Sendable {
    private let filters: [PersistenceFilterKind]
    /// Per Item: the last stored state (threshold) and the instant before which nothing is stored again (time).
    private let memory = Mutex<[ItemName: (state: State, next: SimInstant?)]>([:])

    public init(_ filters: [PersistenceFilterKind]) {
        self.filters = filters
    }

    /// Whether `state` of `name` is stored at `instant`; if so, it is remembered.
    public func admit(_ name: ItemName, _ state: State, at instant: SimInstant) -> Bool {
        guard !filters.isEmpty else { return true }
        return memory.withLock { memory in
            let last = memory[name]
            var timePeriod: Int64?
            for filter in filters {
                switch filter {
                case .threshold(let value, let relative, let unit):
                    guard let last, let delta = Self.delta(last.state, state, relative: relative, unit: unit) else { continue }
                    if !(abs(delta) > value) { return false }
                case .time(let seconds):
                    timePeriod = seconds
                    if let next = last?.next, instant < next { return false }
                case .equals(let values, let inverted):
                    // PersistenceEqualsFilter: the state's full text is (or is not) one of the values.
                    if values.contains(state.description) == inverted { return false }
                case .include(let lower, let upper, let unit, let inverted):
                    guard let value = Self.number(state, unit: unit) else { continue }  // openHAB warns and stores
                    let inside = value >= lower && value <= upper
                    let admitted = inverted ? (value <= lower || value >= upper) : inside
                    if !admitted { return false }
                }
            }
            memory[name] = (state, timePeriod.map { instant + .seconds($0) })
            return true
        }
    }

    /// `PersistenceThresholdFilter`: the change from `old` to `new` (in percent of `old` when relative); `nil`
    /// where openHAB stores anyway (not numbers, another kind, units that do not convert, an old value of 0).
    private static func delta(_ old: State, _ new: State, relative: Bool, unit: String?) -> Double? {
        switch (old, new) {
        case (.decimal(let a), .decimal(let b)):
            let d = a.value - b.value
            return relative ? (a.value == 0 ? nil : (d * 100 / a.value * 100).rounded() / 100) : d
        case (.quantity(let a), .quantity(let b)):
            guard let bb = b.converted(to: a.unit) else { return nil }
            if relative { return a.value == 0 ? nil : (a.value - bb.value) * 100 / a.value }
            if let unit, !unit.isEmpty, let target = QuantityUnit(symbol: unit), let a2 = a.converted(to: target), let b2 = b.converted(to: target) {
                return a2.value - b2.value
            }
            return a.value - bb.value
        default:
            return nil
        }
    }

    /// `PersistenceIncludeFilter`'s number: a decimal, or a quantity in the filter's unit.
    private static func number(_ state: State, unit: String?) -> Double? {
        switch state {
        case .decimal(let n): return n.value
        case .quantity(let q):
            guard let unit, !unit.isEmpty, let target = QuantityUnit(symbol: unit) else { return nil }
            return q.converted(to: target)?.value
        default: return nil
        }
    }
}

extension PersistenceStore {
    /// Records `names` by `strategy` as ``record(_:items:strategy:restoreOnStartup:)`` does, through `filters`;
    /// NULL and UNDEF are not stored, as openHAB's persistence services skip them.
    /// - Returns: the bus subscription.
    @discardableResult
    public func record(_ runtime: OpenHABRuntime, items names: [ItemName], strategy: PersistenceStrategy,
                       filters: PersistenceFilterChain) -> EventBus.SubscriptionID {
        let chosen = Set(names)
        let action = strategy == .everyChange ? "statechanged" : "stateupdated"
        let scheduler = runtime.scheduler
        return runtime.events.subscribe(EventFilter(topics: chosen.sorted().map { "openhab/items/\($0)/\(action)" })) { [self] event in
            switch event.kind {
            case .itemStateChanged(let name, let state, _, _, _) where strategy == .everyChange && chosen.contains(name) && !state.isUndefined:
                let now = scheduler.now
                if filters.admit(name, state, at: now) { store(name, state, at: now) }
            case .itemStateUpdated(let name, let state, _) where strategy == .everyUpdate && chosen.contains(name) && !state.isUndefined:
                let now = scheduler.now
                if filters.admit(name, state, at: now) { store(name, state, at: now) }
            default:
                break
            }
        }
    }
}
