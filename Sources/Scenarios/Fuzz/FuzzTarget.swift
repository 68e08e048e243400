import Foundation
import ScenarioFormat
import Simulation

/// A kind of file the fuzzer mutates: the scenario itself, or a side file a scenario loads (a rule
/// file, UI rules, a calendar, an EPW year). A side-file input is a seed scenario unchanged whose one
/// side file is mutated and reaches the real loader through ``ScenarioDecoder/decode(_:file:seed:sideFiles:)``.
///
/// Adding a kind is one entry in ``all``: its name, which side files it takes (by the path the scenario
/// writes), what its dictionary is made of, and how one of its texts is mutated.
public struct FuzzTarget: Sendable, Hashable, CustomStringConvertible {
    /// The name `--target` takes and the summary prints.
    public let name: String
    /// What it mutates and how, for `fuzz --help` (which lists every kind from ``all``).
    public let summary: String
    /// Whether a side file (its path as the scenario writes it, lower-cased) is of this kind; `nil` for the scenario itself.
    let matches: (@Sendable (String) -> Bool)?
    /// The words mutations splice in, from the texts of every seed file of this kind.
    let dictionary: @Sendable ([String]) -> [String]
    /// One input's mutation of `text`, with the kind's dictionary.
    let mutate: @Sendable (inout FuzzRandom, String, [String]) -> String

    public var description: String { name }
    public static func == (a: FuzzTarget, b: FuzzTarget) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The scenario JSON itself (structure-aware mutations, ``ScenarioMutator``).
    public static let scenario = FuzzTarget(name: "scenario", summary: "one to four structure-aware mutations of a seed scenario (numbers to extremes or \"NaN\", ids swapped, dates to edge values, keys renamed or dropped, array elements dropped, duplicated or swapped, steps moved)",
                                            matches: nil, dictionary: { _ in [] }, mutate: { _, text, _ in text })

