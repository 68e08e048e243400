import Foundation
/// The JSONPATH transformation (openhab-addons `JSonPathTransformationService`, on Jayway JsonPath with
/// json-smart) for the paths rules use: `$.a.b`, `$.a[0]`, `$.a[-1]`, `$['a']`, `$["a b"]`, `$.a[*]`, `$.*`,
/// `$..a`; a path without `$` is read as `$.` + path, as Jayway does. Filters (`[?(…)]`), slices (`[1:3]`)
/// and unions (`['a','b']`) are refused (``JSONPathTransform/Unsupported``) rather than guessed.
public enum JSONPathTransform {
    /// A path the twin does not run, with what it found.
    public struct Unsupported: Error, Sendable { public var message: String }

    /// `JsonPath.read(source, path)` as the service answers it: a text, `nil` (a JSON `null`), or the
    /// `TransformationException` text (a definite path that is missing, input that is not JSON).
    public static func transform(_ path: String, _ source: String) throws(Unsupported) -> TransformFile.Outcome {
        let steps = try compile(path)
        var parser = JSONText(Array(source.utf8))
        guard let document = parser.document() else {
            return .failure("An error occurred while transforming JSON expression.")
        }
        let definite = !steps.contains { if case .deep = $0 { return true }; if case .wildcard = $0 { return true }; return false }
        var current: [JSONValue] = [document]
        for step in steps {
            var next: [JSONValue] = []
            for value in current {
                switch step {
                case .key(let k):
                    if case .object(let members) = value, let found = members.last(where: { $0.0 == k }) { next.append(found.1) }
                case .index(let n):
                    if case .array(let elements) = value {
                        let i = n < 0 ? elements.count + n : n
                        if i >= 0 && i < elements.count { next.append(elements[i]) }
                    }
                case .wildcard:
                    if case .object(let members) = value { next += members.map(\.1) }
                    if case .array(let elements) = value { next += elements }
                case .deep(let k):
                    collect(k, in: value, into: &next)
                }
            }
            current = next
            if definite && current.isEmpty { return .failure("Invalid path '\(path)' in '\(source)'") }
        }
        if definite {
            guard let result = current.first else { return .failure("Invalid path '\(path)' in '\(source)'") }
            if case .null = result { return .value(nil) }
            if case .array(let elements) = result { return .value(flatten(elements)) }
            return .value(result.javaText)
        }
        return .value(flatten(current))
    }

    /// `JSonPathTransformationService.flattenList`: one element is itself; numbers or booleans are
    /// `[1, 2]`, strings `["a", "b"]`; nothing, or a list of anything else, is `NULL`.
    private static func flatten(_ list: [JSONValue]) -> String {
        if list.count == 1 { return list[0].javaText }
        guard let first = list.first else { return "NULL" }
        switch first {
        case .number, .bool: return "[" + list.map(\.javaText).joined(separator: ", ") + "]"
        case .string: return "[" + list.map { "\"\($0.javaText)\"" }.joined(separator: ", ") + "]"
        default: return "NULL"
        }
    }

    private static func collect(_ key: String, in value: JSONValue, into out: inout [JSONValue]) {
        switch value {
        case .object(let members):
            if let found = members.last(where: { $0.0 == key }) { out.append(found.1) }
            for (_, v) in members { collect(key, in: v, into: &out) }
        case .array(let elements):
            for v in elements { collect(key, in: v, into: &out) }
        default: break
        }
    }

    enum Step: Equatable {
        case key(String)
        case index(Int)
        case wildcard
        case deep(String)
    }

