import Foundation

/// Reads openHAB's `.items` text format (openhab-core `org.openhab.core.model.item`, `Items.xtext`):
///
///     Type Name "Label [pattern]" <icon> (Group1, Group2) ["Tag", Tag2] { namespace="value" [key=value, …], … }
///
/// with `Type` one of openHAB's Item types, `Number:<Dimension>`, or `Group[:BaseType[:FUNCTION[(args)]]]`.
/// Every problem of the file is reported (up to ``maxIssues``), each located and with a stable code; the
/// parser never traps and its work is linear in the file's size.
public enum ItemsFileParser {
    /// At most this many problems per file are listed; one more line says how many were left out.
    public static let maxIssues = 100
    /// The longest Item name (openHAB sets none; a longer one is a typo or an attack).
    public static let maxNameLength = 256
    /// The largest file read.
    public static let maxFileBytes = 16 << 20

    /// What a file declares and what is wrong with it.
    public struct Result: Sendable {
        public var items: [ItemDefinition]
        public var issues: [ItemsFileIssue]
        /// What openHAB loads with a warning, located like issues: the file loads.
        public var notices: [ItemsFileIssue] = []
    }

    /// Parses `text`'s bytes as an `.items` file named `file` (for messages).
    public static func parse(_ text: String, file: String) -> Result { parse(bytes: Array(text.utf8), file: file) }

    /// Parses an `.items` file's bytes.
    public static func parse(bytes: [UInt8], file: String) -> Result {
        var issues = IssueList(file: file)
        guard bytes.count <= maxFileBytes else {
            issues.add(.tooLarge, 1, 1, "the file has \(bytes.count) bytes; the twin reads .items files up to \(maxFileBytes) bytes.")
            return Result(items: [], issues: issues.list)
        }
        if let (line, column) = firstInvalidUTF8(bytes) {
            issues.add(.encoding, line, column, "the file is not UTF-8 here (openHAB reads .items files as UTF-8).",
                       hint: "save the file as UTF-8.")
            return Result(items: [], issues: issues.list)
        }
        var parser = Parser(lexer: ItemsFileLexer(bytes: bytes), issues: issues)
        let items = parser.parseFile()
        var result = Result(items: items, issues: parser.issues.list, notices: parser.notices.list)
        ItemsFileChecks.check(&result, file: file)
        return result
    }

    /// The line and column of the first byte that is not UTF-8, if any.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (Int, Int)? {
        var line = 1, column = 1, i = 0
        while i < bytes.count {
            let b = bytes[i]
            var length = 0
            if b < 0x80 { length = 1 }
            else if b >= 0xC2 && b <= 0xDF { length = 2 }
            else if b >= 0xE0 && b <= 0xEF { length = 3 }
            else if b >= 0xF0 && b <= 0xF4 { length = 4 }
            if length == 0 || i + length > bytes.count { return (line, column) }
            if length > 1 {
                for k in 1..<length where bytes[i + k] & 0xC0 != 0x80 { return (line, column) }
                let scalar = String(decoding: bytes[i..<(i + length)], as: UTF8.self).unicodeScalars
                if scalar.count != 1 || scalar.first == "\u{FFFD}" { return (line, column) }  // overlong or surrogate
            }
            if b == 0x0A { line += 1; column = 1 } else { column += 1 }
            i += length
        }
        return nil
    }
}

/// Problems, capped at ``ItemsFileParser/maxIssues``.
struct IssueList {
    let file: String
    var list: [ItemsFileIssue] = []
    var leftOut = 0

    mutating func add(_ code: ItemsFileIssue.Code, _ line: Int, _ column: Int, _ message: String, hint: String? = nil) {
        guard list.count < ItemsFileParser.maxIssues else {
            leftOut += 1
            return
        }
        list.append(ItemsFileIssue(code, file: file, line: line, column: column, message, hint: hint))
    }
}

/// The grammar's item types, as keywords.
enum ItemsKeywords {
    static let types = ["Switch", "Contact", "Number", "String", "Dimmer", "Rollershutter", "Color", "DateTime",
                        "Location", "Player", "Call", "Image", "Group"]
}

private struct Parser: ModelTokenParser {
    var lexer: ItemsFileLexer
    var issues: IssueList
    var notices: IssueList
    var token: ItemsFileLexer.Token

