/// The one hand-written recursive-descent parser of the Rules DSL: openHAB's `Rules.xtext` (rules and
/// triggers) over Xtext's `Xbase.xtext` (expressions), as openHAB's `model.rule` / `model.script` use them.
/// Errors are located (`file:line:column`), say what was found and what was expected, and a bad rule does
/// not hide the problems of the rules after it (the parser resumes at the next `rule`).
struct DSLParser {
    private var tokens: [DSLToken]
    private var index = 0
    private var depth = 0
    private let file: String
    /// `file`, shared by every location this parser makes.
    private let fileName: DSLFileName
    private let lines: [Substring]
    /// Every problem found so far (a file reports all of them, not only the first).
    private(set) var problems: [RulesError] = []

    init(_ text: String, file: String) throws(RulesError) {
        var lexer = DSLLexer(text, file: file)
        self.tokens = try lexer.tokens()
        self.file = file
        self.fileName = DSLFileName(file)
        self.lines = lexer.lines
    }

    /// Parses the file; problems go to ``problems`` (rules with a problem are left out).
    mutating func parseFile() -> DSLFileSyntax {
        var globals: [DSLStmt] = []
        var rules: [DSLRuleSyntax] = []
        while !atEnd {
            if Task.isCancelled {
                problems.append(RulesError.cancelled(at: "\(file):\(current.line)"))
                break
            }
            do throws(RulesError) {
                if isWord("import") {
                    advance()
                    if isWord("static") { advance() }
                    if isWord("extension") { advance() }
                    _ = try qualifiedName()
                    if isSymbol(".") && peekKind(1) == .symbol("*") { advance(); advance() }
                    if isSymbol(";") { advance() }
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
            } catch {
                problems.append(error)
                recover()
            }
        }
        return DSLFileSyntax(file: file, globals: globals, rules: rules)
    }

    /// Skips to the next `rule` (or `val`/`var`/`import`) at the start of a line, after an error.
    private mutating func recover() {
        let line = current.line
        advance()
        while !atEnd {
            if let w = word, ["rule", "val", "var", "import"].contains(w), current.line != line,
               index == 0 || tokens[index - 1].line != current.line {
                if w != "rule" { // a val/var at a line start inside a broken rule is not a global
                    var k = index + 1
                    var inside = false
                    while k < tokens.count, tokens[k].kind != .end {
                        if tokens[k].kind == .word("end") { inside = true; break }
                        if tokens[k].kind == .word("rule") { break }
                        k += 1
                    }
                    if inside { advance(); continue }
                }
                return
            }
            advance()
        }
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
        let name: String
        switch current.kind {
        case .string(let n): name = n
        case .word(let n) where n != "when": name = n  // Rules.xtext: name=(STRING|ID)
        default: throw unexpected("the rule's name (in quotes, or one word)")
        }
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
            if isWord("rule"), tokens[index - 1].line != current.line {
                throw error(start, "rule \"\(name)\" has no \"end\" before the next rule at line \(current.line)")
            }
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
        case "Item", "Member", "Descendent":
            let member = word != "Item"
            if word == "Descendent" {
                throw RulesError(.dslUnsupported, "\(at): \"Descendent of\" triggers are not run by the twin (rules.dslUnsupported).",
                                 hint: "use \"Member of\" with the group whose direct members change.")
            }
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
                guard case .number(let n) = current.kind, let value = Int(n), value < 1_000_000_000 else { throw unexpected("whole seconds after offset=") }
                advance()
                offset = sign * value
            }
            return .dateTime(item: item, timeOnly: timeOnly, offset: offset)
        case "System":
            advance()
            if isWord("started") { advance(); return .systemStarted }
            if isWord("reached") {
                advance()
                try expectWord("start")
                try expectWord("level")
                guard case .number(let n) = current.kind, let level = Int(n) else { throw unexpected("a start level such as 100") }
                advance()
                if level <= 100 { return .systemStarted }
            }
            // Rules.xtext still parses 'System' 'shuts' 'down'; openHAB 3+ drops the trigger with a warning.
            if isWord("shuts") { advance(); try expectWord("down"); return .systemShutsDown }
            throw RulesError(.dslUnsupported, "\(at): this System trigger is not run by the twin (rules.dslUnsupported).",
                             hint: "the twin runs \"System started\" and \"System reached start level N\".")
        case "Thing":
            advance()
            guard case .string(let thing) = current.kind else { throw unexpected("the Thing's UID in quotes") }
            advance()
            if isWord("received") {
                advance()
                try expectWord("update")
                let status = try triggerValue()
                return .thingUpdate(thing: thing, status: status)
            }
            try expectWord("changed")
            var from: String?, to: String?
            if isWord("from") { advance(); from = try triggerValue(required: true) }
            if isWord("to") { advance(); to = try triggerValue(required: true) }
            return .thingChanged(thing: thing, from: from, to: to)
        case "Channel":
            // Rules.xtext: 'Channel' channel=STRING 'triggered' (trigger=ValidTrigger)?
            advance()
            guard case .string(let channel) = current.kind else { throw unexpected("the channel's UID in quotes") }
            advance()
            try expectWord("triggered")
            return .channel(uid: channel, event: try triggerValue())
        default:
            throw unexpected("a trigger: Item, Member of, Time, System started, Thing or Channel")
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
        defer { while isSymbol(";") { advance() } }
        switch word {
        case "val", "var":
            let mutable = word == "var"
            advance()
            // `val name = …`, `val Type name = …`, `val Type<A, B<C>> name`, `val Functions$Function1<…> f`.
            var type: String?
            var name: String
            let nextOnSameLine = index + 1 < tokens.count && tokens[index + 1].line == current.line
            if let first = word, peekKind(1) == .symbol("=") || !nextOnSameLine
                || (!isTypeContinuation(peekKind(1)) && !isWordKind(peekKind(1))) {
                name = first
                advance()
            } else {
                type = try typeReference()
                guard let n = word else { throw unexpected("a variable name after the type") }
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
            return .declare(mutable: mutable, name: DSLBinding(name), type: type, value: value, at)
        case "if":
            return try ifStatement()
        case "while":
            advance()
            try expectSymbol("(")
            let condition = try expression()
            try expectSymbol(")")
            return .whileLoop(condition, try branch(), at)
        case "do":
            advance()
            let body = try branch()
            try expectWord("while")
            try expectSymbol("(")
            let condition = try expression()
            try expectSymbol(")")
            return .doWhile(body, condition, at)
        case "for":
            advance()
            try expectSymbol("(")
            // `for (x : list)`, `for (Type x : list)`, `for (init; cond; update)`.
            var k = index, nesting = 0
            var isEach = false
            while k < tokens.count - 1 {
                let kind = tokens[k].kind
                if kind == .symbol("(") || kind == .symbol("[") || kind == .symbol("{") { nesting += 1 }
                if kind == .symbol(")") || kind == .symbol("]") || kind == .symbol("}") {
                    if nesting == 0 { break }
                    nesting -= 1
                }
                if nesting == 0, kind == .symbol(";") { break }
                if nesting == 0, kind == .symbol(":") { isEach = true; break }
                k += 1
            }
            if isEach {
                if isWord("val") || isWord("var") { advance() }
                var name: String
                if let first = word, peekKind(1) == .symbol(":") {
                    name = first
                    advance()
                } else {
                    _ = try typeReference()
                    guard let n = word else { throw unexpected("the loop variable's name") }
                    name = n
                    advance()
                }
                try expectSymbol(":")
                let iterable = try expression()
                try expectSymbol(")")
                return .forEach(DSLBinding(name), iterable, try branch(), at)
            }
            var initial: [DSLStmt] = []
            while !isSymbol(";") {
                initial.append(try statement())
                if isSymbol(",") { advance() }
                if atEnd { throw unexpected("\";\"") }
                if tokens[index - 1].kind == .symbol(";") { break }
            }
            if isSymbol(";") { advance() }
            var condition: DSLExpr?
            if !isSymbol(";") { condition = try expression() }
            try expectSymbol(";")
            var updates: [DSLExpr] = []
            while !isSymbol(")") {
                updates.append(try expression())
                if isSymbol(",") { advance() } else { break }
            }
            try expectSymbol(")")
            return .forLoop(initial, condition, updates, try branch(), at)
        case "try":
            advance()
            let body = try branch()
            var catches: [DSLCatch] = []
            while isWord("catch") {
                advance()
                try expectSymbol("(")
                var type = try typeReference()
                while isSymbol("|") { advance(); type += "|" + (try typeReference()) }
                guard let name = word else { throw unexpected("the name of the caught exception") }
                advance()
                try expectSymbol(")")
                catches.append(DSLCatch(type: type, name: DSLBinding(name), body: try branch()))
            }
            var finally: [DSLStmt]?
            if isWord("finally") { advance(); finally = try branch() }
            if catches.isEmpty && finally == nil { throw unexpected("\"catch\" or \"finally\"") }
            return .tryCatch(body, catches, finally, at)
        case "throw":
            advance()
            return .throwValue(try expression(), at)
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
            if isWord("if") {
                // An `else if` chain is one more level (a 100k-branch chain must not recurse 100k deep).
                try enter(location)
                defer { depth -= 1 }
                otherwise = [try ifStatement()]
            } else {
                otherwise = try branch()
            }
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

    // MARK: Types

    private func isWordKind(_ kind: DSLToken.Kind) -> Bool { if case .word = kind { true } else { false } }
    private func isTypeContinuation(_ kind: DSLToken.Kind) -> Bool {
        kind == .symbol("<") || kind == .symbol(".") || kind == .symbol("[")
    }

    /// `a.b.C`.
    private mutating func qualifiedName() throws(RulesError) -> String {
        guard var name = word else { throw unexpected("a name") }
        advance()
        while isSymbol("."), case .word(let next) = peekKind(1) {
            advance(); advance()
            name += "." + next
        }
        return name
    }

    /// A Java type as Xbase writes it: `Number`, `java.util.List<String>`, `Map<String, List<Integer>>`,
    /// `Functions$Function1<Number, Boolean>`, `String[]`, `(int)=>void`. Returns its simple name (generic
    /// arguments are not kept: values carry their own type).
    private mutating func typeReference() throws(RulesError) -> String {
        if isSymbol("(") || isSymbol("=>") {  // function type (A, B) => R
            if isSymbol("(") {
                advance()
                while !isSymbol(")") {
                    _ = try typeReference()
                    if isSymbol(",") { advance() } else { break }
                }
                try expectSymbol(")")
            }
            try expectSymbol("=>")
            _ = try typeReference()
            return "Function"
        }
        let full = try qualifiedName()
        if isSymbol("<") {
            advance()
            var open = 1
            while open > 0 {
                if atEnd { throw unexpected("\">\" closing the type arguments") }
                if isSymbol("<") { open += 1 }
                if isSymbol(">") { open -= 1 }
                if isSymbol(">=") { throw unexpected("\">\"") }
                advance()
            }
        }
        while isSymbol("["), peekKind(1) == .symbol("]") { advance(); advance() }
        return String(full.split(separator: ".").last ?? Substring(full))
    }

    // MARK: Expressions

    private mutating func expression() throws(RulesError) -> DSLExpr {
        let at = location
        try enter(at)
        defer { depth -= 1 }
        return try assignment()
    }

    private static let assignOperators: Set<String> = ["=", "+=", "-=", "*=", "/=", "%="]

    private mutating func assignment() throws(RulesError) -> DSLExpr {
        let left = try binary(level: 0)
        if case .symbol(let op) = current.kind, Self.assignOperators.contains(op) {
            let at = location
            switch left {
            case .name, .member: break
            default: throw RulesError(.dslSyntax, "\(at): the left of \(op) must be a variable or a property (rules.dslSyntax).")
            }
            advance()
            return .assign(left, op, try expression(), left.location)
        }
        return left
    }

    /// Xbase's binary levels, loosest first (`XOrExpression` … `XMultiplicativeExpression`).
    private static let levels: [[String]] = [["||"], ["&&"], ["==", "!=", "===", "!=="], ["<", "<=", ">", ">=", "instanceof"],
                                             ["->", "..<", "..", "=>", "?:"], ["+", "-"], ["*", "**", "/", "%"]]

    private mutating func binary(level: Int) throws(RulesError) -> DSLExpr {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        var links = 0
        defer { depth -= links }
        while true {
            let at = location
            if level == 3, isWord("instanceof") {
                advance()
                try enter(at); links += 1
                left = .instanceOf(left, try typeReference(), at)
                continue
            }
            guard case .symbol(let op) = current.kind, Self.levels[level].contains(op) else { break }
            // Each link of a flat chain counts as one level: evaluating `1+1+…` recurses once per link.
            try enter(at); links += 1
            advance()
            let right = try binary(level: level + 1)
            left = .binary(op, left, right, at)
        }
        return left
    }

    private mutating func unary() throws(RulesError) -> DSLExpr {
        let at = location
        try enter(at)
        defer { depth -= 1 }
        if isSymbol("!") { advance(); return .unary("!", try unary(), at) }
        if isSymbol("-") { advance(); return .unary("-", try unary(), at) }
        if isSymbol("+") { advance(); return .unary("+", try unary(), at) }
        if isSymbol("++") || isSymbol("--") {
            throw RulesError(.dslSyntax, "\(at): Xbase has no prefix \(current.text); write x\(current.text) or x \(current.text == "++" ? "+=" : "-=") 1 (rules.dslSyntax).")
        }
        return try castOrPostfix()
    }

    private mutating func castOrPostfix() throws(RulesError) -> DSLExpr {
        var expr = try postfix()
        var links = 0
        defer { depth -= links }
        while isWord("as") {
            let at = location
            advance()
            try enter(at); links += 1
            expr = .cast(expr, try typeReference(), at)
        }
        return expr
    }

    private mutating func postfix() throws(RulesError) -> DSLExpr {
        var expr = try primary()
        var links = 0
        defer { depth -= links }
        while true {
            let at = location
            if isSymbol(".") || isSymbol("?.") {
                let nullSafe = isSymbol("?.")
                advance()
                try enter(at); links += 1
                let nameAt = location
                guard let name = word else { throw unexpected("a property or method name after \".\"") }
                advance()
                expr = .member(expr, DSLMemberName(name), nullSafe: nullSafe, nameAt)
                if isSymbol("(") {
                    expr = try callArguments(expr, at)
                } else if isSymbol("[") {
                    // A lambda as the only argument: `list.forEach[ … ]`.
                    expr = .call(expr, [try lambda()], at)
                }
            } else if isSymbol("::") {
                throw unexpected("a name before \"::\" (a type such as Thread::sleep)")
            } else if isSymbol("++") || isSymbol("--"), current.line == tokens[index - 1].line {
                let op = current.text
                advance()
                switch expr {
                case .name, .member: expr = .step(expr, op, at)
                default: throw RulesError(.dslSyntax, "\(at): \(op) needs a variable (rules.dslSyntax).")
                }
            } else {
                return expr
            }
        }
    }

    /// `(arguments)` after a callee, then an optional trailing lambda `[ … ]`.
    private mutating func callArguments(_ callee: DSLExpr, _ at: DSLLocation) throws(RulesError) -> DSLExpr {
        try expectSymbol("(")
        var arguments: [DSLExpr] = []
        if !isSymbol(")") {
            // Xbase also accepts a lambda without brackets as the only argument: `list.map(x | x * 2)`.
            if case .word(let p) = current.kind, peekKind(1) == .symbol("|") {
                let lambdaAt = location
                advance(); advance()
                var body: [DSLStmt] = []
                while !isSymbol(")") {
                    if atEnd { throw unexpected("\")\"") }
                    body.append(try statement())
                }
                arguments.append(.lambda(DSLLambdaSyntax(parameters: [p], implicitIt: false, body: body), lambdaAt))
            } else {
                arguments.append(try expression())
                while isSymbol(",") { advance(); arguments.append(try expression()) }
            }
        }
        try expectSymbol(")")
        if isSymbol("[") { arguments.append(try lambda()) }
        return .call(callee, arguments, at)
    }

    private mutating func primary() throws(RulesError) -> DSLExpr {
        let at = location
        switch current.kind {
        case .number(let n):
            advance()
            return .number(n, at)
        case .quantity(let n, let u): advance(); return .quantity(n, u, at)
        case .string(let s): advance(); return .string(s, at)
        case .symbol("("):
            advance()
            let inner = try expression()
            try expectSymbol(")")
            return inner
        case .symbol("["):
            return try lambda()
        case .symbol("{"):
            return .block(try block(), at)
        case .symbol("#["), .symbol("#{"):
            let isList = isSymbol("#[")
            advance()
            var elements: [DSLExpr] = []
            let close = isList ? "]" : "}"
            while !isSymbol(close) {
                elements.append(try expression())
                if isSymbol(",") { advance() } else { break }
            }
            try expectSymbol(close)
            return .collection(isList ? .list : .set, elements, at)
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
        case .word("switch"):
            return try switchExpression()
        case .word("new"):
            advance()
            let type = try typeReference()
            var arguments: [DSLExpr] = []
            if isSymbol("(") {
                advance()
                if !isSymbol(")") {
                    arguments.append(try expression())
                    while isSymbol(",") { advance(); arguments.append(try expression()) }
                }
                try expectSymbol(")")
            }
            return .new(type, arguments, at)
        case .word("val"), .word("var"), .word("while"), .word("for"), .word("do"), .word("try"), .word("throw"), .word("return"):
            // Statements are expressions in Xbase (a lambda's body, `if (x) return`).
            return .block([try statement()], at)
        case .word(let w) where !["end", "then", "when", "rule", "else", "case", "default", "catch", "finally"].contains(w):
            advance()
            var name = w
            // A qualified static access: `java.time.ZonedDateTime::now`, `org.openhab…OnOffType::ON`.
            if isSymbol("."), w.first?.isLowercase == true, case .word = peekKind(1) {
                var k = index, parts = [w]
                while k + 1 < tokens.count, tokens[k].kind == .symbol("."), case .word(let p) = tokens[k + 1].kind {
                    parts.append(p); k += 2
                }
                if k < tokens.count, tokens[k].kind == .symbol("::"), parts.count > 1 {
                    index = k
                    name = parts.last ?? w
                } else if ["java", "javax", "org"].contains(w) {
                    // A fully qualified type in an expression: `java.util.Locale.GERMAN`,
                    // `org.openhab.core.model.script.ScriptServiceUtil.getItemRegistry` — the package's
                    // lowercase segments, then the type (what follows it is a member access).
                    var j = index
                    while j + 1 < tokens.count, tokens[j].kind == .symbol("."), case .word(let p) = tokens[j + 1].kind {
                        j += 2
                        if p.first?.isUppercase == true { name = p; index = j; break }
                    }
                }
            }
            if isSymbol("::") {
                advance()
                let memberAt = location
                guard let member = word else { throw unexpected("a static member after \(name)::") }
                advance()
                let access = DSLExpr.staticMember(name, member, memberAt)
                if isSymbol("(") { return try callArguments(access, at) }
                return access
            }
            if isSymbol("("), !current.spaced || current.line == tokens[index - 1].line {
                return try callArguments(.name(name, at), at)
            }
            return .name(name, at)
        default:
            throw unexpected("a value, a name or \"(\"")
        }
    }

    /// `switch x { case v: e  case a, case b: e  Type: e  Type case guard: e  default: e }`.
    private mutating func switchExpression() throws(RulesError) -> DSLExpr {
        let at = location
        advance()  // switch
        var subject: DSLExpr
        if isSymbol("("), case .word(let v) = peekKind(1), peekKind(2) == .symbol(":") {  // switch (v : x)
            _ = v
            advance(); advance(); advance()
            subject = try expression()
            try expectSymbol(")")
        } else {
            subject = try expression()
        }
        try expectSymbol("{")
        var cases: [DSLCase] = []
        var otherwise: DSLExpr?
        while !isSymbol("}") {
            if atEnd || isWord("end") { throw error(at, "this switch is never closed with }") }
            let caseAt = location
            if isWord("default") {
                advance()
                try expectSymbol(":")
                otherwise = try expression()
                continue
            }
            var type: String?
            var value: DSLExpr?
            if !isWord("case") {
                type = try typeReference()
            }
            if isWord("case") {
                advance()
                value = try expression()
            }
            if type == nil, value == nil { throw unexpected("\"case\", a type or \"default\"") }
            if isSymbol(",") {
                advance()
                cases.append(DSLCase(type: type, value: value, then: nil, location: caseAt))
                continue
            }
            try expectSymbol(":")
            cases.append(DSLCase(type: type, value: value, then: try expression(), location: caseAt))
        }
        advance()
        return .switchOf(subject, cases, otherwise, at)
    }

    /// `[ | … ]`, `[x | …]`, `[x, y | …]`, `[Type x | …]`, `[ … ]` (one parameter `it`).
    private mutating func lambda() throws(RulesError) -> DSLExpr {
        let at = location
        try expectSymbol("[")
        try enter(at)
        defer { depth -= 1 }
        var parameters: [String] = []
        var implicitIt = true
        if isSymbol("|") {
            advance()
            implicitIt = false
        } else {
            // Look ahead for `name (, name)* |` (names may have types before them).
            var k = index, names: [String] = []
            var ok = false
            scan: while k < tokens.count {
                var last: String?
                while k < tokens.count, case .word(let w) = tokens[k].kind {
                    last = w; k += 1
                    // Skip generic arguments of a type.
                    if k < tokens.count, tokens[k].kind == .symbol("<") {
                        var open = 0
                        repeat {
                            if tokens[k].kind == .symbol("<") { open += 1 }
                            if tokens[k].kind == .symbol(">") { open -= 1 }
                            k += 1
                        } while open > 0 && k < tokens.count
                    }
                    while k + 1 < tokens.count, tokens[k].kind == .symbol("."), case .word = tokens[k + 1].kind { k += 1; break }
                }
                guard let name = last else { break scan }
                names.append(name)
                if k < tokens.count, tokens[k].kind == .symbol(",") { k += 1; continue }
                if k < tokens.count, tokens[k].kind == .symbol("|") { ok = true }
                break
            }
            if ok {
                parameters = names
                index = k + 1
                implicitIt = false
            }
        }
        var statements: [DSLStmt] = []
        while !isSymbol("]") {
            if atEnd || isWord("end") { throw error(at, "this [ is never closed with ]") }
            statements.append(try statement())
        }
        advance()
        return .lambda(DSLLambdaSyntax(parameters: parameters, implicitIt: implicitIt, body: statements), at)
    }

    // MARK: Tokens

    private var current: DSLToken { tokens[index] }
    private var atEnd: Bool { current.kind == .end }
    private var location: DSLLocation { DSLLocation(file: fileName, line: current.line, column: current.column) }
    private var word: String? { if case .word(let w) = current.kind { w } else { nil } }
    private func isWord(_ w: String) -> Bool { current.kind == .word(w) }
    private func isSymbol(_ s: String) -> Bool { current.kind == .symbol(s) }
    private func peekKind(_ offset: Int) -> DSLToken.Kind { index + offset < tokens.count ? tokens[index + offset].kind : .end }
    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    /// One level of the one expression-depth budget (nesting and chain links alike).
    private mutating func enter(_ at: DSLLocation) throws(RulesError) {
        depth += 1
        guard depth <= DSLLimits.maxExpressionDepth else {
            depth -= 1
            throw RulesError(.dslSyntax, "\(at): this is nested more than \(DSLLimits.maxExpressionDepth) levels deep (a long chain such as 1+1+… or else if … counts one level per link) (rules.dslSyntax).",
                             hint: "split it into smaller expressions, variables or rules.")
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
        RulesError(.dslSyntax, "\(location): found \(current.text) where \(expected) was expected (rules.dslSyntax).")
    }

    private func error(_ at: DSLLocation, _ message: String) -> RulesError {
        RulesError(.dslSyntax, "\(at): \(message) (rules.dslSyntax).")
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
