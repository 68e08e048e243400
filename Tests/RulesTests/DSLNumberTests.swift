import SmartHome
import Testing
@testable import Rules

/// The Rules DSL's numbers as openHAB and Java compute them. Each expected value is what the Java source gives:
/// `java.math.BigDecimal` (`toString`, `toPlainString`, `divide`), `Double.toString` (JDK 19+), openhab-core's
/// `NumberExtensions` (model.script lib) and Xbase's `IntegerExtensions`/`DoubleExtensions`/`BigDecimalExtensions`.
@Suite("Rules DSL numbers")
struct DSLNumberTests {
    static let at = DSLLocation(file: "n.rules", line: 1, column: 1)

    static func state(_ text: String) -> DSLValue { .state(.decimal(DecimalNumber(parsing: text)!)) }
    static func big(_ text: String) -> DSLValue { .decimal(JavaDecimal(parsing: text)!) }
    static func op(_ o: String, _ a: DSLValue, _ b: DSLValue) throws -> DSLValue { try DSLOperators.numberArithmetic(o, a, b, at) }
    static func text(_ o: String, _ a: DSLValue, _ b: DSLValue) throws -> String { try Self.op(o, a, b).text }

    /// `BigDecimal.toString` switches to an exponent when the scale is negative or the adjusted exponent is
    /// below -6; `toPlainString` (what `DecimalType.toString` prints) never does.
    @Test(arguments: [("21.50", "21.50", "21.50"), ("1e3", "1E+3", "1000"), ("0.0000001", "1E-7", "0.0000001"),
                      ("-0.000001", "-0.000001", "-0.000001"), ("123.456e-10", "1.23456E-8", "0.0000000123456"),
                      ("+.5", "0.5", "0.5"), ("0E+3", "0E+3", "0"), ("-12", "-12", "-12")])
    func bigDecimalText(input: String, string: String, plain: String) throws {
        let d = try #require(JavaDecimal(parsing: input))
        #expect(d.javaString == string)
        #expect(d.plainString == plain)
    }