    /// Every kind, in the order the summary lists them; the default of `--target`.
    public static let all: [FuzzTarget] = [
        scenario,
        FuzzTarget(name: "rules", summary: "a Rules DSL file (*.rules) a seed scenario loads, split into tokens (identifiers, numbers, strings, comments, operators, punctuation): tokens dropped, duplicated, swapped, repeated or replaced by DSL keywords and operators",
                   matches: { $0.hasSuffix(".rules") }, dictionary: RuleTokens.dictionary, mutate: RuleTokens.mutate),
        FuzzTarget(name: "ui-rules", summary: "a UI-rule JSON file (*.json a scenario's rules name), mutated as scenarios are",
                   matches: { $0.hasSuffix(".json") }, dictionary: { $0 }, mutate: JSONFileMutation.mutate),
        FuzzTarget(name: "ical", summary: "an iCalendar feed (*.ics): lines dropped, repeated, swapped, folded; values and properties (RRULE, EXDATE, TZID, dates, nested components) replaced",
                   matches: { $0.hasSuffix(".ics") }, dictionary: LineMutation.icalDictionary, mutate: LineMutation.mutateICalendar),
        FuzzTarget(name: "epw", summary: "an EPW weather file (*.epw): fields to extremes, missing codes and junk; rows dropped, repeated, swapped, reversed, cut or widened",
                   matches: { $0.hasSuffix(".epw") }, dictionary: LineMutation.epwDictionary, mutate: LineMutation.mutateEPW),
        FuzzTarget(name: "items", summary: "an openHAB .items file (*.items) a seed scenario loads, split into tokens as rule files are: tokens dropped, duplicated, swapped, repeated or replaced by Item types, dimensions, group functions, metadata and punctuation",
                   matches: { $0.hasSuffix(".items") }, dictionary: { RuleTokens.dictionary($0, keywords: RuleTokens.itemsKeywords) }, mutate: RuleTokens.mutate),
        FuzzTarget(name: "transforms", summary: "a MAP or SCALE transformation file (*.map, *.scale) a seed scenario's transformFiles load: lines dropped, repeated, swapped, cut or replaced; values, range brackets and bounds, escapes and continuations changed",
                   matches: { $0.hasSuffix(".map") || $0.hasSuffix(".scale") }, dictionary: TransformFileMutation.dictionary, mutate: TransformFileMutation.mutate),
        FuzzTarget(name: "things", summary: "an openHAB .things file of a seed scenario's openhabConf directory, split into tokens as rule files are: tokens dropped, duplicated, swapped, repeated or replaced by Thing, Bridge and channel keywords, UIDs, values and punctuation",
                   matches: { $0.hasSuffix(".things") }, dictionary: { RuleTokens.dictionary($0, keywords: RuleTokens.thingsKeywords) }, mutate: RuleTokens.mutate),
        FuzzTarget(name: "persist", summary: "an openHAB .persist file of a seed scenario's openhabConf directory, split into tokens: tokens dropped, duplicated, swapped, repeated or replaced by sections, strategies, filters, selectors and punctuation",
                   matches: { $0.hasSuffix(".persist") }, dictionary: { RuleTokens.dictionary($0, keywords: RuleTokens.persistKeywords) }, mutate: RuleTokens.mutate),
        FuzzTarget(name: "js", summary: "a JavaScript script file (*.js) a seed scenario's rules load, split into tokens as rule files are: tokens dropped, duplicated, swapped, repeated or replaced by JavaScript and openhab-js words (endless loops, unsupported members, requires that resolve nowhere included)",
                   matches: { $0.hasSuffix(".js") }, dictionary: { RuleTokens.dictionary($0, keywords: RuleTokens.javaScriptKeywords) }, mutate: RuleTokens.mutate),
        FuzzTarget(name: "ui-js", summary: "the JavaScript of a UI-rule JSON file (a script.ScriptAction or ScriptCondition of type application/javascript, as Blockly saves it): one script string decoded, mutated token by token as .js files are, and written back",
                   matches: { $0.hasSuffix(".json") }, dictionary: UIScriptMutation.dictionary, mutate: UIScriptMutation.mutate),
        FuzzTarget(name: "scripts", summary: "an openHAB script (*.script) a seed scenario's scriptFiles load for callScript, mutated token by token as rule files are",
                   matches: { $0.hasSuffix(".script") }, dictionary: RuleTokens.dictionary, mutate: RuleTokens.mutate),
    ]

    /// The kinds `list` names (`rules,ical`), in ``all``'s order, or the first name that is no kind.
    public static func parse(_ list: String) -> Result<[FuzzTarget], UnknownTarget> {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for name in names where !all.contains(where: { $0.name == name }) { return .failure(UnknownTarget(name: name)) }
        return .success(all.filter { names.contains($0.name) })
    }

    public struct UnknownTarget: Error {
        public let name: String
    }
}

/// The random choices of one mutation (a ``SplitMix64`` stream).
public struct FuzzRandom {
    var stream: SplitMix64

    mutating func pick(_ count: Int) -> Int { count <= 1 ? 0 : Int(stream.next() % UInt64(count)) }
    mutating func chance(_ p: Double) -> Bool { stream.nextUnit() < p }
    mutating func element<T>(_ array: [T]) -> T? { array.isEmpty ? nil : array[pick(array.count)] }
    /// 1 in half the cases, else 2…4: stacked mutations, most inputs still close to valid.
    mutating func rounds() -> Int { chance(0.5) ? 1 : 2 + pick(3) }
}

