/// Reads openHAB's `.persist` format (openhab-core `org.openhab.core.model.persistence`, `Persistence.xtext`):
///
///     Strategies { everyHour : "0 0 * * * ?"  default = everyChange }
///     Filters { fiveMinutes : T 5 m  smallSteps : > 0.2 °C  onOff : = "ON", "OFF" }
///     Items { * : strategy = everyChange, restoreOnStartup
///             gTemperature*, !Outdoor : strategy = everyHour filter = smallSteps }
///     Aliases { Bath_Temp -> "bath_temperature" }
///
/// The union of openHAB 3 to 5: `Strategies` optional (openHAB 5) or with `default =` (openHAB 4 and
/// before), an Items line ended by `: strategy = … filter = …` or by `;`. Every problem is reported (up
/// to ``maxIssues``), located, with a stable code; work is linear in the file's size.
public enum PersistenceFileParser {
    public static let maxIssues = 100
    public static let maxFileBytes = 4 << 20
    /// openHAB's global strategies (`PersistenceStrategy.Globals`).
    public static let globalStrategies = ["everyChange", "everyUpdate", "restoreOnStartup", "forecast"]

    /// What a file configures and what is wrong with it.
    public struct Result: Sendable {
        public var definition: PersistenceFileDefinition
        public var issues: [PersistenceFileIssue]
    }

    /// Parses the `.persist` file `file` (its name gives the service id) from its text.
    public static func parse(_ text: String, file: String) -> Result { parse(bytes: Array(text.utf8), file: file) }

    /// Parses a `.persist` file's bytes.
    public static func parse(bytes: [UInt8], file: String) -> Result {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        let service = base.hasSuffix(".persist") ? String(base.dropLast(".persist".count)) : base
        var parser = PersistParser(file: file, lexer: ItemsFileLexer(bytes: bytes, punctuation: "{}:,=*!>%[];()"),
                                   definition: PersistenceFileDefinition(service: service, cronStrategies: [], defaults: [],
                                                                         filters: [], configurations: [], aliases: [:]))
        guard bytes.count <= maxFileBytes else {
            parser.add(.tooLarge, 1, 1, "the file has \(bytes.count) bytes; the twin reads .persist files up to \(maxFileBytes) bytes.")
            return Result(definition: parser.definition, issues: parser.issues)
        }
        if let (line, column) = ItemsFileParser.firstInvalidUTF8(bytes) {
            parser.add(.encoding, line, column, "the file is not UTF-8 here.", hint: "save the file as UTF-8.")
            return Result(definition: parser.definition, issues: parser.issues)
        }
        parser.parseFile()
        parser.checkNames()
        return Result(definition: parser.definition, issues: parser.issues)
    }
}

private struct PersistParser: ModelTokenParser {
    let file: String
    var lexer: ItemsFileLexer
    var definition: PersistenceFileDefinition
    var token: ItemsFileLexer.Token
    var issues: [PersistenceFileIssue] = []
    /// Where each strategy and filter name is used, for the checks.
    var strategyUses: [(name: String, line: Int, column: Int)] = []
    var filterUses: [(name: String, line: Int, column: Int)] = []

    init(file: String, lexer: ItemsFileLexer, definition: PersistenceFileDefinition) {
        self.file = file
        self.lexer = lexer
        self.definition = definition
        token = self.lexer.next()
    }

    mutating func add(_ code: PersistenceFileIssue.Code, _ line: Int, _ column: Int, _ message: String, hint: String? = nil) {
        guard issues.count < PersistenceFileParser.maxIssues else { return }
        issues.append(PersistenceFileIssue(code, file: file, line: line, column: column, message, hint: hint))
    }

    mutating func addSyntax(_ line: Int, _ column: Int, _ message: String, hint: String?) {
        add(.syntax, line, column, message, hint: hint)
    }

    /// Skips to the next token that starts a line (an entry of the section), or to the section's `}`.
    mutating func recover() {
        if isPunct("}") { return }
        if token.kind != .end { bump() }
        while token.kind != .end, !token.startsLine, !isPunct("}") { bump() }
    }

    // MARK: Sections

