import Testing
import Simulation
@testable import SmartHome

@Suite("openHAB parsing and formatting of states and commands")
struct StateAndCommandTests {
    let temperature = ItemType.numberItem(.temperature)

    @Test("Switch commands are case-sensitive", arguments: [("ON", "ON"), ("OFF", "OFF"), ("REFRESH", "REFRESH")])
    func switchCommands(text: String, parsed: String) {
        #expect(ItemType.switchItem.parseCommand(text)?.description == parsed)
    }

    @Test("Switch rejects", arguments: ["on", "On", "toggle", "1", "true", ""])
    func switchRejects(text: String) {
        #expect(ItemType.switchItem.parseCommand(text) == nil)
    }

    @Test("Number:Temperature commands", arguments: [
        ("21", "Decimal", "21"), ("21.5 °C", "Quantity", "21.5 °C"), ("21.5°C", "Quantity", "21.5 °C"),
        ("70 °F", "Quantity", "70 °F"), ("-3", "Decimal", "-3"), ("22.50", "Decimal", "22.50"), ("REFRESH", "Refresh", "REFRESH"),
    ])
    func temperatureCommands(text: String, type: String, printed: String) throws {
        let command = try #require(temperature.parseCommand(text))
        #expect(command.typeName == type)
        #expect(command.description == printed)
    }

    // "21 C" is a quantity in coulombs (UnitUtils reads C as COULOMB): a command the Item then drops; "21 Q" has no unit.
    @Test("Number:Temperature rejects", arguments: ["+22", "2.5E+3", "warm", "21 Q", "NaN", "", "0x10", "21.5 °C extra"])
    func temperatureRejects(text: String) {
        #expect(temperature.parseCommand(text) == nil)
    }

    @Test func contactTakesOnlyRefresh() {
        #expect(ItemType.contactItem.parseCommand("OPEN") == nil)
        #expect(ItemType.contactItem.parseCommand("REFRESH") == .refresh)
        #expect(ItemType.contactItem.parseState("OPEN") == .openClosed(.open))
    }

    @Test("a plain number state on a Number:Temperature Item gets the unit as a double", arguments: [
        ("21", "21 °C"), ("21.5", "21.5 °C"), ("21.5 °C", "21.5 °C"), ("21 °C", "21 °C"), ("294.15 K", "21 °C"),
        ("NULL", "NULL"), ("UNDEF", "UNDEF"),
    ])
    func temperatureStates(text: String, shown: String) throws {
        #expect(try #require(temperature.stateHeld(text)).description == shown)
    }

    @Test func fahrenheitConvertsToCelsius() throws {
        let state = try #require(temperature.stateHeld("212 °F"))
        #expect(state.numericValue == 100)
    }

    @Test func statesOfOtherTypes() {
        #expect(ItemType.switchItem.parseState("ON") == .onOff(.on))
        #expect(ItemType.switchItem.parseState("on") == nil)
        #expect(ItemType.numberItem(nil).stateHeld("5 W")?.description == "5")
        #expect(ItemType.numberItem(.power).parseState("2 kW")?.description == "2 kW")
        #expect(ItemType.numberItem(.power).stateHeld("2 kW")?.description == "2000 W")
        #expect(ItemType.dimmerItem.stateHeld("ON")?.description == "100")
        #expect(ItemType.stringItem.parseState("hello") == .string("hello"))
        #expect(ItemType.numberItem(.energy).accepting(.onOff(.on)) == nil)
    }

    @Test("decimal text as BigDecimal prints it", arguments: [
        ("21.50", "21.50"), (".5", "0.5"), ("-.5", "-0.5"), ("5.", "5"), ("1e3", "1000"),
    ])
    func decimalText(input: String, printed: String) throws {
        #expect(try #require(DecimalNumber(parsing: input)).text == printed)
    }

    @Test("a plain integer's text (the short way) is read as any decimal text is", arguments: [
        "0", "-0", "7", "-20", "007", "123456789012345", "-999999999999999", "1234567890123456", "9007199254740993",
    ])
    func plainIntegerText(input: String) throws {
        let number = try #require(DecimalNumber(parsing: input))
        #expect(number.value.bitPattern == Double(input)!.bitPattern)  // -0 stays -0.0, as Double("-0") is
        #expect(number.text == input)
    }

