import Foundation
import Simulation
import Testing
@testable import SmartHome

@Suite struct ItemsFileParserTests {
    private func parse(_ text: String) -> ItemsFileParser.Result { ItemsFileParser.parse(text, file: "home.items") }

    @Test func everyPartOfAnItem() throws {
        let result = parse("""
            Number:Temperature Bath_Temp "Bathroom [%.1f °C]" <temperature> (gBath, gTemps) ["Measurement", Temperature] { channel="twin:thermostat:flat-1:heating:temperature" [profile="system:default"], unit="°C", stateDescription=""[min=5, max=30, step=0.5, readOnly=true] }
            """)
        #expect(result.issues.isEmpty, "\(result.issues)")
        let item = try #require(result.items.first)
        #expect(item.name == "Bath_Temp")
        #expect(item.type == .numberItem(.temperature))
        #expect(item.label == "Bathroom")
        #expect(item.statePattern == "%.1f °C")
        #expect(item.icon == "temperature")
        #expect(item.groups == ["gBath", "gTemps"])
        #expect(item.tags == ["Measurement", "Temperature"])
        #expect(item.metadata["unit"]?.value == "°C")
        #expect(item.metadata["stateDescription"]?.config == ["min": "5", "max": "30", "step": "0.5", "readOnly": "true"])
        #expect(item.channels.map(\.uid) == ["twin:thermostat:flat-1:heating:temperature"])
        #expect(item.channels.first?.configuration == ["profile": "system:default"])
    }

    @Test func everyItemTypeParses() {
        let types = ["Switch", "Contact", "Number", "Number:Volume", "String", "Dimmer", "Rollershutter", "Color", "DateTime",
                     "Location", "Player", "Call", "Image", "Group"]
        let text = types.enumerated().map { "\($0.element) Item\($0.offset)" }.joined(separator: "\n")
        let result = parse(text)
        #expect(result.issues.isEmpty, "\(result.issues)")
        #expect(result.items.map(\.type.rawValue) == types)
    }

    @Test func everyDimensionOpenHABKnowsParsesWithItsDefaultUnit() {
        for dimension in Dimension.allCases {
            let result = parse("Number:\(dimension.rawValue) X")
            #expect(result.issues.isEmpty, "\(dimension): \(result.issues)")
            #expect(result.items.first?.type == .numberItem(dimension))
            // The default unit is a unit of that dimension, known by its own symbol.
            #expect(QuantityUnit(symbol: dimension.defaultUnit.symbol)?.dimension == dimension, "\(dimension)")
        }
    }

    @Test func groupsWithBaseTypesAndFunctions() throws {
        let result = parse("""
            Group gPlain
            Group:Switch gEq
            Group:Number:AVG gAvg
            Group:Number:Temperature:MAX gMax "Warmest [%.1f °C]"
            Group:Switch:OR(ON, OFF) gOr
            Group:Contact:AND(OPEN,CLOSED) gAnd
            Group:Switch:NOR(ON,OFF) gNor
            Group:Switch:NAND(ON,OFF) gNand
            Group:Number:COUNT("ON|OPEN") gCount
            Group:DateTime:EARLIEST gFirst
            Group:DateTime:LATEST gLast
            Group:Number:Power:SUM gSum
            Group:Number:MEDIAN gMedian
            Group:Switch:XOR(ON,OFF) gXor
            """)
        #expect(result.issues.isEmpty, "\(result.issues)")
        let byName = Dictionary(uniqueKeysWithValues: result.items.map { ($0.name, $0) })
        #expect(byName["gPlain"]?.aggregation == nil)
        #expect(byName["gEq"]?.aggregation == GroupAggregation(baseType: .switchItem, function: .equality))
        #expect(byName["gAvg"]?.aggregation == GroupAggregation(baseType: .numberItem(nil), function: .avg))
        #expect(byName["gMax"]?.aggregation == GroupAggregation(baseType: .numberItem(.temperature), function: .max))
        #expect(byName["gOr"]?.aggregation?.function == .or(active: .onOff(.on), passive: .onOff(.off)))
        #expect(byName["gAnd"]?.aggregation?.function == .and(active: .openClosed(.open), passive: .openClosed(.closed)))
        #expect(byName["gNor"]?.aggregation?.function == .nor(active: .onOff(.on), passive: .onOff(.off)))
        #expect(byName["gNand"]?.aggregation?.function == .nand(active: .onOff(.on), passive: .onOff(.off)))
        #expect(byName["gCount"]?.aggregation?.function == .count(pattern: "ON|OPEN"))
        #expect(byName["gFirst"]?.aggregation?.function == .earliest)
        #expect(byName["gLast"]?.aggregation?.function == .latest)
        #expect(byName["gSum"]?.aggregation == GroupAggregation(baseType: .numberItem(.power), function: .sum))
        #expect(byName["gMedian"]?.aggregation?.function == .median)
        #expect(byName["gXor"]?.aggregation?.function == .xor(active: .onOff(.on), passive: .onOff(.off)))
        // openHAB falls back to EQUALITY (and logs an error) where the twin refuses.
        let missing = parse("Group:Switch:OR gOr\nGroup:Number:COUNT gCount\nGroup:Number:AVG(1) gAvg")
        #expect(missing.issues.map(\.code) == [.unknownFunction, .unknownFunction, .unknownFunction])
    }

