/// Reads openHAB's `.things` text format (openhab-core `org.openhab.core.model.thing`, `Thing.xtext`):
///
///     Bridge mqtt:broker:home "Broker" @ "Cellar" [ host="10.0.0.2", port=1883 ] {
///         Thing topic sensor "Sensor" [ availabilityTopic="s/status" ] {
///             Channels:
///                 Type number : temperature "Temperature" [ stateTopic="s/temp" ]
///         }
///     }
///     astro:sun:home "Sun" [ geolocation="47.5,19.04", interval=60 ]
///
/// Things and Bridges (nested to any depth the grammar allows, `Thing` optional), labels, `@ "location"`,
/// `(bridge:uid)`, configuration values (strings, numbers, booleans, lists) and channels (`State`/`Trigger`
/// kinds, Item types, `Type <channelType>`, configuration). Every problem of the file is reported (up to
/// ``maxIssues``), located, with a stable code; the parser never traps and its work is linear in the file.
public enum ThingsFileParser {
    public static let maxIssues = 100
    /// The largest file read.
    public static let maxFileBytes = 16 << 20
    /// Bridges nested deeper than this are refused (real files nest two or three).
    public static let maxDepth = 32

    /// What a file declares and what is wrong with it.
    public struct Result: Sendable {
        /// Every Thing and Bridge, outer ones before the ones they hold, in file order.
        public var things: [ThingDefinition]
        public var issues: [ThingsFileIssue]
        /// What openHAB loads with a warning (a Thing UID declared again: the first stays).
        public var notices: [ThingsFileIssue] = []
    }

    /// Parses `text` as a `.things` file named `file` (for messages).
    public static func parse(_ text: String, file: String) -> Result { parse(bytes: Array(text.utf8), file: file) }

    /// Parses a `.things` file's bytes.
    public static func parse(bytes: [UInt8], file: String) -> Result {
        var parser = ThingsParser(file: file, lexer: ItemsFileLexer(bytes: bytes, punctuation: "()[]{},=:@#"))
        guard bytes.count <= maxFileBytes else {
            parser.add(.tooLarge, 1, 1, "the file has \(bytes.count) bytes; the twin reads .things files up to \(maxFileBytes) bytes.")
            return Result(things: [], issues: parser.issues)
        }
        if let (line, column) = ItemsFileParser.firstInvalidUTF8(bytes) {
            parser.add(.encoding, line, column, "the file is not UTF-8 here (openHAB reads .things files as UTF-8).", hint: "save the file as UTF-8.")
            return Result(things: [], issues: parser.issues)
        }
        parser.parseFile()
        parser.checkDuplicates()
        if parser.leftOut > 0 {
            parser.issues.append(ThingsFileIssue(.syntax, file: file, line: parser.issues.last?.line ?? 1, column: 1,
                                                 "\(parser.leftOut) more problem(s) of this file are not listed."))
        }
        return Result(things: parser.things, issues: parser.issues, notices: parser.notices)
    }
}

/// The grammar's Item type keywords of a channel (`BaseModelItemType`).
private let channelItemTypes: Set<String> = ["Switch", "Rollershutter", "Number", "String", "Dimmer", "Contact", "DateTime", "Color",
                                             "Player", "Location", "Call", "Image"]

private struct ThingsParser: ModelTokenParser {
    let file: String
    var lexer: ItemsFileLexer
    var token: ItemsFileLexer.Token
    var issues: [ThingsFileIssue] = []
    var notices: [ThingsFileIssue] = []
    var leftOut = 0
    var things: [ThingDefinition] = []

    init(file: String, lexer: ItemsFileLexer) {
        self.file = file
        self.lexer = lexer
        token = self.lexer.next()
    }

    mutating func add(_ code: ThingsFileIssue.Code, _ line: Int, _ column: Int, _ message: String, hint: String? = nil) {
        guard issues.count < ThingsFileParser.maxIssues else { leftOut += 1; return }
        issues.append(ThingsFileIssue(code, file: file, line: line, column: column, message, hint: hint))
    }

