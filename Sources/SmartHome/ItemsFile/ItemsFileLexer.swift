/// The tokens of an `.items` file, read on demand from its bytes: Xtext's terminals (`ID`, `STRING` in
/// double or single quotes with backslash escapes, `NUMBER`, `//` and `/* */` comments, whitespace with tabs,
/// CR, LF and CRLF) and the grammar's punctuation.
struct ItemsFileLexer {
    enum Kind: Equatable {
        case identifier
        case string
        case number
        case punctuation(UInt8)
        case invalid
        case end
    }

    struct Token {
        var kind: Kind
        /// The identifier, the string's value (escapes resolved), the number's text, or the offending text.
        var text: String
        var line: Int
        var column: Int
        /// Whether no other token stands before it on its line.
        var startsLine: Bool
        /// For `.invalid`: what is wrong.
        var problem: String? = nil
    }

    private let bytes: [UInt8]
    private(set) var offset = 0
    private var line = 1
    private var column = 1
    private var lineHasToken = false
    /// The single characters read as punctuation (the `.items` grammar's; `.things` adds `@` and `#`).
    private let punctuation: [UInt8]

    init(bytes: [UInt8], punctuation: String = "<>()[]{},=:") {
        self.bytes = bytes
        self.punctuation = Array(punctuation.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }  // a UTF-8 byte order mark
    }