    init(lexer: ItemsFileLexer, issues: IssueList) {
        self.lexer = lexer
        self.issues = issues
        notices = IssueList(file: issues.file)
        token = self.lexer.next()
    }

    mutating func addSyntax(_ line: Int, _ column: Int, _ message: String, hint: String?) {
        issues.add(.syntax, line, column, message, hint: hint)
    }

    mutating func parseFile() -> [ItemDefinition] {
        var items: [ItemDefinition] = []
        while token.kind != .end {
            if Task.isCancelled { break }  // Ctrl-C: the command ends and reports nothing of this file
            do {
                if let item = try parseItem() { items.append(item) }
            } catch {
                recover()
            }
        }
        return items
    }

    /// Skips to the next token that starts a line and is a type keyword (or looks like one).
    mutating func recover() {
        bump()
        while token.kind != .end {
            if token.startsLine, token.kind == .identifier, ItemsKeywords.types.contains(token.text) { return }
            bump()
        }
    }

    // MARK: Item

    mutating func parseItem() throws(Abandon) -> ItemDefinition? {
        let start = token
        guard start.kind == .identifier else {
            try fail("an Item type (\(ItemsKeywords.types.joined(separator: ", ")))")
        }
        var type: ItemType
        var aggregation: GroupAggregation?
        var pendingFunction: (name: ItemsFileLexer.Token, args: [ItemsFileLexer.Token])?
        if start.text == "Group" {
            bump()
            type = .groupItem
            if isPunct(":") {
                bump()
                let base = try parseType(allowFunctionAfterNumber: true)
                var function: ItemsFileLexer.Token? = base.function
                if function == nil, isPunct(":") {
                    bump()
                    function = try identifier("a Group function (\(GroupFunction.names.joined(separator: ", ")))")
                }
                if let base = base.type {
                    aggregation = GroupAggregation(baseType: base, function: .equality)
                }
                if let function {
                    var args: [ItemsFileLexer.Token] = []
                    if isPunct("(") {
                        bump()
                        while true {
                            guard token.kind == .identifier || token.kind == .string || token.kind == .number else {
                                try fail("a function parameter (an identifier such as ON or a string)")
                            }
                            args.append(token)
                            bump()
                            if isPunct(",") { bump(); continue }
                            try expect(")", "\",\" or \")\" after a function parameter")
                            break
                        }
                    }
                    pendingFunction = (function, args)
                }
            }
        } else {
            guard let parsed = try parseType(allowFunctionAfterNumber: false).type else { throw Abandon() }
            type = parsed
        }
        let nameToken = try identifier("the Item's name (letters, digits and _, not starting with a digit)")
        var item = ItemDefinition(name: nameToken.text, type: type, aggregation: aggregation, label: nil, statePattern: nil,
                                  icon: nil, groups: [], tags: [], metadata: [:], channels: [], line: start.line,
                                  column: start.column)
        var nameIsValid = true
        if nameToken.text.utf8.count > ItemsFileParser.maxNameLength {
            issues.add(.tooLarge, nameToken.line, nameToken.column,
                       "the Item name \(ItemsFileIssue.quoted(nameToken.text)) has \(nameToken.text.count) characters; the twin takes up to \(ItemsFileParser.maxNameLength).")
        } else if (try? ItemName(nameToken.text)) == nil {
            // Xtext's ID takes `1OG_Light` and `a-b`; openhab-core's ItemUtil.isValidItemName ([a-zA-Z_][a-zA-Z0-9_]*)
            // then refuses the Item, and GenericItemProvider leaves it out.
            nameIsValid = false
            issues.add(.syntax, nameToken.line, nameToken.column,
                       "\(ItemsFileIssue.quoted(nameToken.text)) is not an Item name openHAB takes: a letter or _ first, then letters, digits and _ (ItemUtil).")
        }
        if let (function, args) = pendingFunction {
            item.aggregation = resolveFunction(function, args, base: aggregation?.baseType)
        }
        if token.kind == .string {
            let (label, pattern) = Self.splitLabel(token.text)
            item.label = label
            item.statePattern = pattern
            bump()
        }
        if isPunct("<") {
            bump()
            var icon = ""
            while !isPunct(">") {
                guard token.kind == .identifier || token.kind == .number || isPunct(":") || token.kind == .string
                    || (token.kind == .invalid && token.text == "-") else {
                    try fail("an icon name and \">\" (such as <temperature> or <oh:classic:heating>)")
                }
                icon += token.text
                bump()
            }
            bump()
            item.icon = icon
        }
        if isPunct("(") {
            bump()
            while true {
                let g = try identifier("a Group name")
                item.groups.append(g.text)
                if isPunct(",") { bump(); continue }
                try expect(")", "\",\" or \")\" after a Group name")
                break
            }
        }
        if isPunct("[") {
            bump()
            while true {
                guard token.kind == .identifier || token.kind == .string else { try fail("a tag (an identifier or a string)") }
                item.tags.append(token.text)
                bump()
                if isPunct(",") { bump(); continue }
                try expect("]", "\",\" or \"]\" after a tag")
                break
            }
        }
        if isPunct("{") {
            bump()
            while true {
                try parseBinding(into: &item)
                if isPunct(",") { bump(); continue }
                try expect("}", "\",\" or \"}\" after metadata")
                break
            }
        }
        guard token.kind == .end || token.startsLine else {
            try fail("the end of the Item (a new Item starts on a new line)",
                     hint: "the order is: type name \"label\" <icon> (groups) [tags] { metadata }.")
        }
        return nameIsValid ? item : nil
    }