    static func compile(_ text: String) throws(Unsupported) -> [Step] {
        var path = Array(text.trimmingCharacters(in: .whitespaces))
        if path.first != "$" { path = Array("$.") + path }
        var steps: [Step] = []
        var i = 1
        func fail(_ why: String) -> Unsupported {
            Unsupported(message: "the JSONPATH \"\(text)\" \(why); the twin runs $.a.b, $.a[0], $['a'], $.a[*], $.* and $..a")
        }
        func name() -> String {
            var s = ""
            while i < path.count, path[i] != ".", path[i] != "[" { s.append(path[i]); i += 1 }
            return s
        }
        while i < path.count {
            if path[i] == "." {
                i += 1
                if i < path.count, path[i] == "." {
                    i += 1
                    let k = name()
                    guard !k.isEmpty, k != "*" else { throw fail("has a deep scan without a name") }
                    steps.append(.deep(k))
                    continue
                }
                let k = name()
                guard !k.isEmpty else { throw fail("has an empty name") }
                steps.append(k == "*" ? .wildcard : .key(k))
            } else if path[i] == "[" {
                guard let close = path[i...].firstIndex(of: "]") else { throw fail("has a [ without ]") }
                let inner = String(path[(i + 1)..<close]).trimmingCharacters(in: .whitespaces)
                i = close + 1
                if inner == "*" { steps.append(.wildcard); continue }
                if let n = Int(inner) { steps.append(.index(n)); continue }
                let q = Array(inner)
                if q.count >= 2, let f = q.first, f == "'" || f == "\"", q.last == f, !q.dropFirst().dropLast().contains(f) {
                    steps.append(.key(String(q.dropFirst().dropLast())))
                    continue
                }
                throw fail("has [\(inner)], a filter, slice or union")
            } else {
                throw fail("has \"\(path[i])\" where . or [ was expected")
            }
        }
        return steps
    }
}

/// A JSON value as json-smart reads it, keeping a number's text and an object's member order.
enum JSONValue: Equatable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    static func == (a: JSONValue, b: JSONValue) -> Bool { a.javaText == b.javaText }

    /// `toString()` of what json-smart gives: a string's text, an `Integer`/`Long` or a `Double` as Java
    /// prints them (`21`, `21.5`, `1000.0`, `1.0E10`), `true`, an object or array as compact JSON.
    var javaText: String {
        switch self {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .number(let text):
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let n = Int64(text) { return String(n) }
            return JSONValue.javaDouble(Double(text) ?? .nan)
        case .array(let elements): return "[" + elements.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { "\(JSONValue.quoted($0.0)):\($0.1.jsonText)" }.joined(separator: ",") + "}"
        }
    }

    private var jsonText: String {
        if case .string(let s) = self { return JSONValue.quoted(s) }
        return javaText
    }

    private static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 { out += "\\u" + String(String(c.value + 0x10000, radix: 16).uppercased().dropFirst()) } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    /// Java's `Double.toString`: plain with at least one fraction digit for 10⁻³ ≤ |d| < 10⁷, else
    /// `d.dddE±n`; the shortest digits that read back as the double.
    static func javaDouble(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
        // Shortest digits and decimal exponent from Swift's description (`1.5e-05`, `123.25`, `1e+16`).
        let text = "\(abs(d))"
        let parts = text.split(separator: "e")
        let mantissa = String(parts[0])
        var exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let pointAt = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        var digits = Array(mantissa.replacingOccurrences(of: ".", with: ""))
        exponent += pointAt  // value = 0.digits × 10^exponent
        while digits.count > 1, digits.first == "0" { digits.removeFirst(); exponent -= 1 }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let sign = d < 0 ? "-" : ""
        let magnitude = abs(d)
        if magnitude >= 1e-3 && magnitude < 1e7 {
            if exponent <= 0 { return sign + "0." + String(repeating: "0", count: -exponent) + String(digits) }
            if exponent >= digits.count { return sign + String(digits) + String(repeating: "0", count: exponent - digits.count) + ".0" }
            return sign + String(digits[..<exponent]) + "." + String(digits[exponent...])
        }
        let fraction = digits.count > 1 ? String(digits[1...]) : "0"
        return sign + String(digits[0]) + "." + fraction + "E" + String(exponent - 1)
    }
}

