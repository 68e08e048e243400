import Simulation

/// Minimal JSON text building for payloads whose key order openHAB fixes.
enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    static func quoted(_ text: String) -> String { JSONString.quoted(text) }

    /// A JSON object from ordered string pairs: `{"type":"OnOff","value":"ON"}`.
    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { "\(quoted($0.0)):\(quoted($0.1))" }.joined(separator: ",") + "}"
    }
}