    /// `Switch`, `Number`, `Number:Temperature`, …; in a Group's base, `Number:AVG` reads AVG as the function.
    mutating func parseType(allowFunctionAfterNumber: Bool) throws(Abandon) -> (type: ItemType?, function: ItemsFileLexer.Token?) {
        let t = try identifier("an Item type")
        if t.text == "Number", isPunct(":") {
            bump()
            let d = try identifier("a dimension after Number: (such as Temperature)")
            if allowFunctionAfterNumber, GroupFunction.parameterCount(d.text) != nil, Dimension(rawValue: d.text) == nil {
                return (.numberItem(nil), d)
            }
            guard let dimension = Dimension(rawValue: d.text) else {
                let names = Dimension.allCases.map(\.rawValue)
                issues.add(.unknownDimension, d.line, d.column, "\(ItemsFileIssue.quoted(d.text)) is not a dimension openHAB knows.",
                           hint: ItemsFileIssue.didYouMean(d.text, in: names) ?? "use one of \(names.joined(separator: ", ")).")
                throw Abandon()
            }
            return (.numberItem(dimension), nil)
        }
        guard let type = ItemType(rawValue: t.text), t.text != "Group" || allowFunctionAfterNumber == false else {
            issues.add(.unknownType, t.line, t.column, "\(ItemsFileIssue.quoted(t.text)) is not an Item type.",
                       hint: ItemsFileIssue.didYouMean(t.text, in: ItemsKeywords.types)
                        ?? "use one of \(ItemsKeywords.types.joined(separator: ", ")).")
            throw Abandon()
        }
        return (type, nil)
    }

