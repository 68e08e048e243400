import Simulation

/// A token of the Rules DSL, with where it starts.
struct DSLToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A name or keyword (`rule`, `Item`, `sendCommand`, `flat_1_heating_switch`).
        case word(String)
        /// `"text"` or `'text'`, escapes resolved.
        case string(String)
        /// A number as written (`21`, `21.5`, `1e3`, `10L`, `0x1F`).
        case number(String)
        /// A quantity literal `21|°C` (number text, unit text).
        case quantity(String, String)
        /// Punctuation or an operator (`(`, `==`, `?.`, `::`, …).
        case symbol(String)
        /// The end of the file.
        case end
    }

    let kind: Kind
    let line: Int
    let column: Int
    /// Whether white space (or a comment) comes right before it (`>` `>` of nested generics vs `>>`).
    var spaced = true

    /// How the token reads in a message.
    var text: String {
        switch kind {
        case .word(let w): return w
        case .string(let s): return "\"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .number(let n): return n.count > 40 ? String(n.prefix(40)) + "…" : n
        case .quantity(let n, let u): return "\(n)|\(u)"
        case .symbol(let s): return s
        case .end: return "the end of the file"
        }
    }
}

/// Turns Rules DSL text into tokens; comments (`//`, `/* */`) and white space are skipped.
///
/// Line ends may be LF, CRLF or CR (a file saved on Windows or an old Mac loads the same rules as its LF
/// twin), a leading byte order mark is skipped, tabs are white space.
struct DSLLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1
    private let file: String
    private var cancellation = CancellationCheck(every: 1_024)

    /// The longest string literal a file may hold (one value-size budget with the interpreter's).
    static let maxLiteral = DSLLimits.maxStringLength

    init(_ text: String, file: String) {
        self.scalars = Self.normalized(text)
        self.file = file
    }

    /// The text's scalars with CRLF and CR as LF and without a leading BOM. Stops early, with what it has, when
    /// the task is cancelled (the lexer then throws `rules.cancelled` at its next check).
    static func normalized(_ text: String) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(text.utf8.count)
        var previousCR = false
        var first = true
        var cancellation = CancellationCheck(every: 65_536)
        for s in text.unicodeScalars {
            if cancellation.isDue() { break }
            if first { first = false; if s == "\u{FEFF}" { continue } }
            if s == "\r" { out.append("\n"); previousCR = true; continue }
            if s == "\n", previousCR { previousCR = false; continue }
            previousCR = false
            out.append(s)
        }
        return out
    }

    /// The lexer's text as lines (for rule bodies shown in logs), line ends normalized. Both passes hear Ctrl-C
    /// (a 10 MB file takes about half a second): a cancelled task gets no lines, and the parser stops with
    /// `rules.cancelled` at its next check.
    var lines: [Substring] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        var cancellation = CancellationCheck(every: 65_536)
        for scalar in scalars {
            if cancellation.isDue() { return [] }
            UTF8.encode(scalar) { bytes.append($0) }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // Split at LF, which is always a character of its own, so the pieces are `split(separator: "\n")`'s.
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex, at = start
        while at != utf8.endIndex {
            if cancellation.isDue() { return [] }
            if utf8[at] == 0x0A {
                lines.append(text[start..<at])
                start = utf8.index(after: at)
            }
            at = utf8.index(after: at)
        }
        lines.append(text[start..<utf8.endIndex])
        return lines
    }

    /// Operators and punctuation, longest first where one is a prefix of another.
    static let symbols = ["===", "!==", "..<", "?.", "?:", "::", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=",
                          "++", "--", "->", "=>", "**", "..", "#[", "#{", "(", ")", "[", "]", "{", "}", ",", ".",
                          ";", "|", "+", "-", "*", "/", "%", "<", ">", "!", "=", ":", "?", "#", "@"]

    mutating func tokens() throws(RulesError) -> [DSLToken] {
        var out: [DSLToken] = []
        var spaced = true
        while true {
            let before = index
            skipBlanks()
            if index != before { spaced = true }
            let startLine = line, startColumn = column
            if cancellation.isDue() { throw RulesError.cancelled(at: "\(file):\(startLine):\(startColumn)") }
            guard index < scalars.count else {
                out.append(DSLToken(kind: .end, line: startLine, column: startColumn))
                return out
            }
            let c = scalars[index]
            if c == "/" && peek(1) == "/" {
                while index < scalars.count && scalars[index] != "\n" { advance() }
                spaced = true
                continue
            }
            if c == "/" && peek(1) == "*" {
                advance(); advance()
                while index < scalars.count && !(scalars[index] == "*" && peek(1) == "/") { advance() }
                guard index < scalars.count else { throw error(startLine, startColumn, "this comment is never closed; end it with */") }
                advance(); advance()
                spaced = true
                continue
            }
            var token: DSLToken.Kind
            if c == "\"" || c == "'" {
                token = .string(try string(quote: c, line: startLine, column: startColumn))
            } else if Self.isDigit(c) {
                token = try number(startLine, startColumn)
            } else if Self.isLetter(c) || c == "_" || c == "$" || c == "^" {
                var word = ""
                if c == "^" { advance() }  // Xtend's escaped keyword: ^val is a name
                while index < scalars.count, Self.isLetter(scalars[index]) || Self.isDigit(scalars[index]) || scalars[index] == "_" || scalars[index] == "$" {
                    word.unicodeScalars.append(scalars[index]); advance()
                }
                guard !word.isEmpty else { throw error(startLine, startColumn, "\"^\" must be followed by a name") }
                token = .word(word)
            } else {
                guard let symbol = Self.symbols.first(where: { matches($0) }) else {
                    throw error(startLine, startColumn, "\"\(Character(c))\" cannot start anything in a rule")
                }
                for _ in symbol.unicodeScalars { advance() }
                token = .symbol(symbol)
            }
            out.append(DSLToken(kind: token, line: startLine, column: startColumn, spaced: spaced))
            spaced = false
        }
    }

    static func isDigit(_ s: Unicode.Scalar) -> Bool { s >= "0" && s <= "9" }
    static func isLetter(_ s: Unicode.Scalar) -> Bool {
        (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s.value > 127 && s.properties.isAlphabetic)
    }

    /// A number as Xbase writes it: `21`, `21.5`, `1e308`, `2.5E-3`, `10L`, `1.5d`, `0.1bd`, `0x1F`,
    /// `1_000`; optionally followed by `|unit` (a quantity literal of openHAB).
    private mutating func number(_ startLine: Int, _ startColumn: Int) throws(RulesError) -> DSLToken.Kind {
        var number = ""
        func take() { number.unicodeScalars.append(scalars[index]); advance() }
        if scalars[index] == "0", let x = peek(1), x == "x" || x == "X" {
            take(); take()
            while index < scalars.count, scalars[index].properties.isASCIIHexDigit || scalars[index] == "_" { take() }
        } else {
            while index < scalars.count, Self.isDigit(scalars[index]) || scalars[index] == "_" { take() }
            if index < scalars.count, scalars[index] == ".", let next = peek(1), Self.isDigit(next) {
                take()
                while index < scalars.count, Self.isDigit(scalars[index]) || scalars[index] == "_" { take() }
            }
            if index < scalars.count, scalars[index] == "e" || scalars[index] == "E",
               let next = peek(1), Self.isDigit(next) || ((next == "+" || next == "-") && peek(2).map(Self.isDigit) == true) {
                take(); take()
                while index < scalars.count, Self.isDigit(scalars[index]) { take() }
            }
        }
        // Xbase's type suffixes: l/L long, d/D double, f/F float, bi/BI BigInteger, bd/BD BigDecimal.
        if index < scalars.count {
            let s = scalars[index]
            if (s == "b" || s == "B"), let n = peek(1), "iIdD".unicodeScalars.contains(n), peek(2).map({ !Self.isLetter($0) && !Self.isDigit($0) }) ?? true {
                take(); take()
            } else if "lLdDfF".unicodeScalars.contains(s), peek(1).map({ !Self.isLetter($0) && !Self.isDigit($0) && $0 != "_" }) ?? true {
                take()
            }
        }
        guard number.count <= 400 else { throw error(startLine, startColumn, "this number has more than 400 characters") }
        // openHAB's quantity literal: `3|W`, and — blanks being hidden tokens of Xtext's grammar — `3 | W`,
        // `0 | °`, `5 | "°"` (a unit may be written as a string).
        var bar = index
        while bar < scalars.count, scalars[bar] == " " || scalars[bar] == "\t" { bar += 1 }
        if bar < scalars.count, scalars[bar] == "|", bar + 1 < scalars.count, scalars[bar + 1] != "|" {
            var start = bar + 1
            while start < scalars.count, scalars[start] == " " || scalars[start] == "\t" { start += 1 }
            let spaced = start > bar + 1 || bar > index
            if start < scalars.count, Self.isUnitStart(scalars[start], spaced: spaced) {
                while index < start { advance() }
                var unit = ""
                if scalars[index] == "\"" {
                    advance()
                    while index < scalars.count, scalars[index] != "\"", scalars[index] != "\n" { unit.unicodeScalars.append(scalars[index]); advance() }
                    guard index < scalars.count, scalars[index] == "\"" else { throw error(startLine, startColumn, "the unit of this quantity is an unclosed string") }
                    advance()
                } else {
                    while index < scalars.count, !scalars[index].properties.isWhitespace, !")],;}".unicodeScalars.contains(scalars[index]) {
                        unit.unicodeScalars.append(scalars[index]); advance()
                    }
                }
                return .quantity(number, unit)
            }
        }
        return .number(number)
    }

    /// Whether `s` may begin a quantity's unit after `|`: anything but a blank, `|` or `]` when written tight
    /// (`21|°C`); a letter, `°`, `%`, `µ`, `'` or a quoted unit when blanks stand around `|` (`3 | W`).
    private static func isUnitStart(_ s: Unicode.Scalar, spaced: Bool) -> Bool {
        guard spaced else { return !s.properties.isWhitespace && s != "|" && s != "]" }
        return isLetter(s) || "°%µμ'\"".unicodeScalars.contains(s)
    }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private func matches(_ symbol: String) -> Bool {
        var offset = 0
        for ch in symbol.unicodeScalars {
            if peek(offset) != ch { return false }
            offset += 1
        }
        return true
    }

    private mutating func advance() {
        if scalars[index] == "\n" { line += 1; column = 1 } else { column += 1 }
        index += 1
    }

    private mutating func skipBlanks() {
        while index < scalars.count, scalars[index].properties.isWhitespace || scalars[index] == "\u{FEFF}" { advance() }
    }

    private mutating func string(quote: Unicode.Scalar, line: Int, column: Int) throws(RulesError) -> String {
        advance()
        var text = String.UnicodeScalarView()
        var length = 0  // the view's count walks it: counted here, so a long literal costs linear time
        while index < scalars.count, scalars[index] != quote {
            length += 1
            if length > Self.maxLiteral { throw error(line, column, "this string is longer than \(Self.maxLiteral) characters") }
            if scalars[index] == "\\", let next = peek(1) {
                advance()
                switch next {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "b": text.append("\u{8}")
                case "f": text.append("\u{C}")
                case "u":
                    var hex = ""
                    var k = 1
                    while k <= 4, let h = peek(k), h.properties.isASCIIHexDigit { hex.unicodeScalars.append(h); k += 1 }
                    if hex.count == 4, let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) {
                        text.append(s)
                        for _ in 0..<4 { advance() }
                    } else {
                        text.append("u")
                    }
                default: text.append(next)
                }
                advance()
                continue
            }
            text.append(scalars[index])
            advance()
        }
        guard index < scalars.count else { throw error(line, column, "this string is never closed; end it with \(quote)") }
        advance()
        return String(text)
    }

    private func error(_ line: Int, _ column: Int, _ message: String) -> RulesError {
        RulesError(.dslSyntax, "\(file):\(line):\(column): \(message) (rules.dslSyntax).")
    }
}