/// Token-level mutations of Rules DSL text.
enum RuleTokens {
    /// The DSL's keywords, trigger words, common calls and operators.
    static let keywords = [
        "rule", "when", "then", "end", "Item", "Member", "of", "Thing", "Channel", "received", "command", "changed", "update", "from", "to",
        "Time", "cron", "is", "midnight", "noon", "System", "started", "triggered", "var", "val", "if", "else", "while", "for", "return",
        "true", "false", "null", "ON", "OFF", "NULL", "UNDEF", "sendCommand", "postUpdate", "createTimer", "reschedule", "cancel", "now",
        "plusSeconds", "plusMinutes", "plusHours", "plusDays", "minusMinutes", "logInfo", "logWarn", "state", "previousState",
        "triggeringItem", "receivedCommand", "newState", "Number", "String", "DecimalType", "OnOffType", "QuantityType", "instanceof", "as",
        "import", "(", ")", "[", "]", "{", "}", ",", ".", ";", "|", "+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||",
        "!", "=", "+=", "-=", "->", "0", "1", "-1", "0.5", "1e308", "9223372036854775807", "-9223372036854775808", "\"\"", "\"x\"",
        "\"0 0 * * * ?\"", "\"* * * * * ?\"", "// note\n", "/* c */", "\n", "22:30", "24:00",
    ]

