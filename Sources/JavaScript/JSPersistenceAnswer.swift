import Rules
import Simulation
import SmartHome

/// The twin's answer to a script's persistence query (`item.persistence.averageSince(…)`), from the world's
/// persistence store through ``PersistenceQueries`` (openHAB's `PersistenceExtensions`), as the Rules DSL's are: the
/// default service (the scenario's `persistence`, else the `.persist` files' default, THINGS.md).
enum JSPersistenceAnswer {
    /// The answer to `question` (`{q: "persistence", item, method, args}`) at `now`:
    /// `{state, at, number, bool}` with JSON nulls, or `{error, code}`.
    static func answer(_ question: JSWireValue, engine: RuleEngine, now: SimInstant) -> JSWireValue {
        func error(_ text: String, _ code: JavaScriptError.Code) -> JSWireValue { ["error": .string(text), "code": .string(code.rawValue)] }
        guard question["q"]?.stringValue == "persistence", let itemText = question["item"]?.stringValue,
              let method = question["method"]?.stringValue else {
            return error("the twin does not answer this question", .protocolError)
        }
        guard let name = try? ItemName(itemText), let item = engine.item(itemText) else {
            return error("Item '\(itemText)' could not be found in the item registry", .runtime)
        }
        // The default service, picked as for the Rules DSL: the scenario's `persistence`, else the `.persist` files'.
        let store: PersistenceStore
        switch engine.persistence(for: name, service: nil) {
        case .success(let found):
            store = found
        case .failure(.notPersisted(let id?)):
            return error("\(itemText).persistence.\(method)(…) reads the persistence service \(id), whose \(id).persist does not persist \(itemText)",
                         .notPersisted)
        case .failure(.notPersisted(nil)):
            return error("\(itemText).persistence.\(method)(…) reads persistence, but the scenario's \"persistence\" does not record \(itemText)",
                         .notPersisted)
        case .failure(.unknownService(_, let known)):
            return error("\(itemText).persistence.\(method)(…) reads the default persistence service, which the scenario does not have (its services: \(known.joined(separator: ", ")))",
                         .notPersisted)
        }
        let queries = PersistenceQueries(store: store, now: now)
        let args = question["args"]?.arrayValue ?? []
        func instant(_ i: Int) -> SimInstant? {
            guard i < args.count, let n = args[i].int64Value else { return nil }
            return SimInstant(unixMilliseconds: n)
        }
        let begin = instant(0), end = instant(1)
        var state = JSWireValue.null, at = JSWireValue.null, number = JSWireValue.null, bool = JSWireValue.null
        func entry(_ e: PersistedEntry?) {
            if let e {
                state = .string(e.state.description)
                at = .integer(e.instant.unixMilliseconds)
            }
        }
        switch method {
        case "average": state = .stringOrNull(queries.averageBetween(item, begin, end)?.description)
        case "sum": state = .stringOrNull(queries.sumBetween(item, begin, end)?.description)
        case "delta": state = .stringOrNull(queries.deltaBetween(item, begin, end)?.description)
        case "maximum": entry(queries.maximumBetween(item, begin, end))
        case "minimum": entry(queries.minimumBetween(item, begin, end))
        case "count": number = .integerOrNull(queries.countBetween(item, begin, end).map(Int64.init))
        case "countStateChanges": number = .integerOrNull(queries.countStateChangesBetween(item, begin, end).map(Int64.init))
        case "changed": bool = queries.changedBetween(item, begin, end).map(JSWireValue.bool) ?? .null
        case "updated": bool = queries.updatedBetween(item, begin, end).map(JSWireValue.bool) ?? .null
        case "persistedState":
            guard let when = begin else { return error("persistedState needs a time", .runtime) }
            entry(queries.historicState(item, at: when))
        case "previousState": entry(queries.previousState(item, skipEqual: args.first?.boolValue ?? false))
        case "lastUpdate": at = .integerOrNull(queries.lastUpdate(item)?.unixMilliseconds)
        case "lastChange": at = .integerOrNull(queries.lastChange(item)?.unixMilliseconds)
        case "getAllStates":
            // [state, epoch ms] pairs, oldest first; null for an interval openHAB refuses.
            let all = queries.allStates(item, begin, end)
            return ["states": all.map { list in .array(list.map { .array([.string($0.state.description), .integer($0.instant.unixMilliseconds)]) }) } ?? .null]
        default:
            return error("Item.persistence.\(method) is not supported by the twin", .unsupported)
        }
        return ["state": state, "at": at, "number": number, "bool": bool]
    }
}
