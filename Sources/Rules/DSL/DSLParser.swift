/// A hand-written recursive-descent parser for the Rules DSL subset (RULES.md). Errors are located
/// (`file:line:column`) and say what was found and what was expected.
struct DSLParser {
    private var tokens: [DSLToken]
    private var index = 0
    private var depth = 0
    private let file: String

    /// How deep expressions, blocks and lambdas may nest (a file cannot exhaust the stack).
    static let maxDepth = 200
    private let lines: [Substring]

    init(_ text: String, file: String) throws(RulesError) {
        var lexer = DSLLexer(text, file: file)
        self.tokens = try lexer.tokens()
        self.file = file
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The constructs people write that the twin does not run, with what to use instead.
    static let unsupportedTriggers = ["Channel": "channel triggers (the twin's devices have no trigger channels)",
                                      "Time": "this time trigger"]
    static let unsupportedStatements = ["switch": "switch statements (use if / else if)", "for": "for loops (use while)",
                                        "try": "try/catch", "throw": "throw", "do": "do/while loops (use while)"]

    mutating func parseFile() throws(RulesError) -> DSLFileSyntax {
        var globals: [DSLStmt] = []
        var rules: [DSLRuleSyntax] = []
        while !atEnd {
            if isWord("import") {
                let importLine = current.line
                advance()
                while !atEnd, current.line == importLine { advance() }
                continue
            }
            if isWord("val") || isWord("var") {
                globals.append(try statement())
                continue
            }
            if isWord("rule") {
                rules.append(try rule())
                continue
            }
            throw unexpected("\"rule\", \"val\", \"var\" or \"import\"")
        }
        return DSLFileSyntax(file: file, globals: globals, rules: rules)
    }

    /// A script body on its own (a UI rule's `script.ScriptAction`): statements to the end of the text.
    mutating func parseScript() throws(RulesError) -> [DSLStmt] {
        var body: [DSLStmt] = []
        while !atEnd { body.append(try statement()) }
        return body
    }

    // MARK: Rules and triggers

    private mutating func rule() throws(RulesError) -> DSLRuleSyntax {
        let start = location
        advance()  // rule
        guard case .string(let name) = current.kind else { throw unexpected("the rule's name in quotes") }
        advance()
        try expectWord("when")
        let firstAt = location
        var triggers: [(DSLTriggerSyntax, DSLLocation)] = [(try trigger(), firstAt)]
        while isWord("or") {
            advance()
            let at = location
            triggers.append((try trigger(), at))
        }
        guard isWord("then") else { throw unexpected("\"or\" and another trigger, or \"then\"") }
        let thenToken = current
        advance()
        var body: [DSLStmt] = []
        while !isWord("end") {
            if atEnd { throw error(start, "rule \"\(name)\" has no \"end\"") }
            body.append(try statement())
        }
        let endToken = current
        advance()
        return DSLRuleSyntax(name: name, triggers: triggers, body: body,
                             bodyText: text(from: thenToken, skipping: 4, to: endToken), location: start)
    }

    private mutating func trigger() throws(RulesError) -> DSLTriggerSyntax {
        let at = location
        switch word {
        case "Item", "Member":
            let member = word == "Member"
            advance()
            if member { try expectWord("of") }
            guard let item = word else { throw unexpected(member ? "a Group's name" : "an Item's name") }
            advance()
            if isWord("received") {
                advance()
                if isWord("command") {
                    advance()
                    return .itemCommand(item: item, command: try triggerValue(), member: member)
                }
                if isWord("update") {
                    advance()
                    return .itemUpdate(item: item, state: try triggerValue(), member: member)
                }
                throw unexpected("\"command\" or \"update\"")
            }
            if isWord("changed") {
                advance()
                var from: String?, to: String?
                if isWord("from") { advance(); from = try triggerValue(required: true) }
                if isWord("to") { advance(); to = try triggerValue(required: true) }
                return .itemChanged(item: item, from: from, to: to, member: member)
            }
            throw unexpected("\"received command\", \"received update\" or \"changed\"")
        case "Time":
            advance()
            if isWord("cron") {
                advance()
                guard case .string(let expression) = current.kind else { throw unexpected("a cron expression in quotes") }
                advance()
                return .cron(expression)
            }
            try expectWord("is")
            if isWord("midnight") { advance(); return .timeOfDay(hour: 0, minute: 0) }
            if isWord("noon") { advance(); return .timeOfDay(hour: 12, minute: 0) }
            if case .number(let h) = current.kind {
                advance()
                guard isSymbol(":"), case .number(let m) = peekKind(1), let hour = Int(h), let minute = Int(m), hour < 24, minute < 60 else {
                    throw error(at, "a time of day is hh:mm, e.g. Time is 07:30")
                }
                advance(); advance()
                return .timeOfDay(hour: hour, minute: minute)
            }
            guard let item = word else { throw unexpected("midnight, noon, hh:mm or a DateTime Item") }
            advance()
            var timeOnly = false, offset = 0
            if isWord("timeOnly") { advance(); timeOnly = true }
            if isWord("offset") {
                advance()
                guard isSymbol("=") else { throw unexpected("\"=\" after offset") }
                advance()
                var sign = 1
                if isSymbol("-") { sign = -1; advance() } else if isSymbol("+") { advance() }
                guard case .number(let n) = current.kind, let value = Int(n) else { throw unexpected("whole seconds after offset=") }
                advance()
                offset = sign * value
            }
            return .dateTime(item: item, timeOnly: timeOnly, offset: offset)
        case "System":
            advance()
            guard isWord("started") else {
                throw RulesError(.dslUnsupported, "\(at): \"System \(word ?? current.text)\" is not a trigger the twin runs; it runs \"System started\".")
            }
            advance()
            return .systemStarted
        case "Thing":
            advance()
            guard case .string(let thing) = current.kind else { throw unexpected("the Thing's UID in quotes") }
            advance()
            guard isWord("changed") else {
                throw RulesError(.dslUnsupported, "\(at): Thing triggers other than \"changed\" are not run by the twin; write Thing \"\(thing)\" changed [from S] [to S].")
            }
            advance()
            var from: String?, to: String?
            if isWord("from") { advance(); from = try triggerValue(required: true) }
            if isWord("to") { advance(); to = try triggerValue(required: true) }
            return .thingChanged(thing: thing, from: from, to: to)
        default:
            if let w = word, w == "Channel" {
                throw RulesError(.dslUnsupported, "\(at): Channel triggers are not run by the twin (its devices have no trigger channels).",
                                 hint: "use Item, Member of, Time, System started or Thing triggers.")
            }
            throw unexpected("a trigger: Item, Member of, Time, System started or Thing")
        }
    }

    /// A state or command in a trigger: `ON`, `21`, `-3`, `"text"`, `21|°C`; `nil` when none is written.
    private mutating func triggerValue(required: Bool = false) throws(RulesError) -> String? {
        switch current.kind {
        case .word(let w) where !["or", "then", "from", "to"].contains(w):
            advance(); return w
        case .string(let s): advance(); return s
        case .number(let n): advance(); return n
        case .quantity(let n, let u): advance(); return "\(n) \(u)"
        case .symbol("-"):
            if case .number(let n) = peekKind(1) { advance(); advance(); return "-\(n)" }
            if case .quantity(let n, let u) = peekKind(1) { advance(); advance(); return "-\(n) \(u)" }
        default: break
        }
        if required { throw unexpected("a state such as ON, 21 or 21|°C") }
        return nil
    }

    // MARK: Statements

    private mutating func statement() throws(RulesError) -> DSLStmt {
        let at = location
        try enter(at)
        defer { depth -= 1 }
        defer { if isSymbol(";") { advance() } }
        if let w = word, let what = Self.unsupportedStatements[w] {
            throw RulesError(.dslUnsupported, "\(at): \(what) are not in the DSL subset the twin runs.",
                             hint: "see the README (Your own openHAB rules) for the supported constructs.")
        }
        switch word {
        case "val", "var":
            let mutable = word == "var"
            advance()
            guard let first = word else { throw unexpected("a variable name") }
            advance()
            var name = first
            if isSymbol("<") {  // a generic type: QuantityType<Temperature> name
                while !isSymbol(">") && !atEnd { advance() }
                advance()
                guard let n = word else { throw unexpected("a variable name after the type") }
                name = n
                advance()
            } else if let n = word {  // a type, then the name
                name = n
                advance()
            }
            var value: DSLExpr?
            if isSymbol("=") {
                advance()
                value = try expression()
            } else if !mutable {
                throw unexpected("\"=\" and a value (a val must have one)")
            }
            return .declare(mutable: mutable, name: name, value: value, at)
        case "if":
            return try ifStatement()
        case "while":
            advance()
            try expectSymbol("(")
            let condition = try expression()
            try expectSymbol(")")
            return .whileLoop(condition, try branch(), at)
        case "return":
            advance()
            if atEnd || isSymbol(";") || isSymbol("}") || isSymbol("]") || isWord("end") || current.line != at.line {
                return .returnValue(nil, at)
            }
            return .returnValue(try expression(), at)
        default:
            break
        }
        if isSymbol("{") { return .block(try block()) }
        if let name = word, case .symbol(let op) = peekKind(1), ["=", "+=", "-="].contains(op) {
            advance(); advance()
            return .assign(name, op, try expression(), at)
        }
        return .expression(try expression())
    }

    private mutating func ifStatement() throws(RulesError) -> DSLStmt {
        let at = location
        advance()  // if
        try expectSymbol("(")
        let condition = try expression()
        try expectSymbol(")")
        let then = try branch()
        var otherwise: [DSLStmt]?
        if isWord("else") {
            advance()
            otherwise = isWord("if") ? [try ifStatement()] : try branch()
        }
        return .ifElse(condition, then, otherwise, at)
    }

    /// A block, or a single statement.
    private mutating func branch() throws(RulesError) -> [DSLStmt] {
        isSymbol("{") ? try block() : [try statement()]
    }

    private mutating func block() throws(RulesError) -> [DSLStmt] {
        let at = location
        try expectSymbol("{")
        var statements: [DSLStmt] = []
        while !isSymbol("}") {
            if atEnd || isWord("end") { throw error(at, "this { is never closed with }") }
            statements.append(try statement())
        }
        advance()
        return statements
    }

    // MARK: Expressions

    private mutating func expression() throws(RulesError) -> DSLExpr { try binary(level: 0) }

    private static let levels: [[String]] = [["||"], ["&&"], ["==", "!=", "===", "!=="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]

    private mutating func binary(level: Int) throws(RulesError) -> DSLExpr {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        while case .symbol(let op) = current.kind, Self.levels[level].contains(op) {
            let at = location
            advance()
            let right = try binary(level: level + 1)
            left = .binary(op == "===" ? "==" : op == "!==" ? "!=" : op, left, right, at)
        }
        return left
    }

    private mutating func unary() throws(RulesError) -> DSLExpr {
        let at = location
        try enter(at)
        defer { depth -= 1 }
        if isSymbol("!") { advance(); return .unary("!", try unary(), at) }
        if isSymbol("-") { advance(); return .unary("-", try unary(), at) }
        return try postfix()
    }

    private mutating func postfix() throws(RulesError) -> DSLExpr {
        var expr = try primary()
        while true {
            let at = location
            if isSymbol(".") {
                advance()
                let nameAt = location
                guard let name = word else { throw unexpected("a property or method name after \".\"") }
                advance()
                expr = .member(expr, name, nameAt)
            } else if isSymbol("(") {
                advance()
                var arguments: [DSLExpr] = []
                if !isSymbol(")") {
                    arguments.append(try expression())
                    while isSymbol(",") { advance(); arguments.append(try expression()) }
                }
                try expectSymbol(")")
                if isSymbol("[|") { arguments.append(try lambda()) }
                expr = .call(expr, arguments, at)
            } else if isWord("as") {
                advance()
                guard var type = word else { throw unexpected("a type after \"as\"") }
                advance()
                if isSymbol("<") {
                    advance()
                    while !isSymbol(">") && !atEnd { type += "<\(current.text)"; advance() }
                    advance()
                    type = String(type.prefix { $0 != "<" })
                }
                expr = .cast(expr, type, at)
            } else {
                return expr
            }
        }
    }

    private mutating func primary() throws(RulesError) -> DSLExpr {
        let at = location
        switch current.kind {
        case .number(let n): advance(); return .number(n, at)
        case .quantity(let n, let u): advance(); return .quantity(n, u, at)
        case .string(let s): advance(); return .string(s, at)
        case .symbol("("):
            advance()
            let inner = try expression()
            try expectSymbol(")")
            return inner
        case .symbol("[|"):
            return try lambda()
        case .word("true"): advance(); return .bool(true, at)
        case .word("false"): advance(); return .bool(false, at)
        case .word("null"): advance(); return .null(at)
        case .word("if"):
            advance()
            try expectSymbol("(")
            let condition = try expression()
            try expectSymbol(")")
            let then = try expression()
            var otherwise: DSLExpr?
            if isWord("else") { advance(); otherwise = try expression() }
            return .conditional(condition, then, otherwise, at)
        case .word(let w) where !["end", "then", "when", "rule", "else"].contains(w):
            advance()
            if isSymbol(":"), case .symbol(":") = peekKind(1) {
                throw RulesError(.dslUnsupported, "\(at): \(w)::… (a Java class) is not in the DSL subset the twin runs.",
                                 hint: "use the Item methods, now, createTimer and logInfo the README lists.")
            }
            return .name(w, at)
        default:
            throw unexpected("a value, a name or \"(\"")
        }
    }

    private mutating func lambda() throws(RulesError) -> DSLExpr {
        let at = location
        try expectSymbol("[|")
        var statements: [DSLStmt] = []
        while !isSymbol("]") {
            if atEnd || isWord("end") { throw error(at, "this [| is never closed with ]") }
            statements.append(try statement())
        }
        advance()
        return .lambda(statements, at)
    }

    // MARK: Tokens

    private var current: DSLToken { tokens[index] }
    private var atEnd: Bool { current.kind == .end }
    private var location: DSLLocation { DSLLocation(file: file, line: current.line, column: current.column) }
    private var word: String? { if case .word(let w) = current.kind { w } else { nil } }
    private func isWord(_ w: String) -> Bool { current.kind == .word(w) }
    private func isSymbol(_ s: String) -> Bool { current.kind == .symbol(s) }
    private func peekKind(_ offset: Int) -> DSLToken.Kind { index + offset < tokens.count ? tokens[index + offset].kind : .end }
    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private mutating func enter(_ at: DSLLocation) throws(RulesError) {
        depth += 1
        guard depth <= Self.maxDepth else {
            throw RulesError(.dslSyntax, "\(at): this is nested more than \(Self.maxDepth) levels deep.", hint: "split it into smaller expressions or rules.")
        }
    }

    private mutating func expectWord(_ w: String) throws(RulesError) {
        guard isWord(w) else { throw unexpected("\"\(w)\"") }
        advance()
    }

    private mutating func expectSymbol(_ s: String) throws(RulesError) {
        guard isSymbol(s) else { throw unexpected("\"\(s)\"") }
        advance()
    }

    private func unexpected(_ expected: String) -> RulesError {
        RulesError(.dslSyntax, "\(location): found \(current.text) where \(expected) was expected.")
    }

    private func error(_ at: DSLLocation, _ message: String) -> RulesError {
        RulesError(.dslSyntax, "\(at): \(message).")
    }

    /// The source between two tokens (the body between `then` and `end`), trimmed.
    private func text(from start: DSLToken, skipping: Int, to end: DSLToken) -> String {
        var out: [Substring] = []
        for lineNumber in start.line...end.line where lineNumber - 1 < lines.count {
            var line = lines[lineNumber - 1]
            if lineNumber == end.line { line = line.prefix(end.column - 1) }
            if lineNumber == start.line { line = line.dropFirst(min(line.count, start.column - 1 + skipping)) }
            out.append(line)
        }
        return out.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