    @Test func textsThatAreNotNumbersAreRefused() {
        for bad in ["", "-", ".", "1.2.3", "1e", "e5", "12a", "1e1234567890", "1e99999"] { #expect(JavaDecimal(parsing: bad) == nil, "\(bad)") }
    }

    /// `Double.toString` of Java 19+: the shortest digits, plain from 10^-3 up to 10^7, else `d.dddE±n`.
    @Test(arguments: [(0.1 + 0.2, "0.30000000000000004"), (21.0, "21.0"), (1e-5, "1.0E-5"), (1e7, "1.0E7"),
                      (12345678.9, "1.23456789E7"), (0.001, "0.001"), (0.0001, "1.0E-4"), (-0.0, "-0.0"), (100.0, "100.0"),
                      (-2.5, "-2.5"), (1.5e300, "1.5E300")])
    func javaDoubleText(value: Double, expected: String) {
        #expect(JavaDecimal.javaDoubleText(value) == expected)
        #expect(DSLValue.number(value).text == expected)
    }

    /// Two double literals add as doubles (`DoubleExtensions.operator_plus(double, double)`); a `DecimalType`
    /// with a double adds as BigDecimals (`NumberExtensions.operator_plus(Number, Number)`, the double through
    /// `Double.toString`), so `(X.state as Number) + 0.1` is exact.
    @Test func additionFollowsTheOverloadOpenHABPicks() throws {
        #expect(try Self.text("+", .number(0.1), .number(0.2)) == "0.30000000000000004")
        #expect(try Self.text("+", Self.state("0.1"), .number(0.2)) == "0.3")
        #expect(try Self.text("+", Self.state("21.5"), .number(0.1)) == "21.6")
        #expect(try Self.text("+", .int(1), Self.state("21.50")) == "22.50")    // BigDecimal.valueOf(1).add(21.50)
        #expect(try Self.text("*", Self.state("21"), .number(1.0)) == "21.0")   // 21 × new BigDecimal("1.0")
        #expect(try Self.text("-", Self.state("1000.3"), Self.state("1000.1")) == "0.2")
        // A double on the left of a Number: DoubleExtensions.operator_plus(Double, Number) is `a + b.doubleValue()`.
        #expect(try Self.text("+", .number(0.1), Self.state("0.2")) == "0.30000000000000004")
        #expect(try Self.text("+", .number(1.5), Self.state("2")) == "3.5")
        if case .decimal = try Self.op("+", Self.state("1"), .int(2)) {} else { Issue.record("a DecimalType plus an int is a BigDecimal") }
    }

    /// `int / int` is Java's integer division; with a double it is a double; a Number divides with
    /// `divide(y, 8, RoundingMode.HALF_UP)` (`NumberExtensions.operator_divide`); two BigDecimals with
    /// `MathContext.DECIMAL128` (`BigDecimalExtensions.operator_divide`: 34 digits, HALF_EVEN, an exact quotient
    /// down to the preferred scale).
    @Test func divisionByKind() throws {
        #expect(try Self.op("/", .int(10), .int(3)).text == "3")
        #expect(try Self.op("/", .int(-7), .int(2)).text == "-3")
        #expect(try Self.text("/", .int(10), .number(3.0)) == "3.3333333333333335")
        #expect(try Self.text("/", Self.state("10"), .int(3)) == "3.33333333")
        #expect(try Self.text("/", Self.state("10"), .int(4)) == "2.50000000")
        #expect(try Self.text("/", Self.state("2"), .int(3)) == "0.66666667")
        #expect(try Self.text("/", Self.state("-2"), .int(3)) == "-0.66666667")
        #expect(try Self.text("/", Self.big("63.1"), .int(3)) == "21.03333333")
        #expect(try Self.text("/", Self.big("1"), Self.big("3")) == "0.3333333333333333333333333333333333")
        #expect(try Self.text("/", Self.big("2"), Self.big("3")) == "0.6666666666666666666666666666666667")
        #expect(try Self.text("/", Self.big("1"), Self.big("4")) == "0.25")
        #expect(try Self.text("/", Self.big("6"), Self.big("2")) == "3")
        #expect(try Self.text("/", Self.big("6.00"), Self.big("2")) == "3.00")
        #expect(try Self.text("/", Self.big("10"), Self.big("3")) == "3.333333333333333333333333333333333")
        #expect(throws: DSLFlow.self) { try Self.op("/", Self.state("1"), .int(0)) }
        #expect(throws: DSLFlow.self) { try Self.op("/", .int(1), .int(0)) }
    }

    /// `==` and `<` of a Number compare BigDecimals (`compareTo`: `21.50 == 21.5`); doubles compare as doubles.
    @Test func comparisons() throws {
        #expect(DSLOperators.equal(Self.state("21.50"), .number(21.5)))
        #expect(!DSLOperators.equal(Self.state("0.3"), .number(0.1 + 0.2)))
        #expect(!DSLOperators.equal(.number(0.1 + 0.2), .number(0.3)))
        #expect(DSLOperators.equal(try Self.op("+", Self.state("1"), .number(0.2)), .number(1.2)))
        #expect(DSLOperators.equal(.int(3), .number(3.0)))
        #expect(try DSLOperators.compare(Self.big("0.30000000000000000001"), Self.big("0.3"), Self.at) == 1)
        #expect(try DSLOperators.compare(Self.state("-5"), .int(-4), Self.at) == -1)
        #expect(try DSLOperators.compare(Self.big("1E+40"), Self.big("99999999999999999999999999999999999999"), Self.at) == 1)
    }

    /// `BigDecimal.intValue` keeps the integer part's low 32 bits; a double's `(int)` saturates.
    @Test func wholeValues() {
        #expect(JavaDecimal(parsing: "-3.7")!.intValue == -3)
        #expect(JavaDecimal(parsing: "4294967297")!.intValue == 1)
        #expect(JavaDecimal(parsing: "1E+20")!.longValue == 7_766_279_631_452_241_920)  // 10^20 mod 2^64
        #expect(JavaDecimal(parsing: "2.5")!.doubleValue == 2.5)
        #expect(JavaDecimal(parsing: "0.1")!.doubleValue == 0.1)
    }

    /// `setScale(n, mode)` rounds as `java.math.RoundingMode`; `setScale(n)` is UNNECESSARY and throws.
    @Test func setScaleRounds() {
        let x = JavaDecimal(parsing: "21.45")!
        #expect(x.setScale(1, .halfUp).value?.javaString == "21.5")
        #expect(x.setScale(1, .halfEven).value?.javaString == "21.4")
        #expect(x.setScale(1, .down).value?.javaString == "21.4")
        #expect(x.setScale(3, .unnecessary).value?.javaString == "21.450")
        #expect(JavaDecimal(parsing: "-21.45")!.setScale(1, .floor).value?.javaString == "-21.5")
        #expect(JavaDecimal(parsing: "-21.45")!.setScale(1, .ceiling).value?.javaString == "-21.4")
        #expect(JavaDecimal(parsing: "2.5")!.setScale(0, .halfEven).value?.javaString == "2")
        #expect(JavaDecimal(parsing: "2.5")!.setScale(0, .halfDown).value?.javaString == "2")
        #expect(JavaDecimal(parsing: "2.51")!.setScale(0, .halfDown).value?.javaString == "3")
        if case .roundingNecessary = x.setScale(1, .unnecessary) {} else { Issue.record("setScale(1) of 21.45 must need rounding") }
    }

    /// `%f` of a BigDecimal rounds its exact digits HALF_UP with the value's sign (`java.util.Formatter`);
    /// `%d` refuses a double and a BigDecimal (IllegalFormatConversionException).
    @Test func formatting() throws {
        func format(_ pattern: String, _ v: DSLValue) throws -> String {
            guard case .string(let s) = try DSLText.format([.string(pattern), v], Self.at, nil) else { return "" }
            return s
        }
        #expect(try format("%.1f", Self.big("2.25")) == "2.3")
        #expect(try format("%.2f", Self.big("0.125")) == "0.13")
        #expect(try format("%.2f", Self.big("-0.001")) == "-0.00")
        #expect(try format("%.3f", Self.big("1E+3")) == "1000.000")
        #expect(try format("%8.2f|", Self.big("3.14159")) == "    3.14|")
        #expect(try format("%.2f", .number(2.675)) == "2.68")   // Double.toString digits "2.675", then HALF_UP
        #expect(try format("%s", Self.big("1E+3")) == "1E+3")
        #expect(throws: DSLFlow.self) { try format("%d", .number(2.0)) }
        #expect(throws: DSLFlow.self) { try format("%d", Self.big("2")) }
    }

    /// A state of hundreds of digits (the fuzzer's) is kept to 38 significant digits; arithmetic past them
    /// falls back to double and never crashes or turns into NaN.
    @Test func numbersPastTheTwinsDigits() throws {
        let digits = String(repeating: "16", count: 150)
        let d = try #require(JavaDecimal(parsing: digits))
        // 38 digits kept; the 39th (1, then 6…) is less than half: rounded down.
        #expect(d.javaString == "1." + String(String(repeating: "61", count: 19).prefix(37)) + "E+299")
        let sum = try Self.op("+", Self.state(digits), .int(1))
        #expect(sum.numeric.map { abs($0.value / 1.6161616161616162e299 - 1) < 1e-12 } == true)
        let tiny = try Self.op("*", Self.big("1E-9000"), Self.big("1E-9000"))  // past the twin's scale range: a double 0
        #expect(tiny.numeric?.value == 0)
        #expect(throws: DSLFlow.self) { try Self.op("/", Self.big("1E+9000"), Self.big("1E-9000")) }
    }

    /// `QuantityType.add` adds the numbers as BigDecimals (the right side converted to the left's unit):
    /// `1.1 kWh + 2.2 kWh` is `3.3 kWh`, not the double sum `3.3000000000000003`.
    @Test func quantitiesAddTheirDecimals() throws {
        func q(_ text: String) -> DSLValue { .quantity(Quantity(parsing: text)!) }
        #expect(try Self.text("+", q("1.1 kWh"), q("2.2 kWh")) == "3.3 kWh")
        #expect(try Self.text("+", q("1.5 kWh"), q("250 Wh")) == "1.75 kWh")
        #expect(try Self.text("*", q("0.1 kWh"), .int(3)) == "0.3 kWh")
        #expect(try Self.text("-", q("21.5 °C"), .number(0.2)) == "21.3 °C")
        #expect(try DSLOperators.negate(q("1.10 kWh"), Self.at).text == "-1.1 kWh")
    }

    /// Xbase literals: `1` int, `1.5`/`1e3` double, `1.5bd` BigDecimal; `**` of a BigDecimal and an int is exact.
    @Test func literalsAndPowers() throws {
        #expect(DSLInterpreter.literal("1.50bd")?.text == "1.50")
        #expect(DSLInterpreter.literal("1e3")?.text == "1000.0")
        #expect(DSLInterpreter.literal("7")?.text == "7")
        #expect(try Self.text("**", Self.big("1.1"), .int(2)) == "1.21")
        #expect(try Self.text("**", .int(2), .int(10)) == "1024.0")
        #expect(try Self.text("+", Self.big("0.1"), Self.big("0.2")) == "0.3")
    }
}

/// A collection that holds itself prints as Java's `AbstractMap`/`AbstractCollection.toString` prints it, and
/// comparing it with a value of another kind ends (found by `rental-twin fuzz --target rules`:
/// `updates.put(updates, …)` recursed until the stack overflowed).
@Suite("Rules DSL values holding themselves")
struct DSLSelfReferenceTests {
    @Test func aMapOrListInsideItself() throws {
        let m = DSLMap()
        try m.update { (e: inout [DSLMap.Entry]) in e.append(DSLMap.Entry(key: .map(m), value: .int(1))) }
        #expect(DSLValue.map(m).text == "{(this Map)=1}")
        #expect(!DSLOperators.equal(.string("a"), .map(m)))
        let l = DSLList([.int(1)])
        try l.update { (v: inout [DSLValue]) in v.append(.list(l)) }
        #expect(DSLValue.list(l).text == "[1, (this Collection)]")
        #expect(DSLOperators.equal(.list(l), .list(l)))
        let outer = DSLList([.list(l)])
        #expect(DSLValue.list(outer).text == "[[1, (this Collection)]]")
    }
}
