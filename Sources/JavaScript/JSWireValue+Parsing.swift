extension JSWireValue {
    /// Why a message is not JSON: what was expected and at which byte.
    struct SyntaxError: Error, Equatable {
        /// The 0-based offset of the first byte that does not fit.
        let offset: Int
        /// What was expected there.
        let expected: String
    }

    /// The deepest nesting of arrays and objects a message may have (the host's are at most 5 deep).
    static let maxDepth = 64

    /// Reads one JSON document (RFC 8259, UTF-8, whitespace around it allowed).
    /// - Throws: ``SyntaxError`` at the first byte that does not fit, invalid UTF-8 in a string included,
    ///   or past ``maxDepth``.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSWireValue {
        try bytes.withUnsafeBufferPointer { buffer throws(SyntaxError) -> JSWireValue in
            var reader = Reader(u: buffer)
            reader.blanks()
            let value = try reader.value()
            reader.blanks()
            guard reader.i == buffer.count else { throw SyntaxError(offset: reader.i, expected: "the end of the message") }
            return value
        }
    }

    /// A cursor over the message's bytes.
    private struct Reader {
        let u: UnsafeBufferPointer<UInt8>
        var i = 0
        var depth = 0

        private func fail(_ expected: String) -> SyntaxError { SyntaxError(offset: i, expected: expected) }

        mutating func blanks() {
            while i < u.count, u[i] == 0x20 || u[i] == 0x0A || u[i] == 0x0D || u[i] == 0x09 { i += 1 }
        }

        private mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
            blanks()
            guard i < u.count, u[i] == byte else { throw fail(what) }
            i += 1
        }

        mutating func value() throws(SyntaxError) -> JSWireValue {
            guard i < u.count else { throw fail("a value") }
            switch u[i] {
            case UInt8(ascii: "{"):
                depth += 1
                defer { depth -= 1 }
                guard depth <= JSWireValue.maxDepth else { throw fail("at most \(JSWireValue.maxDepth) nested arrays and objects") }
                i += 1
                blanks()
                var members: [(key: String, value: JSWireValue)] = []
                if i < u.count, u[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    blanks()
                    guard i < u.count, u[i] == UInt8(ascii: "\"") else { throw fail("a member name in quotes") }
                    let key = try string()
                    try expect(UInt8(ascii: ":"), "':' after a member name")
                    blanks()
                    members.append((key, try value()))
                    blanks()
                    guard i < u.count else { throw fail("',' or '}'") }
                    if u[i] == UInt8(ascii: ",") { i += 1; continue }
                    if u[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                    throw fail("',' or '}'")
                }
            case UInt8(ascii: "["):
                depth += 1
                defer { depth -= 1 }
                guard depth <= JSWireValue.maxDepth else { throw fail("at most \(JSWireValue.maxDepth) nested arrays and objects") }
                i += 1
                blanks()
                var elements: [JSWireValue] = []
                if i < u.count, u[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
                while true {
                    blanks()
                    elements.append(try value())
                    blanks()
                    guard i < u.count else { throw fail("',' or ']'") }
                    if u[i] == UInt8(ascii: ",") { i += 1; continue }
                    if u[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
                    throw fail("',' or ']'")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try word("true"); return .bool(true)
            case UInt8(ascii: "f"): try word("false"); return .bool(false)
            case UInt8(ascii: "n"): try word("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw fail("a value")
            }
        }

        private mutating func word(_ text: StaticString) throws(SyntaxError) {
            let n = text.utf8CodeUnitCount
            guard i + n <= u.count else { throw fail("\(text)") }
            let start = text.utf8Start
            for k in 0..<n where u[i + k] != start[k] { throw fail("\(text)") }
            i += n
        }

        private mutating func digits() -> Int {
            let start = i
            while i < u.count, u[i] >= UInt8(ascii: "0"), u[i] <= UInt8(ascii: "9") { i += 1 }
            return i - start
        }

        private mutating func number() throws(SyntaxError) -> JSWireValue {
            let start = i
            if u[i] == UInt8(ascii: "-") { i += 1 }
            let intStart = i
            let intDigits = digits()
            guard intDigits > 0 else { throw fail("a digit") }
            guard intDigits == 1 || u[intStart] != UInt8(ascii: "0") else { throw SyntaxError(offset: intStart, expected: "no leading zero") }
            var integral = true
            if i < u.count, u[i] == UInt8(ascii: ".") {
                i += 1
                integral = false
                guard digits() > 0 else { throw fail("a digit after '.'") }
            }
            if i < u.count, u[i] == UInt8(ascii: "e") || u[i] == UInt8(ascii: "E") {
                i += 1
                integral = false
                if i < u.count, u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { throw fail("a digit in the exponent") }
            }
            if integral && intDigits <= 18 {
                var n: Int64 = 0
                for k in intStart..<i { n = n * 10 + Int64(u[k] - UInt8(ascii: "0")) }
                return .integer(u[start] == UInt8(ascii: "-") ? -n : n)
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: u[start..<i]), as: UTF8.self)
            guard let d = Double(text) else { throw SyntaxError(offset: start, expected: "a number") }
            if integral, let n = Int64(exactly: d) { return .integer(n) }
            return .number(d)
        }

        /// A string literal at `i` (its opening quote).
        private mutating func string() throws(SyntaxError) -> String {
            i += 1
            let start = i
            // Fast path: no escapes.
            while i < u.count {
                let b = u[i]
                if b == UInt8(ascii: "\"") {
                    guard let text = String(validating: UnsafeBufferPointer(rebasing: u[start..<i]), as: UTF8.self) else {
                        throw SyntaxError(offset: start, expected: "UTF-8 text in a string")
                    }
                    i += 1
                    return text
                }
                if b == UInt8(ascii: "\\") || b < 0x20 { break }
                i += 1
            }
            var bytes = Array(UnsafeBufferPointer(rebasing: u[start..<i]))
            while i < u.count {
                let b = u[i]
                if b == UInt8(ascii: "\"") {
                    i += 1
                    guard let text = String(validating: bytes, as: UTF8.self) else {
                        throw SyntaxError(offset: start, expected: "UTF-8 text in a string")
                    }
                    return text
                }
                guard b >= 0x20 else { throw fail("no control character in a string (escape it)") }
                i += 1
                guard b == UInt8(ascii: "\\") else { bytes.append(b); continue }
                guard i < u.count else { throw fail("an escape") }
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
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar), i + 1 < u.count, u[i] == UInt8(ascii: "\\"), u[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            // A lone high surrogate before another escape: both kept, the surrogate as U+FFFD.
                            bytes.append(contentsOf: "\u{FFFD}".utf8)
                            scalar = low
                        }
                    }
                    // A lone surrogate (JSON.stringify escapes them) has no Swift form: U+FFFD.
                    bytes.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
                default: throw SyntaxError(offset: i - 1, expected: "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
                }
            }
            throw fail("the string's closing quote")
        }

        private mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard i + 4 <= u.count else { throw fail("four hex digits") }
            var v: UInt32 = 0
            for k in i..<i + 4 {
                let b = u[k]
                let digit: UInt8
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
                default: throw fail("four hex digits")
                }
                v = v << 4 | UInt32(digit)
            }
            i += 4
            return v
        }
    }
}
