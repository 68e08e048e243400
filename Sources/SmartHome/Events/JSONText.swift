/// Minimal JSON text building for payloads whose key order openHAB fixes.
enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A JSON object from ordered string pairs: `{"type":"OnOff","value":"ON"}`.
    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { "\(quoted($0.0)):\(quoted($0.1))" }.joined(separator: ",") + "}"
    }
}