    mutating func addSyntax(_ line: Int, _ column: Int, _ message: String, hint: String?) {
        add(.syntax, line, column, message, hint: hint)
    }

    /// An ID (or a run of digits, which Xtext's ID also matches) as a UID segment.
    mutating func segment(_ what: String) throws(Abandon) -> ItemsFileLexer.Token {
        guard token.kind == .identifier || (token.kind == .number && token.text.allSatisfy(\.isNumber)) else { try fail(what) }
        let t = token
        bump()
        return t
    }

    // MARK: File

    mutating func parseFile() {
        while token.kind != .end {
            do {
                try parseThing(parent: nil, depth: 0)
            } catch {
                recover()
            }
        }
    }

    /// Skips to the next token that starts a line and may start a Thing (`Thing`, `Bridge`, or a UID's first segment
    /// followed by `:`), or to the end.
    mutating func recover() {
        bump()
        while token.kind != .end {
            if token.startsLine, token.kind == .identifier {
                if token.text == "Thing" || token.text == "Bridge" { return }
                if !channelItemTypes.contains(token.text), !["State", "Trigger", "Type", "Channels", "Things"].contains(token.text),
                   peek().kind == .punctuation(UInt8(ascii: ":")) { return }
            }
            bump()
        }
    }

    // MARK: Things

    /// `[Thing|Bridge] (UID | type id) "label"? ("(" bridge ")")? ("@" "location")? ("[" config "]")? ("{" … "}")?`
    mutating func parseThing(parent: ThingDefinition?, depth: Int) throws(Abandon) {
        let start = token
        guard depth < ThingsFileParser.maxDepth else {
            add(.tooLarge, start.line, start.column, "Bridges are nested more than \(ThingsFileParser.maxDepth) deep here.")
            throw Abandon()
        }
        var isBridge = false
        if isWord("Bridge") { isBridge = true; bump() } else if isWord("Thing") { bump() }
        let first = try segment(isBridge ? "the Bridge's UID (binding:type:id)" : "a Thing (its UID binding:type:id, or Thing/Bridge)")
        var segments = [first.text]
        while isPunct(":") {
            bump()
            segments.append(try segment("a UID segment after \":\"").text)
        }
        var uid: String
        var valid = true
        if segments.count == 1 {
            // The short form `type id`: the binding and the bridge segments come from the enclosing Bridge.
            let id = try segment("the Thing's id after its type \(ItemsFileIssue.quoted(first.text)) (or a full UID binding:type:id)")
            if let parent {
                let parentSegments = parent.uid.split(separator: ":").map(String.init)
                uid = ([parentSegments[0], first.text] + parentSegments.dropFirst(2) + [id.text]).joined(separator: ":")
            } else {
                add(.invalidUID, first.line, first.column,
                    "\(ItemsFileIssue.quoted("\(first.text) \(id.text)")) names a Thing by type and id only, which openHAB resolves against an enclosing Bridge; this one has none.",
                    hint: "write the full UID, binding:type:id (e.g. mqtt:topic:\(id.text)).")
                uid = "\(first.text):\(id.text)"
                valid = false
            }
        } else if segments.count == 2 {
            add(.invalidUID, first.line, first.column,
                "\(ItemsFileIssue.quoted(segments.joined(separator: ":"))) is no Thing UID: openHAB's ThingUID has at least three segments, binding:type:id.")
            uid = segments.joined(separator: ":")
            valid = false
        } else {
            uid = segments.joined(separator: ":")
        }
        var thing = ThingDefinition(uid: uid, isBridge: isBridge, bridgeUID: parent?.uid, label: nil, location: nil, configuration: [],
                                    channels: [], line: start.line, column: start.column)
        if token.kind == .string { thing.label = token.text; bump() }
        if !isBridge, isPunct("(") {
            bump()
            let b = try segment("the Bridge's UID in (…)")
            var bridge = [b.text]
            while isPunct(":") { bump(); bridge.append(try segment("a UID segment after \":\"").text) }
            try expect(")", "\")\" after the Bridge's UID")
            if bridge.count < 3 {
                add(.invalidUID, b.line, b.column, "\(ItemsFileIssue.quoted(bridge.joined(separator: ":"))) is no Bridge UID (binding:type:id).")
            }
            thing.bridgeUID = bridge.joined(separator: ":")
        }
        if isPunct("@") {
            bump()
            guard token.kind == .string else { try fail("the location as a quoted string after @ (such as @ \"Kitchen\")") }
            thing.location = token.text
            bump()
        }
        if isPunct("[") { thing.configuration = try parseProperties() }
        let index = things.count
        if valid { things.append(thing) }
        if isPunct("{") {
            bump()
            var channels: [ChannelDefinition] = []
            var inChannels = false
            if isBridge, isWord("Things"), peek().kind == .punctuation(UInt8(ascii: ":")) { bump(); bump() }
            while !isPunct("}") {
                guard token.kind != .end else { try fail("\"}\" to close \(ItemsFileIssue.quoted(uid))'s block") }
                if isWord("Channels"), peek().kind == .punctuation(UInt8(ascii: ":")) {
                    guard !inChannels else { try fail("a channel (Channels: is given once)") }
                    bump(); bump()
                    inChannels = true
                    continue
                }
                if inChannels || !isBridge || startsChannel() {
                    inChannels = inChannels || !isBridge ? inChannels : true
                    channels.append(try parseChannel())
                } else {
                    try parseThing(parent: thing, depth: depth + 1)
                }
            }
            bump()
            if valid { things[index].channels = channels }
        }
    }