    mutating func parseFile() {
        let order = ["Strategies", "Filters", "Items", "Aliases"]
        var next = 0
        while token.kind != .end {
            guard token.kind == .identifier, let index = order.firstIndex(of: token.text) else {
                add(.syntax, token.line, token.column, "expected a section (\(order[next...].joined(separator: ", "))), found \(token.described).",
                    hint: "a .persist file has the sections Strategies { }, Filters { }, Items { } and Aliases { }, in that order.")
                bump()
                while token.kind != .end, !(token.kind == .identifier && order.contains(token.text) && token.startsLine) { bump() }
                continue
            }
            if index < next {
                add(.syntax, token.line, token.column, "the section \(token.text) comes after \(order[next - 1]); openHAB reads them in the order \(order.joined(separator: ", ")).")
            }
            next = max(next, index + 1)
            let section = token.text
            bump()
            guard isPunct("{") else {
                add(.syntax, token.line, token.column, "expected \"{\" after \(section), found \(token.described).")
                continue
            }
            bump()
            while !isPunct("}"), token.kind != .end {
                do {
                    switch section {
                    case "Strategies": try strategy()
                    case "Filters": try filter()
                    case "Items": try items()
                    default: try alias()
                    }
                } catch {
                    recover()
                }
            }
            if token.kind == .end {
                add(.syntax, token.line, token.column, "the section \(section) is never closed with \"}\".")
            } else {
                bump()
            }
        }
    }

    /// `name : "cron"`, `name` (a global, listed again), or `default = a, b`.
    mutating func strategy() throws(Abandon) {
        let n = try identifier("a strategy (name : \"cron expression\") or default = …")
        if n.text == "default", isPunct("=") {
            bump()
            while true {
                let s = try identifier("a strategy name after default =")
                definition.defaults.append(s.text)
                strategyUses.append((s.text, s.line, s.column))
                guard isPunct(",") else { break }
                bump()
            }
            return
        }
        guard isPunct(":") else { return }  // a bare name: openHAB takes it as a strategy without a schedule
        bump()
        guard token.kind == .string else { try fail("a quoted cron expression after \(n.text) :", hint: "such as everyHour : \"0 0 * * * ?\".") }
        if definition.cronStrategies.contains(where: { $0.name == n.text }) || PersistenceFileParser.globalStrategies.contains(n.text) {
            add(.duplicate, n.line, n.column, "the strategy \(n.text) is defined twice (or is one of openHAB's own).")
        }
        definition.cronStrategies.append(CronStrategyDefinition(name: n.text, cron: token.text, line: n.line, column: n.column))
        bump()
    }

    /// `name : > [%] value [unit]`, `T value s|m|h|d`, `= "a", …`, `! "a", …`, `[] lower upper [unit]`, `][ lower upper [unit]`.
    mutating func filter() throws(Abandon) {
        let n = try identifier("a filter (name : definition)")
        try expect(":", "\":\" after the filter's name \(n.text)")
        let kind: PersistenceFilterKind
        if isPunct(">") {
            bump()
            var relative = false
            if isPunct("%") { relative = true; bump() }
            let value = try decimal("the threshold after >")
            kind = .threshold(value: value, relative: relative, unit: unit())
        } else if isWord("T") {
            bump()
            // `T 5 m`; the lexer reads `5m` as one word.
            var amount: Int64?
            var letter = ""
            if token.kind == .number, let v = Int64(token.text) {
                amount = v
                bump()
                if token.kind == .identifier { letter = token.text; bump() }
            } else if token.kind == .identifier, let digits = Int64(token.text.prefix { $0.isNumber }) {
                amount = digits
                letter = String(token.text.drop { $0.isNumber })
                bump()
            }
            let scale: Int64? = ["s": 1, "m": 60, "h": 3600, "d": 86_400][letter]
            guard let amount, let scale else { try fail("a period after T: a whole number and s, m, h or d (T 5 m)") }
            kind = .time(seconds: amount * scale)
        } else if isPunct("=") || isPunct("!") {
            let inverted = isPunct("!")
            bump()
            var values: [String] = []
            while true {
                guard token.kind == .string else { try fail("a quoted state (such as \"ON\")") }
                values.append(token.text)
                bump()
                guard isPunct(",") else { break }
                bump()
            }
            kind = .equals(values, inverted: inverted)
        } else if isPunct("[") || isPunct("]") {
            let inverted = isPunct("]")
            bump()
            try expect(inverted ? "[" : "]", inverted ? "\"][\" (outside a range)" : "\"[]\" (inside a range)")
            let lower = try decimal("the range's lower bound")
            let upper = try decimal("the range's upper bound")
            kind = .include(lower: lower, upper: upper, unit: unit(), inverted: inverted)
        } else {
            try fail("a filter definition: > value, T period, = \"state\", ! \"state\", [] lower upper or ][ lower upper")
        }
        if definition.filters.contains(where: { $0.name == n.text }) {
            add(.duplicate, n.line, n.column, "the filter \(n.text) is defined twice.")
        }
        definition.filters.append(PersistenceFilterDefinition(name: n.text, kind: kind, line: n.line, column: n.column))
    }

