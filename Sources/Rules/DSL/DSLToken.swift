/// A token of the Rules DSL, with where it starts.
struct DSLToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A name or keyword (`rule`, `Item`, `sendCommand`, `flat_1_heating_switch`).
        case word(String)
        /// `"text"` or `'text'`, escapes resolved.
        case string(String)
        /// A number as written (`21`, `21.5`).
        case number(String)
        /// A quantity literal `21|°C` (number text, unit text).
        case quantity(String, String)
        /// Punctuation or an operator (`(`, `==`, `[|`, …).
        case symbol(String)
        /// The end of the file.
        case end
    }

    let kind: Kind
    let line: Int
    let column: Int

    /// How the token reads in a message.
    var text: String {
        switch kind {
        case .word(let w): return w
        case .string(let s): return "\"\(s)\""
        case .number(let n): return n
        case .quantity(let n, let u): return "\(n)|\(u)"
        case .symbol(let s): return s
        case .end: return "the end of the file"
        }
    }
}

/// Turns Rules DSL text into tokens; comments (`//`, `/* */`) and white space are skipped.
struct DSLLexer {
    private let scalars: [Character]
    private var index = 0
    private var line = 1
    private var column = 1
    private let file: String

    init(_ text: String, file: String) {
        self.scalars = Array(text)
        self.file = file
    }

    static let symbols = ["[|", "===", "!==", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "->", "(", ")", "[", "]", "{", "}", ",", ".",
                          ";", "|", "+", "-", "*", "/", "%", "<", ">", "!", "=", ":", "?"]

    mutating func tokens() throws(RulesError) -> [DSLToken] {
        var out: [DSLToken] = []
        while true {
            skipBlanks()
            let startLine = line, startColumn = column
            guard index < scalars.count else {
                out.append(DSLToken(kind: .end, line: startLine, column: startColumn))
                return out
            }
            let c = scalars[index]
            if c == "/" && peek(1) == "/" {
                while index < scalars.count && scalars[index] != "\n" { advance() }
                continue
            }
            if c == "/" && peek(1) == "*" {
                advance(); advance()
                while index < scalars.count && !(scalars[index] == "*" && peek(1) == "/") { advance() }
                guard index < scalars.count else { throw error(startLine, startColumn, "this comment is never closed; end it with */") }
                advance(); advance()
                continue
            }
            if c == "\"" || c == "'" {
                out.append(DSLToken(kind: .string(try string(quote: c, line: startLine, column: startColumn)), line: startLine, column: startColumn))
                continue
            }
            if c.isNumber {
                var number = ""
                while index < scalars.count, scalars[index].isNumber { number.append(scalars[index]); advance() }
                if index < scalars.count, scalars[index] == ".", let next = peek(1), next.isNumber {
                    number.append("."); advance()
                    while index < scalars.count, scalars[index].isNumber { number.append(scalars[index]); advance() }
                }
                if index < scalars.count, scalars[index] == "|", peek(1).map({ !$0.isWhitespace && $0 != "|" && $0 != "]" }) ?? false {
                    advance()
                    var unit = ""
                    while index < scalars.count, !scalars[index].isWhitespace, !")],;}".contains(scalars[index]) {
                        unit.append(scalars[index]); advance()
                    }
                    out.append(DSLToken(kind: .quantity(number, unit), line: startLine, column: startColumn))
                } else {
                    out.append(DSLToken(kind: .number(number), line: startLine, column: startColumn))
                }
                continue
            }
            if c.isLetter || c == "_" {
                var word = ""
                while index < scalars.count, scalars[index].isLetter || scalars[index].isNumber || scalars[index] == "_" {
                    word.append(scalars[index]); advance()
                }
                out.append(DSLToken(kind: .word(word), line: startLine, column: startColumn))
                continue
            }
            guard let symbol = Self.symbols.first(where: { matches($0) }) else {
                throw error(startLine, startColumn, "\"\(c)\" cannot start anything in a rule")
            }
            for _ in symbol { advance() }
            out.append(DSLToken(kind: .symbol(symbol), line: startLine, column: startColumn))
        }
    }

    private func peek(_ offset: Int) -> Character? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private func matches(_ symbol: String) -> Bool {
        for (offset, ch) in symbol.enumerated() where peek(offset) != ch { return false }
        return true
    }

    private mutating func advance() {
        if scalars[index] == "\n" { line += 1; column = 1 } else { column += 1 }
        index += 1
    }

    private mutating func skipBlanks() {
        while index < scalars.count, scalars[index].isWhitespace { advance() }
    }

    private mutating func string(quote: Character, line: Int, column: Int) throws(RulesError) -> String {
        advance()
        var text = ""
        while index < scalars.count, scalars[index] != quote {
            if scalars[index] == "\\", let next = peek(1) {
                advance()
                switch next {
                case "n": text.append("\n")
                case "t": text.append("\t")
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
        return text
    }

    private func error(_ line: Int, _ column: Int, _ message: String) -> RulesError {
        RulesError(.dslSyntax, "\(file):\(line):\(column): \(message).")
    }
}
