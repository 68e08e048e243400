/// Text from a scenario file made safe to print: a name or value with control characters (ESC, NUL,
/// a newline) must not move the cursor, recolour the terminal or forge extra output lines.
public enum TerminalText {
    /// `text` with every control character (U+0000–U+001F, U+007F–U+009F) written as an escape:
    /// `\n`, `\r`, `\t`, and `\u{1B}`-style for the others. Text without any comes back unchanged.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
