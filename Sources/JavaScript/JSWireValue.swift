/// A JSON value as the twin and its JavaScript host (`host.js`) exchange them: objects keep their members'
/// order, integers stay exact.
///
/// The protocol's one codec, written for its message shapes: ``encoded`` writes compact JSON as `JSON.parse`
/// reads it; ``parse(_:)`` (`JSWireValue+Parsing.swift`) reads what the child writes and refuses anything
/// else with the byte offset of the problem, since the child's messages are an input the twin does not trust.
enum JSWireValue: Sendable {
    case null
    case bool(Bool)
    /// An integer (a JSON number without fraction or exponent that fits 64 bits).
    case integer(Int64)
    /// Any other number.
    case number(Double)
    case string(String)
    case array([JSWireValue])
    /// An object's members in order (the child writes no repeated keys; the first one wins when read).
    case object([(key: String, value: JSWireValue)])

    // MARK: Reading members

    /// The value of member `key` of an object (`nil`: not an object, or no such member).
    subscript(key: String) -> JSWireValue? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The text of a string.
    var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The value of a boolean.
    var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The elements of an array.
    var arrayValue: [JSWireValue]? { if case .array(let a) = self { a } else { nil } }
    /// Whether it is JSON `null`.
    var isNull: Bool { if case .null = self { true } else { false } }

    /// A number as a double.
    var doubleValue: Double? {
        switch self {
        case .integer(let n): Double(n)
        case .number(let d): d
        default: nil
        }
    }

    /// A number as a 64-bit integer: an integer as is, another number truncated toward zero when it is finite
    /// and in range.
    var int64Value: Int64? {
        switch self {
        case .integer(let n): n
        case .number(let d): d.isFinite && abs(d) < 9.2e18 ? Int64(d) : nil
        default: nil
        }
    }

    // MARK: Writing

    /// The value as compact JSON (UTF-8).
    var encoded: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out)
        return out
    }

    /// Appends the value as compact JSON to `out`.
    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let n): Self.writeInteger(n, to: &out)
        case .number(let d):
            // JSON has no NaN or infinity; JSON.stringify writes them as null.
            if d.isFinite { out.append(contentsOf: d.description.utf8) } else { out.append(contentsOf: "null".utf8) }
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeInteger(_ n: Int64, to out: inout [UInt8]) {
        if n >= 0 && n < 10 { out.append(UInt8(ascii: "0") + UInt8(n)); return }
        out.append(contentsOf: String(n).utf8)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string literal to `out`: `"` and `\` escaped, control characters as `\n`-style or
    /// `\u00XX` escapes, everything else as its UTF-8 bytes — byte for byte what `JSONString` (the twin's `String`
    /// writer) writes, for a byte-level writer on the hot path: runs that need no escape are copied in one go.
    static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var clean = 0  // bytes[clean..<i] need no escape
            for i in 0..<bytes.count {
                let b = bytes[i]
                guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<i]))
                clean = i + 1
                out.append(UInt8(ascii: "\\"))
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(b)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                default: out.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(b >> 4)], hexDigits[Int(b & 0xF)]])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSWireValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
                       ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    init(stringLiteral value: String) { self = .string(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(integerLiteral value: Int64) { self = .integer(value) }
    init(nilLiteral: ()) { self = .null }
    init(arrayLiteral elements: JSWireValue...) { self = .array(elements) }
    /// An object with the members in the literal's order.
    init(dictionaryLiteral elements: (String, JSWireValue)...) { self = .object(elements.map { (key: $0.0, value: $0.1) }) }
}

extension JSWireValue {
    /// A string, or `null` for `nil`.
    static func stringOrNull(_ text: String?) -> JSWireValue { text.map(JSWireValue.string) ?? .null }
    /// An integer, or `null` for `nil`.
    static func integerOrNull(_ n: Int64?) -> JSWireValue { n.map(JSWireValue.integer) ?? .null }
    /// An array of strings.
    static func strings(_ texts: [String]) -> JSWireValue { .array(texts.map(JSWireValue.string)) }
    /// An object of string members, sorted by key (a Swift dictionary's order differs from run to run).
    static func sortedStrings(_ pairs: [String: String]) -> JSWireValue {
        .object(pairs.sorted { $0.key < $1.key }.map { (key: $0.key, value: .string($0.value)) })
    }
}
