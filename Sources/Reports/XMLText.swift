/// Text made safe for XML content and attribute values (the SVG charts, JUnit reports).
public enum XMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities, and the control characters
    /// XML 1.0 forbids (below U+0020 except tab, newline and carriage return) dropped.
    public static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            default: if scalar.value >= 0x20 { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