    private static func isIDStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }
    private static func isIDPart(_ b: UInt8) -> Bool { isIDStart(b) || (b >= 0x30 && b <= 0x39) || b == 0x2D }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private mutating func advance() {
        let b = bytes[offset]
        offset += 1
        if b == 0x0A {
            line += 1
            column = 1
            lineHasToken = false
        } else if b == 0x0D {
            // CR alone ends a line; CRLF ends it once (at the LF).
            if offset >= bytes.count || bytes[offset] != 0x0A {
                line += 1
                column = 1
                lineHasToken = false
            }
        } else if b & 0xC0 != 0x80 {
            column += 1  // count characters, not continuation bytes
        }
    }

    /// A number's `.digits`, if it has them.
    private mutating func fraction() {
        guard offset + 1 < bytes.count, bytes[offset] == 0x2E, Self.isDigit(bytes[offset + 1]) else { return }
        advance()
        while offset < bytes.count, Self.isDigit(bytes[offset]) { advance() }
    }

    /// Skips whitespace and comments. - Returns: a problem for an unterminated block comment.
    private mutating func skipTrivia() -> Token? {
        while offset < bytes.count {
            let b = bytes[offset]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C {
                advance()
            } else if b == 0x2F, offset + 1 < bytes.count, bytes[offset + 1] == 0x2F {
                while offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D { advance() }
            } else if b == 0x2F, offset + 1 < bytes.count, bytes[offset + 1] == 0x2A {
                let (startLine, startColumn) = (line, column)
                advance(); advance()
                var closed = false
                while offset < bytes.count {
                    if bytes[offset] == 0x2A, offset + 1 < bytes.count, bytes[offset + 1] == 0x2F {
                        advance(); advance()
                        closed = true
                        break
                    }
                    advance()
                }
                if !closed {
                    return Token(kind: .invalid, text: "/*", line: startLine, column: startColumn, startsLine: false,
                                 problem: "this /* comment is never closed with */")
                }
            } else {
                return nil
            }
        }
        return nil
    }

    /// The next token.
    mutating func next() -> Token {
        if let problem = skipTrivia() { return problem }
        let startsLine = !lineHasToken
        lineHasToken = true
        let (startLine, startColumn) = (line, column)
        func token(_ kind: Kind, _ text: String, problem: String? = nil) -> Token {
            Token(kind: kind, text: text, line: startLine, column: startColumn, startsLine: startsLine, problem: problem)
        }
        guard offset < bytes.count else { return token(.end, "") }
        let b = bytes[offset]
        // Xtext's ID: `'^'? (letter | '_' | digit) (letter | '_' | '-' | digit)*` — a name may start with a
        // digit (`1OG_Light`) and hold dashes (`<heating-1>`). A run of digits alone is the grammar's
        // NUMBER (`('-')? ID ('.' ID)?`), as are `-10` and `0.5`.
        let caret = b == 0x5E && offset + 1 < bytes.count && (Self.isIDStart(bytes[offset + 1]) || Self.isDigit(bytes[offset + 1]))
        if Self.isIDStart(b) || Self.isDigit(b) || caret {
            if caret { advance() }  // Xtext's ^ escapes a keyword used as an ID
            let start = offset
            while offset < bytes.count, Self.isIDPart(bytes[offset]) { advance() }
            let text = bytes[start..<offset]
            if caret || !text.allSatisfy(Self.isDigit) {
                return token(.identifier, String(decoding: text, as: UTF8.self))
            }
            fraction()
            return token(.number, String(decoding: bytes[start..<offset], as: UTF8.self))
        }
        if b == 0x2D && offset + 1 < bytes.count && Self.isDigit(bytes[offset + 1]) {
            let start = offset
            advance()
            while offset < bytes.count, Self.isDigit(bytes[offset]) { advance() }
            fraction()
            return token(.number, String(decoding: bytes[start..<offset], as: UTF8.self))
        }
        if b == 0x22 || b == 0x27 { return string(quote: b, token: token) }
        if punctuation.contains(b) {
            advance()
            return token(.punctuation(b), String(UnicodeScalar(b)))
        }
        // Anything else (NUL, a stray symbol, a non-ASCII letter outside quotes): one character.
        let start = offset
        advance()
        while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { advance() }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        return token(.invalid, text, problem: b == 0 ? "a NUL byte is not allowed here" : "unexpected character")
    }

    private mutating func string(quote: UInt8, token: (Kind, String, String?) -> Token) -> Token {
        advance()
        var value: [UInt8] = []
        while offset < bytes.count {
            let b = bytes[offset]
            if b == quote {
                advance()
                return token(.string, String(decoding: value, as: UTF8.self), nil)
            }
            if b == 0x0A || b == 0x0D { break }
            if b == 0x5C, offset + 1 < bytes.count {
                advance()
                let e = bytes[offset]
                advance()
                switch e {
                case UInt8(ascii: "n"): value.append(0x0A)
                case UInt8(ascii: "t"): value.append(0x09)
                case UInt8(ascii: "r"): value.append(0x0D)
                case UInt8(ascii: "b"): value.append(0x08)
                case UInt8(ascii: "f"): value.append(0x0C)
                case UInt8(ascii: "u"):
                    var hex = ""
                    while hex.count < 4, offset < bytes.count, let c = Character(UnicodeScalar(bytes[offset])).hexDigitValue {
                        hex += String(c, radix: 16)
                        advance()
                    }
                    if hex.count == 4, let v = UInt32(hex, radix: 16), let scalar = UnicodeScalar(v) {
                        value += Array(String(Character(scalar)).utf8)
                    } else {
                        return token(.invalid, "\\u\(hex)", "\\u needs four hexadecimal digits")
                    }
                default: value.append(e)  // \" \' \\ and Xtext's lenient others
                }
                continue
            }
            value.append(b)
            advance()
        }
        return token(.invalid, String(decoding: value.prefix(60), as: UTF8.self), "this string is never closed on its line")
    }
}

extension ItemsFileLexer.Token {
    /// The token as a syntax error names what it found (`the string "…"`, `the end of the file`).
    var described: String {
        switch kind {
        case .end: "the end of the file"
        case .string: "the string \(ItemsFileIssue.quoted(text))"
        case .number: "the number \(text)"
        case .identifier, .invalid: ItemsFileIssue.quoted(text)
        case .punctuation: "\"\(text)\""
        }
    }
}