    /// Whether the current token starts a channel rather than a nested Thing.
    func startsChannel() -> Bool {
        guard token.kind == .identifier else { return false }
        if ["State", "Trigger", "Type"].contains(token.text) { return true }
        return channelItemTypes.contains(token.text) && peek().kind == .punctuation(UInt8(ascii: ":"))
    }

    // MARK: Channels

    /// `(State|Trigger)? ItemType : id "label"? [config]?` or `Type channelType : id "label"? [config]?`.
    mutating func parseChannel() throws(Abandon) -> ChannelDefinition {
        let start = token
        var channel = ChannelDefinition(id: "", isTrigger: false, itemType: nil, channelType: nil, label: nil, configuration: [],
                                        line: start.line, column: start.column)
        if isWord("Type") {
            bump()
            channel.channelType = try segment("a channel type after Type (such as switch)").text
        } else {
            if isWord("State") { bump() } else if isWord("Trigger") { channel.isTrigger = true; bump() }
            guard token.kind == .identifier, channelItemTypes.contains(token.text) else {
                try fail("a channel: [State|Trigger] <ItemType> : id, or Type <channelType> : id",
                         hint: "Item types: \(channelItemTypes.sorted().joined(separator: ", ")).")
            }
            let typeToken = token
            bump()
            if typeToken.text == "Number", isPunct(":"), peek().kind == .identifier {
                // `Number:Temperature : id`: the dimension, then the channel's colon.
                var copy = lexer
                _ = copy.next()
                if copy.next().kind == .punctuation(UInt8(ascii: ":")) {
                    bump()
                    let d = token
                    bump()
                    guard let dimension = Dimension(rawValue: d.text) else {
                        let names = Dimension.allCases.map(\.rawValue)
                        add(.syntax, d.line, d.column, "\(ItemsFileIssue.quoted(d.text)) is not a dimension openHAB knows.",
                            hint: ItemsFileIssue.didYouMean(d.text, in: names) ?? "use one of \(names.joined(separator: ", ")).")
                        throw Abandon()
                    }
                    channel.itemType = .numberItem(dimension)
                }
            }
            if channel.itemType == nil { channel.itemType = ItemType(rawValue: typeToken.text) }
        }
        try expect(":", "\":\" before the channel's id")
        var id = try segment("the channel's id").text
        if isPunct("#") {
            bump()
            id += "#" + (try segment("the channel's id after its group and \"#\"")).text
        }
        channel.id = id
        if token.kind == .string { channel.label = token.text; bump() }
        if isPunct("[") { channel.configuration = try parseProperties() }
        return channel
    }