    @Test func labelsPatternsCommentsAndLineEnds() {
        let text = "\u{FEFF}// a comment\r\n/* a block\r\n comment */\r\nSwitch\tA\t'Single [MAP(x.map):%s]'\r\n"
            + "Dimmer B \"Level [%d %%]\" // trailing\rString C \"Quote \\\" and \\u00e9\"\n"
        let result = parse(text)
        #expect(result.issues.isEmpty, "\(result.issues)")
        #expect(result.items.map(\.name) == ["A", "B", "C"])
        #expect(result.items[0].statePattern == "MAP(x.map):%s")
        #expect(result.items[0].label == "Single")
        #expect(result.items[1].statePattern == "%d %%")
        #expect(result.items[2].label == "Quote \" and é")
        #expect(result.items[2].line == 6)  // CRLF counts once, a lone CR ends a line too
    }

    @Test func crlfFileDeclaresTheSameItemsAsItsLFTwin() {
        let lf = "Group:Number:AVG gT \"T\"\nNumber:Temperature A (gT) { unit=\"°F\" }\nSwitch B\n"
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(parse(lf).items == parse(crlf).items)
        #expect(parse(lf).items.count == 3)
    }

    @Test func everyProblemIsReportedWithItsLocationAndCode() {
        let result = parse("""
            Swtich Lamp
            Number:Volumen Tank
            Number:Temperature Bad_Unit { unit="°Q" }
            Number:Temperature Wrong_Dimension { unit="kWh" }
            Group:Switch:SOMETIMES(ON,OFF) gOdd
            Switch Fine
            Switch Fine
            Switch Broken "label" extra
            """)
        let codes = result.issues.map(\.code)
        #expect(codes == [.unknownType, .unknownDimension, .unknownFunction, .syntax, .unknownUnit, .unknownUnit, .duplicate],
                "\(result.issues.map(\.located))")
        let lines = result.issues.map(\.line)
        #expect(lines == [1, 2, 5, 8, 3, 4, 7])
        #expect(result.issues[0].hint == "did you mean \"Switch\"?")
        #expect(result.issues[0].column == 1)
        #expect(result.issues[1].hint == "did you mean \"Volume\"?")
        #expect(result.issues[1].column == 8)
        #expect(result.issues[4].message.contains("\"°Q\""))
        #expect(result.issues[5].message.contains("Energy"))
        #expect(result.issues[2].hint?.contains("AND") == true)
        // The good Item between the broken ones is kept.
        #expect(result.items.map(\.name).contains("Fine"))
    }

    @Test func syntaxErrorsSayWhatWasExpected() throws {
        let result = parse("Switch Lamp (gA, ) \nString S \"never closed\nContact C { channel }")
        #expect(result.issues.count == 3, "\(result.issues.map(\.located))")
        #expect(result.issues.allSatisfy { $0.code == .syntax })
        #expect(result.issues[0].message.contains("a Group name"))
        #expect(result.issues[1].message.contains("never closed"))
        #expect(result.issues[2].line == 3)
    }

    @Test func crossChecksFindDuplicatesAndCyclesAndLetUnknownGroupsBe() {
        let a = parse("Group gA (gB)\nGroup gB (gC)\nGroup gC (gA)\nSwitch S (gMissing, gA)\nSwitch T (S)")
        let b = parse("Switch S")
        let issues = ItemsFileChecks.crossCheck([("a.items", a.items), ("b.items", b.items)], otherItems: [:])
        #expect(issues.contains { $0.code == .duplicate && $0.file == "b.items" })
        // A Group no file declares, or an Item that is not a Group, is no error: openHAB ignores the membership.
        #expect(!issues.contains { $0.message.contains("gMissing") || $0.message.contains("not a Group") })
        #expect(issues.filter { $0.code == .groupCycle }.count == 1)
    }

    @Test func expireMetadataIsChecked() {
        let result = parse("Switch A { expire=\"5m,command=OFF\" }\nSwitch B { expire=\"5 parsecs\" }\nContact C { expire=\"1h,command=OPEN\" }")
        #expect(result.issues.map(\.code) == [.invalidExpire, .invalidExpire])
        #expect(result.issues.map(\.line) == [2, 3])
    }

    @Test func aMetadataNamespaceGivenTwiceKeepsTheFirstWithANotice() {
        let result = parse(#"Number:Power P "Power" { unit="W", unit="kW" }"#)
        #expect(result.issues.isEmpty, "\(result.issues)")
        #expect(result.notices.map(\.code) == [.duplicate])
        #expect(result.items.first?.metadata["unit"]?.value == "W")
    }

    @Test func unitsAreCheckedInPatternsToo() {
        let result = parse("""
            Number:Pressure P "Pressure [%.0f hPa]"
            Number:Length L "Rain [%.1f mm]"
            Number:Speed W "Wind [%.1f km/h]"
            Number:Temperature T "T [%.1f %unit%]"
            Number:Temperature Bad "Bad [%.1f kWh]"
            """)
        // openHAB 4+ uses a pattern's unit only to display the state: a wrong one is a notice, not a refusal.
        #expect(result.issues.isEmpty, "\(result.issues)")
        #expect(result.notices.map(\.code) == [.unknownUnit])
        #expect(result.notices.first?.line == 5)
    }

    // MARK: Hostile input

    @Test func nulAndInvalidUTF8AreLocatedErrors() {
        let nul = ItemsFileParser.parse(bytes: Array("Switch A\nSwitch B\u{0}\n".utf8), file: "x.items")
        #expect(nul.issues.first?.code == .syntax)
        #expect(nul.issues.first?.line == 2)
        #expect(nul.issues.first?.message.contains("NUL") == true)
        let bad = ItemsFileParser.parse(bytes: Array("Switch A\nSwitch B \"".utf8) + [0xFF, 0xFE, 0x22], file: "x.items")
        #expect(bad.issues.map(\.code) == [.encoding])
        #expect(bad.issues.first?.line == 2)
        #expect(bad.issues.first?.column == 11)
    }

    @Test func aHugeNameIsRefusedAndNotEchoedWhole() {
        let name = String(repeating: "n", count: 5 << 20)
        let result = parse("Swtch \(name)\nSwitch \(name)")
        #expect(result.issues.map(\.code) == [.unknownType, .tooLarge])
        #expect(result.issues.allSatisfy { $0.message.utf8.count < 400 })
    }

    @Test func aHugeFileOfItemsAndADeepGroupChainParse() {
        var text = "Group g0\n"
        for i in 1..<20_000 { text += "Group g\(i) (g\(i - 1))\n" }
        for i in 0..<20_000 { text += "Switch S\(i) \"Switch \(i)\" (g\(i % 20_000)) { channel=\"x:y:z:c\" }\n" }
        let result = parse(text)
        #expect(result.issues.isEmpty)
        #expect(result.items.count == 40_000)
        let issues = ItemsFileChecks.crossCheck([("a.items", result.items)], otherItems: [:])
        #expect(issues.isEmpty)
    }

    @Test func aLongCycleIsFoundWithoutRecursion() {
        var text = ""
        for i in 0..<50_000 { text += "Group g\(i) (g\((i + 1) % 50_000))\n" }
        let result = parse(text)
        let issues = ItemsFileChecks.crossCheck([("a.items", result.items)], otherItems: [:])
        #expect(issues.map(\.code) == [.groupCycle])
        #expect(issues.first!.message.utf8.count < 800)
    }

    @Test func problemsAreCappedAndGarbageNeverTraps() {
        let garbage = String(repeating: "Switch ( ] } { = \" \n", count: 5_000)
        let result = parse(garbage)
        #expect(result.issues.count == ItemsFileParser.maxIssues)
        // Every prefix of a real file: an answer, never a trap.
        let file = """
            Group:Number:Temperature:AVG gT "T [%.1f °C]" <temperature> (gHouse) ["A"] { unit="°C" }
            Switch S "S" { channel="twin:plug:flat-1:plug:switch" [profile="default"], autoupdate="false" }
            """
        for cut in 0...file.utf8.count {
            _ = ItemsFileParser.parse(bytes: Array(file.utf8.prefix(cut)), file: "p.items")
        }
    }

    /// Seeded byte mutations of the example file (deletions, insertions of grammar characters and bytes,
    /// flips, duplicated slices): every one parses to Items and located problems, never a trap.
    @Test func mutationsOfTheExampleFileAlwaysEndInItemsOrLocatedProblems() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let original = try [UInt8](Data(contentsOf: root.appendingPathComponent("Scenarios/openhab/home.items")))
        #expect(ItemsFileParser.parse(bytes: original, file: "home.items").issues.isEmpty)
        var random = SplitMix64(seed: 29)
        let alphabet = Array("\"'<>()[]{},=:/*\\\n\r\t \u{0}%°Group:Number:AVG".utf8) + [0xFF, 0xC3, 0xE2, 0x80]
        var withProblems = 0
        for _ in 0..<600 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 40)))
                case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                case 2: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
                default:
                    let end = min(bytes.count, at + Int(random.next() % 200))
                    bytes.insert(contentsOf: bytes[at..<end], at: Int(random.next() % UInt64(bytes.count)))
                }
                if bytes.isEmpty { bytes = [0x0A] }
            }
            let result = ItemsFileParser.parse(bytes: bytes, file: "m.items")
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count + bytes.filter { $0 == 0x0D }.count
            for issue in result.issues {
                #expect(issue.line >= 1 && issue.line <= lines + 1 && issue.column >= 1, "\(issue.located)")
            }
            if !result.issues.isEmpty { withProblems += 1 }
        }
        // The mutations do reach the error paths (most mutated files have a problem).
        #expect(withProblems > 200)
    }

    /// model.item's `ModelProperty: key=ID '=' value+=ValueType (',' value+=ValueType)*` with `ValueType: STRING |
    /// NUMBER | BOOLEAN` and `NUMBER: ('-')? ID ('.' ID)?`: unquoted numbers (negative, decimal) and booleans.
    @Test func bindingConfigurationTakesUnquotedNumbersAndBooleans() throws {
        let result = parse("""
            Number:Temperature T1 { channel="x:y:z:temp" [offset=10, invert=true] }
            Number:Temperature T2 { channel="x:y:z:temp" [offset=-1.5, factor=0.25, enabled=false], unit="°C" }
            Switch S3 { channel="x:y:z:sw" [], homekit="Lightbulb"[dimmable=false, delay=-10] }
            """)
        #expect(result.issues.isEmpty, "\(result.issues.map(\.located))")
        let byName = Dictionary(uniqueKeysWithValues: result.items.map { ($0.name, $0) })
        #expect(byName["T1"]?.channels.first?.configuration == ["offset": "10", "invert": "true"])
        #expect(byName["T2"]?.channels.first?.configuration == ["offset": "-1.5", "factor": "0.25", "enabled": "false"])
        #expect(byName["T2"]?.metadata["unit"]?.value == "°C")
        #expect(byName["S3"]?.channels.first?.configuration == [:])
        #expect(byName["S3"]?.metadata["homekit"]?.config == ["dimmable": "false", "delay": "-10"])
        // The namespace's own value stays a STRING in the grammar: openHAB refuses `expire=5`.
        let unquoted = parse("Switch S { expire=5 }")
        #expect(unquoted.issues.count == 1)
    }

    /// Xtext's ID may start with a digit and hold dashes: a Group list `(2nd_Floor)`, an icon `<light-bulb>` lex as
    /// one ID each; an Item *name* must still be openhab-core's ItemUtil.isValidItemName ([a-zA-Z_][a-zA-Z0-9_]*).
    @Test func idsMayStartWithADigitAndHoldDashesButItemNamesFollowItemUtil() {
        let result = parse("""
            Group Floor_2
            Switch Hall_Light "Light" <light-bulb> (Floor_2, 2nd_Floor)
            """)
        #expect(result.issues.isEmpty, "\(result.issues.map(\.located))")
        #expect(result.items.map(\.name) == ["Floor_2", "Hall_Light"])
        #expect(result.items.last?.icon == "light-bulb")
        #expect(result.items.last?.groups == ["Floor_2", "2nd_Floor"])
        for bad in ["Switch 1OG_Light", "Switch Bad-Name"] {
            let refused = parse(bad)
            #expect(refused.items.isEmpty && refused.issues.map(\.code) == [.syntax], "\(bad): \(refused.issues.map(\.located))")
            #expect(refused.issues.first?.column == 8)
        }
        // The next Item after a refused name still loads.
        #expect(parse("Switch 1OG_Light\nSwitch Ok").items.map(\.name) == ["Ok"])
    }

    /// openhab-core's ItemRegistryImpl (after PR 4088) lets a Group be a member of its parent and of its parent's
    /// ancestors (a diamond); only a loop of memberships is refused.
    @Test func aDiamondOfGroupsIsNoCycleButALoopIs() {
        let diamond = parse("""
            Group G1
            Group G2 (G1)
            Group G3 (G1, G2)
            Switch S (G3, G2, G1)
            """)
        #expect(diamond.issues.isEmpty)
        #expect(ItemsFileChecks.crossCheck([("a.items", diamond.items)], otherItems: [:]).isEmpty)
        let loop = parse("""
            Group R1 (R3)
            Group R2 (R1)
            Group R3 (R2)
            """)
        #expect(ItemsFileChecks.crossCheck([("a.items", loop.items)], otherItems: [:]).map(\.code) == [.groupCycle])
        let itself = parse("Group G (G)")
        #expect(ItemsFileChecks.crossCheck([("a.items", itself.items)], otherItems: [:]).map(\.code) == [.groupCycle])
    }
}
