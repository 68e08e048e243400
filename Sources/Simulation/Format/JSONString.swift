/// JSON string literals written the way openHAB and OpenWeatherMap write them: `"` and `\`
/// escaped, control characters as `\n`-style or `\u00XX` escapes, everything else (including `/`
/// and non-ASCII) verbatim. Shared by the openHAB event payloads and the weather feed's bodies.
public enum JSONString {
    /// Appends `text` as a JSON string literal, quotes included, to `out`.
    public static func append(_ text: String, to out: inout String) {
        out += "\""
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
        out += "\""
    }

    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }
}
