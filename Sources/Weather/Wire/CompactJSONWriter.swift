import Simulation

/// Writes compact JSON straight into bytes, producing exactly what ``OrderedJSONEncoder`` writes for
/// the same keys and values: no whitespace, `/` and non-ASCII verbatim, the same string escapes, and
/// numbers as ``DecimalText/json(_:)`` formats them.
///
/// For hand-written renderers of hot wire bodies (``OWMCurrentWeather/compactJSON()``), which skip the
/// encoder's node tree and `Encoder` containers. The caller writes keys in wire order; commas are placed
/// automatically.
struct CompactJSONWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []
    /// `false` once a non-finite number was written (JSON cannot represent it; the encoder throws).
    private(set) var isValid = true
    /// Whether the next key or array element needs a comma before it.
    private var needsComma = false

    /// An empty writer with room for `capacity` bytes.
    init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// Opens an object: `{`.
    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes an object: `}`.
    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Opens an array: `[`.
    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes an array: `]`.
    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":` (after a comma when it is not the object's first key); `name` must need no escaping.
    mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a number as ``DecimalText/json(_:)`` does; a non-finite one makes the output invalid.
    mutating func number(_ value: Double) {
        separate()
        guard let text = DecimalText.json(value) else {
            isValid = false
            return
        }
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    /// Writes an integer in decimal.
    mutating func integer(_ value: some BinaryInteger) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// Writes a string literal, escaped as ``JSONString`` escapes it:
    /// `"` and `\` escaped, control characters as `\n`-style or `\u00XX` escapes, everything else verbatim.
    mutating func string(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append(#"\""#)
            case UInt8(ascii: "\\"): append(#"\\"#)
            case 0x0A: append(#"\n"#)
            case 0x0D: append(#"\r"#)
            case 0x09: append(#"\t"#)
            case 0x08: append(#"\b"#)
            case 0x0C: append(#"\f"#)
            case 0x00..<0x20:
                append(#"\u00"#)
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default:
                // UTF-8 continuation and lead bytes are all ≥ 0x80: non-ASCII passes through whole.
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    // MARK: Private

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A comma before a value that follows another one in an array.
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = false
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