    // MARK: Configuration

    /// `[ key=value(, value)*, key2=value … ]`; `[]` is empty.
    mutating func parseProperties() throws(Abandon) -> [ThingConfigEntry] {
        bump()
        var entries: [ThingConfigEntry] = []
        var seen: Set<String> = []
        while !isPunct("]") {
            let key = try segment("a configuration key (key=value)")
            try expect("=", "\"=\" after \(key.text)")
            var values: [ThingConfigValue] = []
            while true {
                values.append(try value(for: key.text))
                guard isPunct(",") else { break }
                bump()
                // `k=a, b` lists values; `k=a, k2=b` starts the next key.
                if token.kind == .identifier, peek().kind == .punctuation(UInt8(ascii: "=")) { break }
            }
            if !seen.insert(key.text).inserted {
                add(.duplicate, key.line, key.column, "the configuration key \(key.text) is given twice.", hint: "give each key once.")
            }
            entries.append(ThingConfigEntry(key: key.text, value: values.count == 1 ? values[0] : .list(values)))
            if isPunct("]") { break }
            if values.count > 1 || token.kind == .identifier { continue }
            try fail("\",\" or \"]\" after a configuration value")
        }
        bump()
        return entries
    }

    /// `STRING | NUMBER | BOOLEAN`: an unquoted word must be `true`, `false` or a number (`('-')? ID ('.' ID)?`
    /// read by openHAB's value converter as a `BigDecimal`).
    mutating func value(for key: String) throws(Abandon) -> ThingConfigValue {
        let t = token
        switch t.kind {
        case .string:
            bump()
            return .string(t.text)
        case .number:
            bump()
            return .number(t.text)
        case .identifier where t.text == "true" || t.text == "false":
            bump()
            return .boolean(t.text == "true")
        case .identifier:
            bump()
            add(.invalidValue, t.line, t.column,
                "\(ItemsFileIssue.quoted(t.text)) is no value openHAB reads for \(key): a quoted string, a number or true/false.",
                hint: "quote it: \(key)=\"\(t.text.prefix(40))\".")
            return .string(t.text)
        default:
            try fail("a value after \(key)= (a quoted string, a number, true or false)")
        }
    }

    // MARK: Checks

    /// A Thing UID declared twice (openHAB's ThingRegistry keeps the first and warns), a channel id twice in a Thing.
    mutating func checkDuplicates() {
        var firstAt: [String: Int] = [:]
        var kept: [ThingDefinition] = []
        for thing in things {
            if let line = firstAt[thing.uid] {
                guard notices.count < ThingsFileParser.maxIssues else { continue }
                notices.append(ThingsFileIssue(.duplicate, file: file, line: thing.line, column: thing.column,
                                               "the Thing \(ItemsFileIssue.quoted(thing.uid)) is already declared on line \(line); openHAB keeps the first, and so does the twin."))
                continue
            }
            firstAt[thing.uid] = thing.line
            var ids: Set<String> = []
            for channel in thing.channels where !ids.insert(channel.id).inserted {
                add(.duplicate, channel.line, channel.column,
                    "the channel \(ItemsFileIssue.quoted(channel.id)) is declared twice in \(ItemsFileIssue.quoted(thing.uid)).",
                    hint: "give each channel of a Thing its own id.")
            }
            kept.append(thing)
        }
        things = kept
    }
}