/// A strict JSON reader (RFC 8259) with a nesting bound.
struct JSONText {
    private let u: [UInt8]
    private var i = 0
    private var depth = 0

    init(_ bytes: [UInt8]) { u = bytes }

    mutating func document() -> JSONValue? {
        blanks()
        guard let v = value() else { return nil }
        blanks()
        return i == u.count ? v : nil
    }

    private mutating func blanks() { while i < u.count, u[i] == 0x20 || u[i] == 0x09 || u[i] == 0x0A || u[i] == 0x0D { i += 1 } }

    private mutating func literal(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= u.count, Array(u[i..<(i + w.count)]) == w else { return false }
        i += w.count
        return true
    }

    private mutating func value() -> JSONValue? {
        guard i < u.count, depth < 256 else { return nil }
        switch u[i] {
        case UInt8(ascii: "{"):
            depth += 1; defer { depth -= 1 }
            i += 1; blanks()
            var members: [(String, JSONValue)] = []
            if i < u.count, u[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                blanks()
                guard let k = string() else { return nil }
                blanks()
                guard i < u.count, u[i] == UInt8(ascii: ":") else { return nil }
                i += 1; blanks()
                guard let v = value() else { return nil }
                members.append((k, v))
                blanks()
                guard i < u.count else { return nil }
                if u[i] == UInt8(ascii: ",") { i += 1; continue }
                if u[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                return nil
            }
        case UInt8(ascii: "["):
            depth += 1; defer { depth -= 1 }
            i += 1; blanks()
            var elements: [JSONValue] = []
            if i < u.count, u[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
            while true {
                blanks()
                guard let v = value() else { return nil }
                elements.append(v)
                blanks()
                guard i < u.count else { return nil }
                if u[i] == UInt8(ascii: ",") { i += 1; continue }
                if u[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
                return nil
            }
        case UInt8(ascii: "\""):
            return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default:
            let start = i
            if u[i] == UInt8(ascii: "-") { i += 1 }
            let digitsStart = i
            while i < u.count, u[i] >= 0x30 && u[i] <= 0x39 { i += 1 }
            guard i > digitsStart else { return nil }
            if i < u.count, u[i] == UInt8(ascii: ".") {
                i += 1
                let f = i
                while i < u.count, u[i] >= 0x30 && u[i] <= 0x39 { i += 1 }
                guard i > f else { return nil }
            }
            if i < u.count, u[i] == UInt8(ascii: "e") || u[i] == UInt8(ascii: "E") {
                i += 1
                if i < u.count, u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") { i += 1 }
                let e = i
                while i < u.count, u[i] >= 0x30 && u[i] <= 0x39 { i += 1 }
                guard i > e else { return nil }
            }
            return .number(String(decoding: u[start..<i], as: UTF8.self))
        }
    }

    private mutating func string() -> String? {
        guard i < u.count, u[i] == UInt8(ascii: "\"") else { return nil }
        i += 1
        var bytes: [UInt8] = []
        while i < u.count {
            let b = u[i]
            i += 1
            if b == UInt8(ascii: "\"") { return String(decoding: bytes, as: UTF8.self) }
            if b < 0x20 { return nil }
            guard b == UInt8(ascii: "\\") else { bytes.append(b); continue }
            guard i < u.count else { return nil }
            let e = u[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(e)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                guard let high = hex4() else { return nil }
                var scalar = high
                if (0xD800...0xDBFF).contains(high), i + 1 < u.count, u[i] == UInt8(ascii: "\\"), u[i + 1] == UInt8(ascii: "u") {
                    i += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                    scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                }
                bytes += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
            default: return nil
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard i + 4 <= u.count, let v = UInt32(String(decoding: u[i..<(i + 4)], as: UTF8.self), radix: 16) else { return nil }
        i += 4
        return v
    }
}