    /// Tokens: identifiers, numbers, strings, comments, operators, punctuation and runs of blanks
    /// (kept, so the text joins back as it was).
    static func tokens(_ text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var result: [String] = []
        var i = 0
        func take(_ end: Int) {
            var s = ""
            s.unicodeScalars.append(contentsOf: scalars[i..<end])
            result.append(s)
            i = end
        }
        func isWord(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || c == "_" || ("0"..."9").contains(c) }
        while i < scalars.count {
            let c = scalars[i], next = i + 1 < scalars.count ? scalars[i + 1] : " "
            var j = i + 1
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                while j < scalars.count, [" ", "\t", "\n", "\r"].contains(scalars[j]) { j += 1 }
            } else if c == "/", next == "/" {
                while j < scalars.count, scalars[j] != "\n" { j += 1 }
            } else if c == "/", next == "*" {
                j = i + 2
                while j + 1 < scalars.count, !(scalars[j] == "*" && scalars[j + 1] == "/") { j += 1 }
                j = min(scalars.count, j + 2)
            } else if c == "\"" || c == "'" {
                while j < scalars.count, scalars[j] != c, scalars[j] != "\n" { j += scalars[j] == "\\" ? 2 : 1 }
                j = min(scalars.count, j + 1)
            } else if isWord(c) {
                while j < scalars.count, isWord(scalars[j]) || (("0"..."9").contains(c) && scalars[j] == ".") { j += 1 }
            } else if ["==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "->", "++", "--"].contains(String(c) + String(next)) {
                j = i + 2
            }
            take(j)
        }
        return result
    }

    /// The words of openHAB's `.items` grammar (Items.xtext) and values that stress it.
    static let itemsKeywords = [
        "Switch", "Contact", "Number", "Number:Temperature", "Number:Power", "Number:Energy", "Number:Volume", "Number:Dimensionless",
        "Number:Nonsense", "String", "Dimmer", "Rollershutter", "Color", "DateTime", "Location", "Player", "Call", "Image", "Group",
        "Group:Number:AVG", "Group:Number:SUM", "Group:Switch:OR(ON,OFF)", "Group:Contact:AND(OPEN,CLOSED)", "Group:DateTime:LATEST",
        "Group:Number:COUNT(\"ON\")", "\"Label [%.1f °C]\"", "\"[%d %%]\"", "\"[MAP(x.map):%s]\"", "<temperature>", "<>", "(gAll)", "(g1, g2)",
        "[\"Tag\"]", "{ channel=\"twin:thermostat:flat-1:heating:setpoint\" }", "{ unit=\"°F\" }", "{ expire=\"5m,state=OFF\" }",
        "{ k=\"v\" [a=1, b=\"x\"] }", "{", "}", "(", ")", "[", "]", "<", ">", ",", "=", ":", "\"\"", "0", "-1", "1e308",
        "// c\n", "/* c */", "\n", "\u{0}", "Ä",
    ]

    /// The `.things` grammar's words.
    static let thingsKeywords = [
        "Thing", "Bridge", "Things:", "Channels:", "State", "Trigger", "Type", "Switch", "Number", "Number:Temperature", "String", "Contact",
        "@", "#", ":", "(", ")", "[", "]", "{", "}", ",", "=", "\"x\"", "true", "false", "-1", "0.5", "mqtt:broker:b", "a:b", "a:b:c:d:e",
    ]
    /// The `.persist` grammar's words.
    static let persistKeywords = [
        "Strategies", "Filters", "Items", "Aliases", "default", "strategy", "filter", "everyChange", "everyUpdate", "restoreOnStartup",
        "forecast", "everyHour", "\"0 0 * * * ?\"", "\"bad cron\"", ">", "%", "T", "5", "m", "=", "!", "[", "]", "*", ":", ",", ";", "{", "}",
        "->", "°C", "-0.5", "gAll*",
    ]
    /// JavaScript and openhab-js words, and constructs hostile to the runtime.
    static let javaScriptKeywords = [
        "const", "let", "var", "function", "return", "if", "else", "while", "for", "of", "in", "new", "this", "null", "undefined", "true",
        "false", "typeof", "class", "extends", "try", "catch", "finally", "throw", "async", "await", "=>", "...", "`", "${", "}", "(", ")",
        "[", "]", "{", ",", ".", ";", ":", "?", "?.", "??", "=", "==", "===", "!==", "+", "-", "*", "/", "%", "&&", "||", "!",
        "items", "items.getItem('Nowhere')", "items.Nowhere", "rules.JSRule", "rules.SwitchableJSRule", "triggers", "triggers.GenericCronTrigger('* * * * * ?')",
        "triggers.ItemStateChangeTrigger('Nowhere')", "triggers.TimeOfDayTrigger('25:99')", "triggers.GenericCronTrigger('nonsense')",
        "require('openhab')", "require('no-such-module')", "require('../../../../etc/passwd')", "require('/etc/openhab/automation/js/x')",
        "setTimeout", "setInterval(() => {}, 0)", "clearTimeout", "time.ZonedDateTime.now()", "time.toZDT('PT-5M')", "time.toZDT({})",
        "Java.type('java.io.File')", "Java.type('java.lang.System')", "actions.HTTP.sendHttpGetRequest('x')",
        "actions.NotificationAction.sendNotification('a', 'b')", "cache.private.put('k', 1)", "cache.shared.get('k')", "console.log",
        "log('x').info", "while (true) {}", "for (;;) {}", "new Array(1e9).fill(0)", "'x'.repeat(1e9)", "(function f() { f(); })()",
        "Math.random()", "Date.now()", "process", "globalThis", "constructor", "eval('1')", "Proxy", "Symbol()", "0", "-1", "1e308", "NaN",
        "'ON'", "'OFF'", "'21 °C'", "\"\"", "// c\n", "/* c */", "\n",
    ]

    static func dictionary(_ texts: [String]) -> [String] { dictionary(texts, keywords: keywords) }

    static func dictionary(_ texts: [String], keywords: [String]) -> [String] {
        var seen: Set<String> = []
        var words = keywords
        for text in texts {
            for token in tokens(text) where !token.allSatisfy(\.isWhitespace) && token.count <= 80 && seen.insert(token).inserted { words.append(token) }
        }
        return words
    }

    static func mutate(_ random: inout FuzzRandom, _ text: String, _ dictionary: [String]) -> String {
        var tokens = tokens(text)
        for _ in 0..<random.rounds() {
            let solid = tokens.indices.filter { !tokens[$0].allSatisfy(\.isWhitespace) }
            guard let i = random.element(solid) else { tokens.append(random.element(dictionary) ?? "rule"); continue }
            switch random.pick(7) {
            case 0: tokens.remove(at: i)
            case 1: tokens.insert(contentsOf: [tokens[i], " "], at: i)
            case 2:
                let j = random.element(solid) ?? i
                tokens.swapAt(i, j)
            case 3, 4: tokens[i] = random.element(dictionary) ?? tokens[i]
            case 5: tokens.insert(contentsOf: [" ", random.element(dictionary) ?? "end", " "], at: i)
            default:
                // A short span repeated (a chain of terms, a block twice): at most 20 copies, so the
                // mutant stays small (deep chains are the DSL's nesting budget to test, not this one's).
                let end = min(tokens.count, i + 1 + random.pick(12))
                let span = Array(tokens[i..<end])
                for _ in 0..<(1 + random.pick(20)) { tokens.insert(contentsOf: span, at: end) }
            }
        }
        return tokens.joined()
    }
}

