import SmartHome
import Testing
@testable import Rules

/// A rule's update or command with a number hands the Item a state or command made from the number
/// (`DSLLibrary.plainNumber`, `ItemType.numberState`, `ItemType.numberCommand`) instead of its text parsed again; it
/// must be the very state or command the text path makes (openHAB's `postUpdate(Item, Number)` and
/// `sendCommand(Item, Number)` pass `number.toString()`, parsed by the Item's data or command types).
@Suite("Rules DSL number updates and commands")
struct DSLNumberUpdateTests {
    static let types: [ItemType] = [.numberItem(nil), .numberItem(.temperature), .numberItem(.dimensionless), .groupItem,
                                    .dimmerItem, .rollershutterItem, .stringItem, .switchItem, .colorItem]

    /// The ints, doubles and BigDecimals a body computes, at the edges of Java's plain notation and beyond it.
    static func values() -> [DSLValue] {
        var values: [DSLValue] = [0, 1, -1, 42, 100, 101, 999_999_999_999_999, 1_000_000_000_000_000, Int64.max, Int64.min].map { .int($0) }
        let doubles: [Double] = [0, -0.0, 1, -1, 21.5, 0.1 + 0.2, 1e-3, 0.000999, 1e7, 9_999_999.999, 1e-5, 1.5e300, 100, 100.5,
                                 .nan, .infinity, -.infinity, .ulpOfOne, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        values += doubles.map { .number($0) }
        // A fixed stream of doubles over many magnitudes (a linear congruential generator: the same every run).
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let mantissa = Double(seed >> 11) / Double(1 << 53)
            let exponent = Int((seed >> 3) % 24) - 8
            let sign: Double = seed & 1 == 0 ? 1 : -1
            values.append(.number(sign * mantissa * pow10(exponent)))
        }
        for text in ["0", "21.50", "-0.000001", "0.0000001", "1e3", "123.456", "99999999999999999999.5", "-7.000"] {
            values.append(.decimal(JavaDecimal(parsing: text)!))
        }
        return values
    }

    static func pow10(_ e: Int) -> Double {
        var p = 1.0
        for _ in 0..<abs(e) { p *= 10 }
        return e < 0 ? 1 / p : p
    }

    @Test func theStateIsTheParsedText() {
        let direct = Self.eachDirectIsTheParsedText(made: { $0.numberState($1) }, parsed: { $0.parseState($1) }) { made in
            if case .decimal(let d) = made { d } else { nil }
        }
        #expect(direct > 30_000)  // taken for the four Number and Group types: the ints, and the doubles in Java's plain range (10 of 24 magnitudes)
    }

    @Test func theCommandIsTheParsedText() {
        let direct = Self.eachDirectIsTheParsedText(made: { $0.numberCommand($1) }, parsed: { $0.parseCommand($1) }) { made in
            if case .decimal(let d) = made { d } else { nil }
        }
        #expect(direct > 30_000)  // as for updates: the four Number and Group types
    }

    /// For every value and Item type the direct way takes (`made` from the number), the value made equals what
    /// `parsed` makes of the number's text (Java's `toString`), to the bit of its decimal. - Returns: how many it took.
    static func eachDirectIsTheParsedText<T: Equatable & CustomStringConvertible>(made: (ItemType, DecimalNumber) -> T?,
                                                                                  parsed: (ItemType, String) -> T?,
                                                                                  decimal: (T) -> DecimalNumber?) -> Int {
        var direct = 0
        for value in values() {
            let text = value.text  // what commandText gives a number (Java's toString)
            for type in types {
                guard let number = DSLLibrary.plainNumber(value), let made = made(type, number) else { continue }
                direct += 1
                let parsed = parsed(type, text)
                #expect(parsed == made, "\(text) to \(type)")
                #expect(parsed?.description == made.description, "\(text) to \(type)")
                #expect(number.text == text, "\(text)")
                if let a = parsed.flatMap(decimal), let b = decimal(made) {
                    #expect(a.value.bitPattern == b.value.bitPattern, "\(text) to \(type)")
                } else {
                    Issue.record("\(text) to \(type): \(String(describing: parsed)) is not a decimal")
                }
            }
        }
        return direct
    }

    /// Where the text path could differ, it stays: an exponent, a non-finite double, a percent or text Item.
    @Test func theTextPathStays() {
        #expect(DSLLibrary.plainNumber(.number(1e7)) == nil)
        #expect(DSLLibrary.plainNumber(.number(.nan)) == nil)
        #expect(DSLLibrary.plainNumber(.decimal(JavaDecimal(parsing: "1e3")!)) == nil)
        #expect(DSLLibrary.plainNumber(.string("1")) == nil)
        let one = DecimalNumber(integer: 1)
        for type: ItemType in [.dimmerItem, .rollershutterItem, .stringItem, .colorItem, .switchItem] {
            #expect(type.numberState(one) == nil)
            #expect(type.numberCommand(one) == nil)
        }
    }
}
