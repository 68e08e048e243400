import Simulation
import SmartHome

/// openHAB's persistence extensions as methods of an Item (openhab-core `PersistenceExtensions`, which the
/// Rules DSL imports statically as extension methods): `Door.lastChange`, `Temp.averageSince(now.minusHours(1))`,
/// `Power.maximumSince(t, "rrd4j").state`. They run on ``PersistenceQueries`` over the store of the service
/// openHAB would pick: a trailing service id (`"rrd4j"`, `"mapdb"`, `"influxdb"` …) names a `.persist` file's
/// service, else the default service; the scenario's `persistence` key is one more service (the default, and
/// the answer to an id no `.persist` file defines; alone, it is every service).
///
/// An Item the scenario's `persistence` does not record is refused (`rules.dslNotPersisted`, the run ends)
/// where openHAB would log a warning and return `null`: a rule that reads nothing from a history nobody
/// stores is a configuration mistake a CI run should name, not a `null` that surfaces later as a
/// `NullPointerException` or a silently skipped branch.
enum DSLPersistence {
    /// The Item, its queries at now, and the arguments without a trailing service id.
    private static func queries(_ name: String, _ r: DSLValue, _ args: [DSLValue], _ at: DSLLocation,
                                _ i: DSLInterpreter) throws(DSLFlow) -> (Item, PersistenceQueries, [DSLValue]) {
        guard case .item(let itemName) = r, let item = i.execution.item(checked: itemName) else {
            throw DSLFlow.failure("\(r.text) is not an Item", at, type: "ItemNotFoundException")
        }
        var rest = args
        var service: String?
        if case .string(let id)? = rest.last {  // the service id, as openHAB's extensions take it last
            service = id
            rest.removeLast()
        }
        let store: PersistenceStore
        switch i.execution.engine.persistence(for: item.name, service: service) {
        case .success(let found):
            store = found
        case .failure(.notPersisted(let id?)):
            throw DSLFlow.fatal("\(itemName).\(name)(…) reads the persistence service \(id), whose \(id).persist does not persist \(itemName) "
                                + "(rules.dslNotPersisted); hint: add \(itemName) (or its Group as gName*, or *) to the Items of \(id).persist", at)
        case .failure(.notPersisted(nil)):
            throw DSLFlow.fatal("\(itemName).\(name)(…) reads persistence, but the scenario's \"persistence\" does not record \(itemName) "
                                + "(rules.dslNotPersisted); hint: add \"\(itemName)\" (or a Group as \"gName*\", or \"*\") to \"persistence\": {\"items\": […]}", at)
        case .failure(.unknownService(let id, let known)):
            // openHAB logs "There is no queryable persistence service registered with the id '…'" and returns null;
            // the twin ends the run (rules.dslNotPersisted), as for an Item nobody persists.
            throw DSLFlow.fatal("\(itemName).\(name)(…) reads the persistence service \(id.isEmpty ? "(default)" : id), which the scenario does not have "
                                + "(rules.dslNotPersisted); hint: its services are \(known.joined(separator: ", ")) (one persistence/<id>.persist file each)", at)
        }
        return (item, PersistenceQueries(store: store, now: i.execution.now), rest)
    }

    private static func instant(_ v: DSLValue, _ name: String, _ at: DSLLocation) throws(DSLFlow) -> SimInstant {
        switch v {
        case .instant(let t): return t
        case .state(.dateTime(let d)): return d.instant
        default: throw DSLFlow.failure("\(name) takes a ZonedDateTime (now.minusHours(1)), not \(v.kindName)", at, type: "IllegalArgumentException")
        }
    }

