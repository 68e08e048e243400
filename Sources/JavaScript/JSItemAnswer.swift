import Rules
import SmartHome

/// The twin's answer to a script's question about an Item beyond its state (`item.previousState`,
/// `lastStateUpdateTimestamp`, `getMetadata(…)`), read from the Item as the world holds it now.
enum JSItemAnswer {
    /// The answer to `question` (`{q: "item", item, field, namespace?}`): `{state, at, metadata}` with JSON
    /// nulls, or `{error, code}`.
    static func answer(_ question: JSWireValue, engine: RuleEngine) -> JSWireValue {
        guard let itemText = question["item"]?.stringValue, let field = question["field"]?.stringValue else {
            return ["error": "the twin does not answer this question", "code": .string(JavaScriptError.Code.protocolError.rawValue)]
        }
        guard let item = engine.item(itemText) else {
            return ["error": .string("Item '\(itemText)' could not be found in the item registry"), "code": .string(JavaScriptError.Code.runtime.rawValue)]
        }
        var state = JSWireValue.null, at = JSWireValue.null, metadata = JSWireValue.null
        switch field {
        case "previousState": state = .stringOrNull(item.lastState?.description)
        case "lastStateUpdate": at = .integerOrNull(item.lastStateUpdate?.unixMilliseconds)
        case "lastStateChange": at = .integerOrNull(item.lastStateChange?.unixMilliseconds)
        case "metadata":
            // Namespaces and configuration keys sorted: the same scenario gives the same objects on every run.
            metadata = .object(item.metadata.sorted { $0.key < $1.key }.map { namespace, entry in
                (key: namespace, value: ["value": .string(entry.value), "configuration": .sortedStrings(entry.config)])
            })
        default:
            return ["error": .string("Item.\(field) is not supported by the twin"), "code": .string(JavaScriptError.Code.unsupported.rawValue)]
        }
        return ["state": state, "at": at, "metadata": metadata]
    }
}