/// Structure-aware mutations of a JSON side file (UI rules), with the scenario mutator.
enum JSONFileMutation {
    static func mutate(_ random: inout FuzzRandom, _ text: String, _ seeds: [String]) -> String {
        guard let root = try? JSONParser.parse(text) else { return text + "x" }
        let roots = seeds.compactMap { try? JSONParser.parse($0) }
        var mutator = ScenarioMutator(random: random.stream, dictionary: FuzzDictionary(roots: roots))
        let result = mutator.mutate(root).text(pretty: true) + "\n"
        random.stream = mutator.random
        return result
    }
}

/// Line- and field-level mutations of iCalendar and EPW text.
enum LineMutation {
    /// Lines hostile to a calendar reader, with the corpus's own lines.
    static let icalLines = [
        "BEGIN:VEVENT", "END:VEVENT", "BEGIN:VALARM", "END:VALARM", "BEGIN:VTIMEZONE", "END:VTIMEZONE", "BEGIN:VCALENDAR", "END:VCALENDAR",
        "RRULE:FREQ=WEEKLY;COUNT=3", "RRULE:FREQ=DAILY;UNTIL=21991231", "RRULE:FREQ=WEEKLY", "RRULE:FREQ=MONTHLY;BYDAY=2MO;COUNT=2",
        "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=1000", "RRULE:FREQ=YEARLY;INTERVAL=2;UNTIL=20300101T000000Z", "RRULE:FREQ=DAILY;COUNT=0",
        "EXDATE;VALUE=DATE:20260110", "EXDATE:20260110T150000", "RDATE:20260110", "RECURRENCE-ID:20260110",
        "STATUS:CANCELLED", "STATUS:CONFIRMED", "DTSTART;TZID=Mars/Olympus:20260109T150000", "DTSTART;TZID=Europe/Budapest:20260109T150000",
        "DTSTART:20260109T150000Z", "DTSTART;VALUE=DATE:99990101", "DTEND;VALUE=DATE:21260110", "DTEND;VALUE=DATE:20260108",
        "CREATED:20260109T123000Z", "CREATED:19700101T000000Z", "LAST-MODIFIED:20270101T000000Z", "UID:", "UID:r1@flat-1.rental-twin",
        "SUMMARY:Airbnb (Not available)", "SUMMARY:Reserved", "DESCRIPTION:Phone Number (Last 4 Digits): 1234", "no colon",
        "X-LONG:" + String(repeating: "x", count: 10_000), " folded continuation", "",
    ]
    static let icalValues = ["", "20260230", "20261301", "00000101", "99991231", "20260109T250000", "20260109T150000Z", "20260109",
                             "-1", "a\u{0}b", "\u{1B}[2J", String(repeating: "9", count: 400), "CANCELLED", "FREQ=DAILY;COUNT=2"]

    static func icalDictionary(_ texts: [String]) -> [String] {
        icalLines + texts.flatMap { $0.split(whereSeparator: \.isNewline).map(String.init) }
    }

