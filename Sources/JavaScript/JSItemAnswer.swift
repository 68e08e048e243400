import Foundation
import Rules
import SmartHome

/// The twin's answer to a script's question about an Item beyond its state (`item.previousState`,
/// `lastStateUpdateTimestamp`, `getMetadata(…)`), read from the Item as the world holds it now.
enum JSItemAnswer {
    /// The answer to `question` (`{q: "item", item, field, namespace?}`): `{state, at, metadata}` with JSON
    /// nulls, or `{error, code}`.
    static func answer(_ question: [String: Any], engine: RuleEngine) -> [String: Any] {
        guard let itemText = question["item"] as? String, let field = question["field"] as? String else {
            return ["error": "the twin does not answer this question", "code": JavaScriptError.Code.protocolError.rawValue]
        }
        guard let item = engine.item(itemText) else {
            return ["error": "Item '\(itemText)' could not be found in the item registry", "code": JavaScriptError.Code.runtime.rawValue]
        }
        var out: [String: Any] = ["state": NSNull(), "at": NSNull(), "metadata": NSNull()]
        switch field {
        case "previousState": out["state"] = item.lastState?.description ?? NSNull()
        case "lastStateUpdate": out["at"] = item.lastStateUpdate?.unixMilliseconds ?? NSNull()
        case "lastStateChange": out["at"] = item.lastStateChange?.unixMilliseconds ?? NSNull()
        case "metadata":
            var all: [String: Any] = [:]
            for (namespace, entry) in item.metadata {
                all[namespace] = ["value": entry.value, "configuration": entry.config] as [String: Any]
            }
            out["metadata"] = all
        default:
            return ["error": "Item.\(field) is not supported by the twin", "code": JavaScriptError.Code.unsupported.rawValue]
        }
        return out
    }
}