    mutating func decimal(_ what: String) throws(Abandon) -> Double {
        guard token.kind == .number, let value = Double(token.text) else { try fail(what) }
        bump()
        return value
    }

    /// An optional unit: a quoted string, or what follows on the line (`°C`, `kWh`, `m/s`).
    mutating func unit() -> String? {
        if token.kind == .string {
            defer { bump() }
            return token.text
        }
        var text = ""
        while token.kind != .end, !token.startsLine, !isPunct("}") {
            text += token.text
            bump()
        }
        return text.isEmpty ? nil : text
    }

    /// `selector (, selector)* (: (strategy = a, b)? (filter = f, g)? | ;)`.
    mutating func items() throws(Abandon) {
        let start = token
        var selectors: [PersistenceSelector] = []
        while true {
            if isPunct("*") {
                bump()
                selectors.append(.all)
            } else {
                var exclude = false
                if isPunct("!") { exclude = true; bump() }
                let n = try identifier("an Item, a Group followed by *, or * (every Item)")
                if isPunct("*") {
                    bump()
                    selectors.append(exclude ? .excludeGroup(n.text) : .group(n.text))
                } else {
                    selectors.append(exclude ? .excludeItem(n.text) : .item(n.text))
                }
            }
            guard isPunct(",") else { break }
            bump()
        }
        var config = PersistenceItemConfiguration(selectors: selectors, strategies: [], filters: [], line: start.line, column: start.column)
        if isPunct(";") {
            bump()
        } else {
            try expect(":", "\":\" and strategy = … after the Items (or \";\")")
            for key in ["strategy", "filter"] where isWord(key) {
                bump()
                try expect("=", "\"=\" after \(key)")
                while true {
                    let s = try identifier("a \(key) name")
                    if key == "strategy" {
                        config.strategies.append(s.text)
                        strategyUses.append((s.text, s.line, s.column))
                    } else {
                        config.filters.append(s.text)
                        filterUses.append((s.text, s.line, s.column))
                    }
                    // `a, b` lists names; a comma before `filter` is not the grammar's.
                    guard isPunct(",") else { break }
                    bump()
                }
            }
        }
        definition.configurations.append(config)
    }

    /// `Item -> alias` (the lexer reads `Item-` then `>`).
    mutating func alias() throws(Abandon) {
        let n = try identifier("an Item name (Item -> alias)")
        var item = n.text
        if item.hasSuffix("-"), isPunct(">") {
            item.removeLast()
            bump()
        } else {
            guard token.kind == .invalid, token.text == "-" else { try fail("\"->\" after \(n.text)") }
            bump()
            try expect(">", "\"->\" after \(n.text)")
        }
        guard token.kind == .identifier || token.kind == .string else { try fail("the alias (a name or a quoted string) after ->") }
        definition.aliases[item] = token.text
        bump()
    }

    /// Every strategy and filter an Items line names is defined (openHAB's linker refuses the file otherwise).
    mutating func checkNames() {
        let strategies = PersistenceFileParser.globalStrategies + definition.cronStrategies.map(\.name)
        for use in strategyUses where !strategies.contains(use.name) {
            add(.unknownStrategy, use.line, use.column, "no strategy \(ItemsFileIssue.quoted(use.name)): openHAB has \(PersistenceFileParser.globalStrategies.joined(separator: ", ")), and the file defines \(definition.cronStrategies.isEmpty ? "none" : definition.cronStrategies.map(\.name).joined(separator: ", ")).",
                hint: ItemsFileIssue.didYouMean(use.name, in: strategies) ?? "define it under Strategies { \(use.name) : \"0 0 * * * ?\" }.")
        }
        let filters = definition.filters.map(\.name)
        for use in filterUses where !filters.contains(use.name) {
            add(.unknownFilter, use.line, use.column, "no filter \(ItemsFileIssue.quoted(use.name)) under Filters { }.",
                hint: ItemsFileIssue.didYouMean(use.name, in: filters) ?? "define it, e.g. Filters { \(use.name) : T 5 m }.")
        }
    }
}
