/// Builds CSV text the way every report of this package writes it: RFC 4180 quoting, `\n` line ends, header first.
///
/// A field is quoted when it contains a comma, a double quote, a line feed or a carriage
/// return; quotes inside it are doubled. Every line, the last included, ends in `\n`. Numbers
/// go through ``decimal(_:places:)``, which is locale-independent.
public struct CSVWriter: Sendable {
    /// The column names, written as the first line.
    public let header: [String]
    /// The CSV text so far: the header line, then one line per appended row.
    public private(set) var text: String

    /// Starts a CSV document with its header line.
    public init(header: [String]) {
        self.header = header
        self.text = Self.line(header)
    }

    /// The text written since the last call (the header first), leaving the writer empty: for
    /// writing a long CSV out in pieces.
    public mutating func takeText() -> String {
        defer { text = "" }
        return text
    }

    /// Appends one row; it must have as many fields as the header has columns.
    public mutating func appendRow(_ fields: [String]) {
        precondition(fields.count == header.count, "a CSV row has \(fields.count) fields, the header \(header.count)")
        // Field by field onto the text (a timeseries appends millions of rows).
        for (index, value) in fields.enumerated() {
            if index > 0 { text += "," }
            text += Self.field(value)
        }
        text += "\n"
    }

    /// One CSV line: the fields, quoted where needed, joined by commas and ended by `\n`.
    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    /// `text` as one RFC 4180 field: unchanged, or in double quotes with its quotes doubled
    /// when it contains `,`, `"`, `\n` or `\r`.
    public static func field(_ text: String) -> String {
        // The four are ASCII, and no byte of a multi-byte UTF-8 sequence is ASCII.
        let needsQuotes = text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        guard needsQuotes else { return text }
        var quoted = "\""
        for character in text {
            if character == "\"" { quoted += "\"\"" } else { quoted.append(character) }
        }
        return quoted + "\""
    }
}
