import Simulation

/// A small strict JSON parser (RFC 8259) that records the line and column of every value, for
/// error messages that point into the scenario file. Duplicate keys are an error.
public struct JSONParser {
    /// A syntax error with its position.
    public struct SyntaxError: CodedError, Equatable {
        /// The stable code of every JSON syntax error.
        public enum Code: String, Sendable {
            /// The text is not JSON (RFC 8259), or repeats a key.
            case syntax = "json.syntax"
        }

        /// Always ``Code/syntax``.
        public var code: Code { .syntax }
        /// 1-based line.
        public let line: Int
        /// 1-based column.
        public let column: Int
        /// What was expected.
        public let message: String
        /// How to fix it, fitted to the problem (a missing comma, a duplicate key, a bad escape …).
        public let hint: String?
    }

    /// The hint of errors where a value or punctuation was expected: the usual cause is just before.
    static let punctuationHint = "check for a missing comma, quote or bracket just before this point."

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private var cancellation = CancellationCheck()

    /// Parses one JSON document (surrounding whitespace allowed).
    /// - Throws: ``SyntaxError`` at the first problem.
    public static func parse(_ text: String) throws(SyntaxError) -> JSONNode { try parse(bytes: Array(text.utf8)) }

    /// Parses one JSON document given as UTF-8 bytes (a request body).
    /// - Throws: ``SyntaxError`` at the first problem.
    public static func parse(bytes: [UInt8]) throws(SyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else {
            throw parser.error("expected the end of the file after the top-level value", hint: "a scenario is one JSON object; remove what follows its closing brace.")
        }
        return node
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var column: Int { index - lineStart + 1 }

    private func error(_ message: String, hint: String = JSONParser.punctuationHint) -> SyntaxError {
        SyntaxError(line: line, column: column, message: message, hint: hint)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONNode {
        if cancellation.isDue() { throw error("the read was cancelled (Ctrl-C)", hint: "nothing was written.") }
        let (startLine, startColumn) = (line, column)
        func node(_ value: JSONNode.Value) -> JSONNode { JSONNode(value: value, line: startLine, column: startColumn) }
        guard let byte = current else { throw error("expected a value but the file ended") }
        switch byte {
        case UInt8(ascii: "{"): return node(try parseObject())
        case UInt8(ascii: "["): return node(try parseArray())
        case UInt8(ascii: "\""): return node(.string(try parseString()))
        case UInt8(ascii: "t"): try literal("true"); return node(.bool(true))
        case UInt8(ascii: "f"): try literal("false"); return node(.bool(false))
        case UInt8(ascii: "n"): try literal("null"); return node(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return node(try parseNumber())
        default: throw error("expected a value (object, array, string, number, true, false or null) but found \(describe(byte))")
        }
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("expected \(word)")
        }
        index += expected.count
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        guard depth <= 256 else { throw error("values are nested more than 256 deep", hint: "a scenario needs a few levels of nesting; remove the extra brackets.") }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONNode.Value {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONNode.Member] = []
        var seen: [String: Int] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let keyLine = line
            let key = try parseString()
            if let first = seen[key] { throw error("the key \"\(key)\" appears twice in this object (first on line \(first))",
                                                    hint: "give each key once: remove or rename one of them.") }
            seen[key] = keyLine
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONNode.Member(key: key, keyLine: keyLine, value: value))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("expected ',' or '}' after the value of \"\(key)\"")
            }
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONNode.Value {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']' after an array element")
            }
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1  // opening quote
        // The common string has no escape and no control character: its bytes decoded once.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let text = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end + 1
            return text
        }
        var scalars = String.UnicodeScalarView()
        var run = index
        func flush(_ parser: JSONParser, upTo end: Int) {
            scalars.append(contentsOf: String(decoding: parser.bytes[run..<end], as: UTF8.self).unicodeScalars)
        }
        while true {
            guard let byte = current else { throw error("a string is not closed before the end of the file") }
            switch byte {
            case UInt8(ascii: "\""):
                flush(self, upTo: index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(self, upTo: index)
                index += 1
                guard let escape = current else { throw error("a string is not closed before the end of the file") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("a \\u surrogate must be followed by its low half", hint: "write a character outside the BMP as a \\uD8xx\\uDCxx pair, or as the character itself.")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate \\u\(String(low, radix: 16))", hint: "write a character outside the BMP as a \\uD8xx\\uDCxx pair, or as the character itself.") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("\\u\(String(code, radix: 16)) is not a character", hint: "write a character outside the BMP as a \\uD8xx\\uDCxx pair, or as the character itself.") }
                    scalars.append(scalar)
                default: throw error("unknown escape \\\(Character(Unicode.Scalar(escape)))", hint: "inside a string, write \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX escapes only.")
                }
                run = index
            case 0..<0x20:
                throw byte == UInt8(ascii: "\n") ? error("a string is not closed before the end of the line", hint: "close the string with a quote on the same line; write a line break inside it as \\n.")
                    : error("control character in a string; escape it", hint: "write it as an escape such as \\t, \\n or \\u001B.")
            default:
                index += 1
            }
        }
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("expected four hex digits after \\u", hint: "write \\u followed by four hex digits, e.g. \\u00E9.") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("expected four hex digits after \\u", hint: "write \\u followed by four hex digits, e.g. \\u00E9.")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(SyntaxError) -> JSONNode.Value {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while let b = parser.current, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { parser.index += 1; count += 1 }
            return count
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if let b = current, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { throw error("numbers must not have leading zeros", hint: "write numbers as JSON does: 21, -3.5, 1e-3 (no leading zeros, no trailing point).") }
        } else if digits(&self) == 0 {
            throw error("expected digits in a number")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("expected digits after the decimal point", hint: "write numbers as JSON does: 21, -3.5, 1e-3 (no leading zeros, no trailing point).") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("expected digits in the exponent", hint: "write numbers as JSON does: 21, -3.5, 1e-3 (no leading zeros, no trailing point).") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("the number \(text) is too large", hint: "no value in a scenario needs more than a few digits; check the exponent.") }
        return .number(value, text: text)
    }
}