    /// The mutations every line-oriented file kind shares, one to four rounds of them: a line dropped,
    /// repeated, swapped, replaced by or preceded by a dictionary line; choices 5, 6 and 7 of each round are
    /// the kind's own (`own` gets the lines, the chosen line and the choice). Line ends stay LF or CRLF as
    /// the text had them (a CRLF text comes back LF in one case of ten).
    static func mutateLines(_ random: inout FuzzRandom, _ text: String, _ dictionary: [String],
                            whenEmpty: (inout FuzzRandom) -> String,
                            own: (inout FuzzRandom, inout [String], _ line: Int, _ choice: Int, _ crlf: Bool) -> Void) -> String {
        let crlf = text.contains("\r\n")
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
        for _ in 0..<random.rounds() {
            guard !lines.isEmpty else { lines = [whenEmpty(&random)]; continue }
            let i = random.pick(lines.count)
            switch random.pick(8) {
            case 0: lines.remove(at: i)
            case 1: lines.insert(lines[i], at: i)
            case 2: lines.swapAt(i, random.pick(lines.count))
            case 3: lines[i] = random.element(dictionary) ?? lines[i]
            case 4: lines.insert(random.element(dictionary) ?? "", at: i)
            case let choice: own(&random, &lines, i, choice, crlf)
            }
        }
        return lines.joined(separator: crlf && random.chance(0.9) ? "\r\n" : "\n")
    }

    static func mutateICalendar(_ random: inout FuzzRandom, _ text: String, _ dictionary: [String]) -> String {
        mutateLines(&random, text, dictionary, whenEmpty: { _ in "BEGIN:VCALENDAR" }) { random, lines, i, choice, crlf in
            switch choice {
            case 5:  // a property's value replaced
                if let colon = lines[i].firstIndex(of: ":") {
                    lines[i] = String(lines[i][...colon]) + (random.element(icalValues) ?? "")
                }
            case 6:  // a whole event repeated
                if let begin = lines[...i].lastIndex(of: "BEGIN:VEVENT"), let end = lines[i...].firstIndex(of: "END:VEVENT") ?? lines[begin...].firstIndex(of: "END:VEVENT") {
                    let block = Array(lines[begin...end])
                    for _ in 0..<(1 + random.pick(3)) { lines.insert(contentsOf: block, at: end + 1) }
                }
            default:  // folded at a random place
                let chars = Array(lines[i])
                if chars.count > 2 {
                    let at = 1 + random.pick(chars.count - 1)
                    lines[i] = String(chars[..<at]) + (crlf ? "\r\n " : "\n ") + String(chars[at...])
                }
            }
        }
    }

    /// Field values hostile to an EPW reader: junk, extremes, every field's missing code.
    static let epwValues = ["", " ", "abc", "-", "99.9", "999", "9999", "999999", "1e308", "-1e308", "NaN", "inf", "-0", "0", "1.\u{0}5",
                            " 5", "-999", "1e-300", "2147483648", "0x10", "-70", "70", "110", "120000", "31000", "40", "360", "10", "24", "13",
                            "32", "0", "29", "-1"]

    static func epwDictionary(_ texts: [String]) -> [String] { epwValues }

    static func mutateEPW(_ random: inout FuzzRandom, _ text: String, _ values: [String]) -> String {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
        if lines.last == "" { lines.removeLast() }
        for _ in 0..<random.rounds() {
            guard lines.count > 9 else { lines.append(lines.last ?? "LOCATION"); continue }
            // Mostly a data line; a header line in one case in ten.
            let i = random.chance(0.1) ? random.pick(8) : 8 + random.pick(lines.count - 8)
            var fields = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            switch random.pick(9) {
            case 0, 1, 2:
                let f = random.pick(fields.count)
                fields[f] = random.chance(0.8) ? (random.element(values) ?? "") : fields[random.pick(fields.count)]
                lines[i] = fields.joined(separator: ",")
            case 3: lines.remove(at: i)
            case 4: lines.insert(lines[i], at: i)
            case 5: lines.swapAt(i, 8 + random.pick(lines.count - 8))
            case 6: lines[i] = fields.prefix(random.pick(fields.count)).joined(separator: ",")
            case 7: lines[i] += String(repeating: ",0", count: 1 + random.pick(1_000))
            default:
                let range = i..<min(lines.count, i + 1 + random.pick(48))
                // Reversed into an array of its own first: replacing a range with a lazy reversed view of the
                // same array's slice read freed strings in a release build (AddressSanitizer: heap-use-after-free).
                let reversed = Array(lines[range].reversed())
                lines.replaceSubrange(range, with: reversed)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