    @Test func textsThatAreNoInteger() {
        for text in ["", "-", "--1", "1-", "+1", "1 ", " 1", "0x10"] { #expect(DecimalNumber(parsing: text) == nil, "\(text)") }
        #expect(DecimalNumber(parsing: "1,000")?.value == 1000)
    }

    @Test func decimalsFromDoubles() {
        #expect(DecimalNumber(21).text == "21.0")
        #expect(DecimalNumber(0.1 + 0.2).text == "0.30000000000000004")
        #expect(DecimalNumber(1e-5).text == "0.00001")
        #expect(DecimalNumber(integer: 0).text == "0")
        #expect(DecimalNumber(21.349, fractionDigits: 1).text == "21.3")
        // The CSV reports' rule (DecimalText): the shortest text's next digit is a 4, though value·10 is 258.5 in binary.
        #expect(DecimalNumber(25.849999999999998, fractionDigits: 1).text == "25.8")
        #expect(Quantity(DecimalNumber(25.849999999999998, fractionDigits: 1), .celsius).description == "25.8 °C")
        #expect(DecimalNumber(25.849999999999998, fractionDigits: 1).value == 25.8)
        #expect(DecimalNumber(-0.04, fractionDigits: 1).text == "0.0")
        #expect(DecimalNumber(2.5, fractionDigits: 0).text == "3")
        #expect(DecimalNumber(21) == DecimalNumber(integer: 21))
    }

    @Test("a fixed-point number's value is exactly what its text parses to", arguments: 0...6)
    func fixedPointValueIsTheParsedText(fractionDigits: Int) {
        var random = SplitMix64(seed: UInt64(fractionDigits))
        var values = [0.0, -0.0, 0.05, -0.05, 2.675, 0.0004999, 21.349, 1e15, 9e17, -1e-20, 123_456.789_5, 1e20, -3.5e19]
        for _ in 0..<2_000 {
            let magnitude = [1.0, 30, 2_000, 1e6, 1e12][Int(random.next() % 5)]
            values.append((random.nextUnit() * 2 - 1) * magnitude)
        }
        for value in values {
            let number = DecimalNumber(value, fractionDigits: fractionDigits)
            #expect(number.value.bitPattern == Double(number.text)?.bitPattern, "\(value) → \(number.text)")
        }
    }

    @Test("equal fixed-point keys make equal numbers; different texts have different keys", arguments: [0, 1, 3, 15, 20, -2])
    func fixedPointKeys(fractionDigits: Int) {
        var random = SplitMix64(seed: 0xF1E0 &+ UInt64(bitPattern: Int64(fractionDigits)))
        var values = [0.0, -0.0, 0.05, -0.05, -0.0004, 0.0005, 2.675, 21.349, 21.35, 9e17, 1e20, -3.5e19, .nan, .infinity]
        for _ in 0..<3_000 {
            let magnitude = [1.0, 30, 2_000, 1e6, 1e12, 1e19][Int(random.next() % 6)]
            let value = (random.nextUnit() * 2 - 1) * magnitude
            values.append(value)
            values.append(value + 1e-4 * random.nextUnit())  // a near neighbour, often the same text
        }
        let numbers = values.map { (FixedPointKey($0, fractionDigits: fractionDigits), DecimalNumber($0, fractionDigits: fractionDigits)) }
        var byKey: [FixedPointKey: DecimalNumber] = [:]
        var sameKeyDifferentInput = 0
        for (index, (key, number)) in numbers.enumerated() {
            let fromKey = DecimalNumber(key)
            #expect(fromKey.text == number.text && fromKey.value.bitPattern == number.value.bitPattern, "\(values[index])")
            if let earlier = byKey[key] {
                #expect(earlier.text == number.text && earlier.value.bitPattern == number.value.bitPattern, "\(values[index])")
                sameKeyDifferentInput += 1
            }
            byKey[key] = number
        }
        let texts = Set(numbers.map(\.1.text))
        #expect(Set(byKey.keys).count >= texts.count)
        #expect(sameKeyDifferentInput > 0)
    }

    @Test func itemTypeNames() throws {
        for name in ItemType.allNames { #expect(try ItemType.parse(name).rawValue == name) }
        do {
            _ = try ItemType.parse("Number:Temprature")
            Issue.record("typo accepted")
        } catch {
            #expect(error.code == .unknownItemType)
            #expect(error.message.contains("Number:Temperature"))
        }
    }
}

extension ItemType {
    /// The state an Item of this type (default unit) holds after `PUT /rest/items/{name}/state` with `text`:
    /// parsed as posted, then taken or dropped by the Item.
    func stateHeld(_ text: String) -> State? { parseState(text).flatMap { accepting($0) } }
}

/// `State`'s written-out `==` is the synthesized one: equal case and equal payload (numbers by value), and
/// equal states hash alike.
@Suite struct StateEqualityTests {
    static func states() -> [State] {
        let n = DecimalNumber(21)
        return [.null, .undef, .onOff(.on), .onOff(.off), .openClosed(.open), .openClosed(.closed),
                .decimal(n), .decimal(DecimalNumber(22)), .quantity(Quantity(n, .celsius)), .quantity(Quantity(n, .watt)),
                .quantity(Quantity(DecimalNumber(22), .celsius)), .percent(n), .string("21"), .string("ON"),
                .dateTime(DateTimeValue(SimInstant(unixMilliseconds: 0), in: .utc)),
                .dateTime(DateTimeValue(SimInstant(unixMilliseconds: 1_000), in: .utc)),
                .hsb(HSB(hue: n, saturation: n, brightness: n)), .hsb(HSB(hue: n, saturation: n, brightness: DecimalNumber(22))),
                .point(GeoPoint(parsing: "47.5,19.0")!), .point(GeoPoint(parsing: "47.5,19.1")!),
                .playPause(.play), .playPause(.pause), .rewindFastforward(.rewind), .rewindFastforward(.fastforward),
                .stringList(["a", "b"]), .stringList(["a"]), .raw("data:a"), .raw("data:b")]
    }

    @Test func aStateEqualsOnlyItselfAmongDifferentStates() {
        let states = Self.states()
        for (i, a) in states.enumerated() {
            for (j, b) in states.enumerated() {
                #expect((a == b) == (i == j), "\(a) vs \(b)")
            }
        }
    }

    @Test func equalPayloadsMakeEqualStatesThatHashAlike() {
        let pairs: [(State, State)] = [
            (.decimal(DecimalNumber(parsing: "21")!), .decimal(DecimalNumber(21.0))),  // by value, as BigDecimal.compareTo
            (.quantity(Quantity(DecimalNumber(parsing: "21.50")!, .celsius)), .quantity(Quantity(DecimalNumber(21.5), .celsius))),
            (.percent(DecimalNumber(integer: 100)), .percent(DecimalNumber(100.0))),
            (.stringList(["x", "y"]), .stringList(["x", "y"])),
        ]
        for (a, b) in pairs {
            #expect(a == b && a.hashValue == b.hashValue, "\(a) vs \(b)")
            #expect(Set([a, b]).count == 1)
        }
        #expect(State.null.isUndefined && State.undef.isUndefined && !State.string("NULL").isUndefined)
    }

    @Test func aNumberItemTakesAQuantityInItsUnitAsItIsAndConvertsOthers() {
        let celsius = State.quantity(Quantity(DecimalNumber(parsing: "21.50")!, .celsius))
        // Its own unit: the very state, text and all.
        #expect(ItemType.numberItem(.temperature).accepting(celsius)?.description == "21.5 °C")
        #expect(ItemType.numberItem(.temperature).accepting(celsius, unit: .celsius) == celsius)
        let fahrenheit = QuantityUnit(symbol: "°F")!
        #expect(ItemType.numberItem(.temperature).accepting(celsius, unit: fahrenheit)?.description == "70.7 °F")
        #expect(ItemType.numberItem(.power).accepting(celsius) == nil)  // another dimension: dropped
        #expect(ItemType.numberItem(nil).accepting(celsius) == .decimal(DecimalNumber(21.5)))
    }
}