    /// `…Since(t)`, `…Until(t)` or `…Between(b, e)`: the interval (nil = now, as openHAB's internal forms).
    private static func interval(_ name: String, _ form: Form, _ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> (SimInstant?, SimInstant?) {
        switch form {
        case .since:
            guard a.count == 1 else { throw DSLFlow.failure("\(name) takes an instant (and optionally a service id)", at) }
            return (try instant(a[0], name, at), nil)
        case .until:
            guard a.count == 1 else { throw DSLFlow.failure("\(name) takes an instant (and optionally a service id)", at) }
            return (nil, try instant(a[0], name, at))
        case .between:
            guard a.count == 2 else { throw DSLFlow.failure("\(name) takes a begin and an end (and optionally a service id)", at) }
            return (try instant(a[0], name, at), try instant(a[1], name, at))
        }
    }

    private enum Form: String, CaseIterable { case since = "Since", until = "Until", between = "Between" }

    private static func historic(_ item: Item, _ entry: PersistedEntry?) -> DSLValue {
        entry.map { .historic(item.name.description, $0) } ?? .null
    }

    /// One aggregate in its three forms.
    private static func family(_ stem: String, _ table: inout [String: DSLMethodCode],
                               _ body: @escaping @Sendable (PersistenceQueries, Item, SimInstant?, SimInstant?) -> DSLValue) {
        for form in Form.allCases {
            let name = stem + form.rawValue
            table[name] = .init { i, r, a, at in
                let (item, q, rest) = try queries(name, r, a, at, i)
                let (begin, end) = try interval(name, form, rest, at)
                return body(q, item, begin, end)
            }
        }
    }

    private static let historicState: DSLMethodCode = .init { i, r, a, at in
        let (item, q, rest) = try queries("historicState", r, a, at, i)
        guard rest.count == 1 else { throw DSLFlow.failure("historicState takes an instant (and optionally a service id)", at) }
        return historic(item, q.historicState(item, at: try instant(rest[0], "historicState", at)))
    }

    static let methods: [String: DSLMethodCode] = {
        var table: [String: DSLMethodCode] = [
            "previousState": .init { i, r, a, at in
                let (item, q, rest) = try queries("previousState", r, a, at, i)
                var skipEqual = false
                if let first = rest.first {
                    guard case .bool(let b) = first, rest.count == 1 else { throw DSLFlow.failure("previousState takes skipEqual (true/false) and optionally a service id", at) }
                    skipEqual = b
                }
                return historic(item, q.previousState(item, skipEqual: skipEqual))
            },
            "historicState": historicState,
            "persistedState": historicState,  // openHAB 5's name of historicState
            "lastUpdate": .init { i, r, a, at in
                let (item, q, rest) = try queries("lastUpdate", r, a, at, i)
                guard rest.isEmpty else { throw DSLFlow.failure("lastUpdate takes at most a service id", at) }
                return q.lastUpdate(item).map(DSLValue.instant) ?? .null
            },
            "lastChange": .init { i, r, a, at in
                let (item, q, rest) = try queries("lastChange", r, a, at, i)
                guard rest.isEmpty else { throw DSLFlow.failure("lastChange takes at most a service id", at) }
                return q.lastChange(item).map(DSLValue.instant) ?? .null
            },
            "evolutionRate": .init { i, r, a, at in
                // openHAB 4's deprecated name of evolutionRateSince (and, with two instants, …Between).
                let (item, q, rest) = try queries("evolutionRate", r, a, at, i)
                let (begin, end) = try interval("evolutionRate", rest.count == 2 ? .between : .since, rest, at)
                return q.evolutionRateBetween(item, begin, end).map { number(.decimal($0)) } ?? .null
            },
            "persist": .init { i, r, a, at in
                let (item, q, rest) = try queries("persist", r, a, at, i)
                switch rest.count {
                case 0: q.persist(item)
                case 2:
                    // persist(timestamp, state): a state for a past or future instant.
                    let when = try instant(rest[0], "persist", at)
                    let text: String
                    switch rest[1] {
                    case .state(let s): text = s.description
                    case let other: text = DSLLibrary.commandText(other, i)
                    }
                    guard let state = item.type.parseState(text, in: i.execution.calendar).flatMap({ item.accepting($0) }) else {
                        throw DSLFlow.failure("\(text) is not a state of \(item.name)", at, type: "IllegalArgumentException")
                    }
                    q.persist(item, at: when, state)
                default: throw DSLFlow.failure("persist takes nothing, or a timestamp and a state (and optionally a service id)", at)
                }
                return .null
            },
        ]
        family("changed", &table) { q, item, b, e in q.changedBetween(item, b, e).map(DSLValue.bool) ?? .null }
        family("updated", &table) { q, item, b, e in q.updatedBetween(item, b, e).map(DSLValue.bool) ?? .null }
        family("average", &table) { q, item, b, e in q.averageBetween(item, b, e).map(number) ?? .null }
        family("sum", &table) { q, item, b, e in q.sumBetween(item, b, e).map(number) ?? .null }
        family("delta", &table) { q, item, b, e in q.deltaBetween(item, b, e).map(number) ?? .null }
        family("maximum", &table) { q, item, b, e in historic(item, q.maximumBetween(item, b, e)) }
        family("minimum", &table) { q, item, b, e in historic(item, q.minimumBetween(item, b, e)) }
        family("evolutionRate", &table) { q, item, b, e in q.evolutionRateBetween(item, b, e).map { number(.decimal($0)) } ?? .null }
        family("count", &table) { q, item, b, e in q.countBetween(item, b, e).map { .int(Int64($0)) } ?? .null }
        family("countStateChanges", &table) { q, item, b, e in q.countStateChangesBetween(item, b, e).map { .int(Int64($0)) } ?? .null }
        // Iterable<HistoricItem>, oldest first; null for an interval openHAB refuses.
        family("getAllStates", &table) { q, item, b, e in
            q.allStates(item, b, e).map { .list(DSLList($0.map { .historic(item.name.description, $0) })) } ?? .null
        }
        return table
    }()

    /// A computed number as openHAB's `BigDecimal` prints it: a whole value without `.0` (`21 - 22` is `-1`).
    private static func number(_ state: State) -> DSLValue {
        func whole(_ n: DecimalNumber) -> DecimalNumber {
            n.value == n.value.rounded() && abs(n.value) < 1e15 ? DecimalNumber(integer: Int(n.value)) : n
        }
        switch state {
        case .decimal(let n): return .state(.decimal(whole(n)))
        case .quantity(let q): return .state(.quantity(Quantity(whole(q.number), q.unit)))
        default: return .state(state)
        }
    }

    /// openHAB's `HistoricItem`: `state`, `timestamp` (a ZonedDateTime), `instant`, `name`.
    static let historicMethods: [String: DSLMethodCode] = [
        "getState": .init { _, r, _, _ in if case .historic(_, let e) = r { return .state(e.state) }; return .null },
        "getTimestamp": .init { _, r, _, _ in if case .historic(_, let e) = r { return .instant(e.instant) }; return .null },
        "getInstant": .init { _, r, _, _ in if case .historic(_, let e) = r { return .instant(e.instant) }; return .null },
        "getName": .init { _, r, _, _ in if case .historic(let n, _) = r { return .string(n) }; return .null },
    ]
}