    /// The function with its parameters read as states of the base type (`OR(ON,OFF)` on a Switch).
    mutating func resolveFunction(_ name: ItemsFileLexer.Token, _ args: [ItemsFileLexer.Token], base: ItemType?) -> GroupAggregation? {
        let upper = name.text.uppercased()
        guard let count = GroupFunction.parameterCount(upper) else {
            issues.add(.unknownFunction, name.line, name.column, "\(ItemsFileIssue.quoted(name.text)) is not a Group function.",
                       hint: ItemsFileIssue.didYouMean(upper, in: GroupFunction.names)
                        ?? "use one of \(GroupFunction.names.joined(separator: ", ")).")
            return nil
        }
        guard let base else {
            issues.add(.unknownFunction, name.line, name.column, "a Group function needs a base type (Group:Switch:\(upper)…).")
            return nil
        }
        // openHAB's GroupFunctionHelper: AND/OR/NAND/NOR take (active, passive); without them a Switch uses ON,OFF.
        var states: [State] = []
        for arg in args where count == 2 {
            guard let state = base.parseState(arg.text), !state.isUndefined else {
                issues.add(.unknownFunction, arg.line, arg.column,
                           "\(ItemsFileIssue.quoted(arg.text)) is not a state of the Group's base type \(base).")
                return nil
            }
            states.append(state)
        }
        let function: GroupFunction
        switch upper {
        case "AND", "OR", "NAND", "NOR", "XOR":
            // GroupFunctionHelper: without two states openHAB logs an error and falls back to EQUALITY.
            let pair = states
            guard pair.count == 2 else {
                issues.add(.unknownFunction, name.line, name.column,
                           "\(upper) takes two states (active, passive), such as \(upper)(ON,OFF); openHAB would log an error and use EQUALITY.")
                return nil
            }
            switch upper {
            case "AND": function = .and(active: pair[0], passive: pair[1])
            case "OR": function = .or(active: pair[0], passive: pair[1])
            case "NAND": function = .nand(active: pair[0], passive: pair[1])
            case "NOR": function = .nor(active: pair[0], passive: pair[1])
            default: function = .xor(active: pair[0], passive: pair[1])
            }
        case "COUNT":
            guard args.count == 1 else {
                issues.add(.unknownFunction, name.line, name.column, "COUNT takes one regular expression, such as COUNT(\"ON\").")
                return nil
            }
            function = .count(pattern: args[0].text)
        default:
            guard args.isEmpty else {
                issues.add(.unknownFunction, name.line, name.column, "\(upper) takes no parameters.")
                return nil
            }
            switch upper {
            case "AVG": function = .avg
            case "MEDIAN": function = .median
            case "SUM": function = .sum
            case "MIN": function = .min
            case "MAX": function = .max
            case "EARLIEST": function = .earliest
            case "LATEST": function = .latest
            default: function = .equality
            }
        }
        return GroupAggregation(baseType: base, function: function)
    }

    /// `namespace="value" [key=value, …]`; `channel` makes a link.
    mutating func parseBinding(into item: inout ItemDefinition) throws(Abandon) {
        let key = try identifier("a metadata namespace (such as channel, unit, autoupdate, expire)")
        try expect("=", "\"=\" after \(key.text)")
        guard token.kind == .string else { try fail("a quoted value after \(key.text)=") }
        let value = token.text
        bump()
        var config: [String: String] = [:]
        if isPunct("[") {
            bump()
            while !isPunct("]") {
                let k = try identifier("a configuration key")
                try expect("=", "\"=\" after \(k.text)")
                var values: [String] = []
                while true {
                    guard token.kind == .string || token.kind == .number || token.kind == .identifier else {
                        try fail("a value (a string, a number, true or false) after \(k.text)=")
                    }
                    values.append(token.text)
                    bump()
                    // `k=a, b` lists values; `k=a, k2=b` starts the next key.
                    guard isPunct(",") else { break }
                    bump()
                    if token.kind == .identifier {
                        let saved = (lexer, token)
                        bump()
                        let nextIsKey = isPunct("=")
                        (lexer, token) = saved
                        if nextIsKey { break }
                    }
                }
                config[k.text] = values.joined(separator: ",")
                if isPunct("]") { break }
            }
            bump()
        }
        if key.text == "channel" {
            item.channels.append(ChannelLinkDefinition(uid: value, configuration: config, line: key.line, column: key.column))
        } else {
            // openHAB's GenericMetadataProvider keeps its metadata in a HashSet keyed by namespace and Item, so
            // the first of two entries of one namespace stays and the second is dropped: a notice, not a refusal.
            if item.metadata[key.text] != nil {
                notices.add(.duplicate, key.line, key.column,
                            "the metadata namespace \(key.text) is given twice for \(item.name); openHAB keeps the first, and so does the twin.")
            } else {
                item.metadata[key.text] = ItemMetadata(value: value, config: config)
            }
        }
    }

    /// `Bathroom [%.1f °C]` → (`Bathroom`, `%.1f °C`): openHAB's label with its trailing state pattern.
    static func splitLabel(_ text: String) -> (String?, String?) {
        guard text.hasSuffix("]"), let open = text.lastIndex(of: "[") else { return (text, nil) }
        let label = text[..<open].trimmingCharacters(in: .whitespaces)
        let pattern = String(text[text.index(after: open)..<text.index(before: text.endIndex)]).trimmingCharacters(in: .whitespaces)
        return (label.isEmpty ? nil : label, pattern.isEmpty ? nil : pattern)
    }
}
