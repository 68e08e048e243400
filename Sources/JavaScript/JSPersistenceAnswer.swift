import Foundation
import Rules
import Simulation
import SmartHome

/// The twin's answer to a script's persistence query (`item.persistence.averageSince(…)`), from the world's
/// persistence store through ``PersistenceQueries`` (openHAB's `PersistenceExtensions`), as the Rules DSL's are.
enum JSPersistenceAnswer {
    /// The answer to `question` (`{q: "persistence", item, method, args}`) at `now`:
    /// `{state, at, number, bool}` with JSON nulls, or `{error, code}`.
    static func answer(_ question: [String: Any], engine: RuleEngine, now: SimInstant) -> [String: Any] {
        guard question["q"] as? String == "persistence", let itemText = question["item"] as? String,
              let method = question["method"] as? String else {
            return ["error": "the twin does not answer this question", "code": JavaScriptError.Code.protocolError.rawValue]
        }
        guard let name = try? ItemName(itemText), let item = engine.item(itemText) else {
            return ["error": "Item '\(itemText)' could not be found in the item registry", "code": JavaScriptError.Code.runtime.rawValue]
        }
        guard let store = engine.persistence(for: name) else {
            return ["error": "\(itemText).persistence.\(method)(…) reads persistence, but the scenario's \"persistence\" does not record \(itemText)",
                    "code": JavaScriptError.Code.notPersisted.rawValue]
        }
        let queries = PersistenceQueries(store: store, now: now)
        let args = question["args"] as? [Any] ?? []
        func instant(_ i: Int) -> SimInstant? {
            guard i < args.count, let n = args[i] as? NSNumber else { return nil }
            return SimInstant(unixMilliseconds: n.int64Value)
        }
        let begin = instant(0), end = instant(1)
        var out: [String: Any] = ["state": NSNull(), "at": NSNull(), "number": NSNull(), "bool": NSNull()]
        func entry(_ e: PersistedEntry?) {
            if let e {
                out["state"] = e.state.description
                out["at"] = e.instant.unixMilliseconds
            }
        }
        switch method {
        case "average": out["state"] = queries.averageBetween(item, begin, end)?.description ?? NSNull()
        case "sum": out["state"] = queries.sumBetween(item, begin, end)?.description ?? NSNull()
        case "delta": out["state"] = queries.deltaBetween(item, begin, end)?.description ?? NSNull()
        case "maximum": entry(queries.maximumBetween(item, begin, end))
        case "minimum": entry(queries.minimumBetween(item, begin, end))
        case "count": out["number"] = queries.countBetween(item, begin, end) ?? NSNull()
        case "countStateChanges": out["number"] = queries.countStateChangesBetween(item, begin, end) ?? NSNull()
        case "changed": out["bool"] = queries.changedBetween(item, begin, end) ?? NSNull()
        case "updated": out["bool"] = queries.updatedBetween(item, begin, end) ?? NSNull()
        case "persistedState":
            guard let at = begin else { return ["error": "persistedState needs a time", "code": JavaScriptError.Code.runtime.rawValue] }
            entry(queries.historicState(item, at: at))
        case "previousState": entry(queries.previousState(item, skipEqual: (args.first as? Bool) ?? false))
        case "lastUpdate": out["at"] = queries.lastUpdate(item)?.unixMilliseconds ?? NSNull()
        case "lastChange": out["at"] = queries.lastChange(item)?.unixMilliseconds ?? NSNull()
        default:
            return ["error": "Item.persistence.\(method) is not supported by the twin", "code": JavaScriptError.Code.unsupported.rawValue]
        }
        return out
    }
}
