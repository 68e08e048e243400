import Foundation
import Simulation
import SmartHome

/// Operators, equality, casts and type tests as Xbase and openHAB's extensions define them:
/// `int` arithmetic for two integers (Xbase `IntegerExtensions`: `7 / 2` is 3, overflow wraps), `double`
/// arithmetic for ints and doubles (`DoubleExtensions`: `0.1 + 0.2` of double literals is
/// `0.30000000000000004`, as in Java), `BigDecimal` as soon as a `Number` that is not a primitive takes part — a
/// `DecimalType` state, a `BigDecimal` (openHAB's `NumberExtensions`: exact `+ - *`, `/` at scale 8 `HALF_UP`;
/// two BigDecimals divide with Xbase's `BigDecimalExtensions`, `MathContext.DECIMAL128`), `String +` anything
/// (null prints as "null"), `==` by value (`equals`, with openHAB's state/number comparisons), `===` by identity.
///
/// The twin picks the extension by the values' run-time kinds where Xbase picks it by their static types: a
/// `var Number x` that holds a BigDecimal divides as a BigDecimal here, as a `Number` (scale 8) in openHAB.
enum DSLOperators {
    static func apply(_ op: String, _ a: DSLValue, _ b: DSLValue, _ at: DSLLocation, _ interpreter: DSLInterpreter) throws(DSLFlow) -> DSLValue {
        // The one-character operators (`+ - * / % < >`, most of what runs) without comparing the operator
        // with each longer one first.
        if op.utf8.count == 1 {
            let c = op.utf8.first!
            if c == UInt8(ascii: "<") || c == UInt8(ascii: ">") {
                let order = try compare(a, b, at)
                return .bool(c == UInt8(ascii: "<") ? order < 0 : order > 0)
            }
            return try arithmetic(op, a, b, at, interpreter)
        }
        switch op {
        case "==": return .bool(equal(a, b))
        case "!=": return .bool(!equal(a, b))
        case "===": return .bool(identical(a, b))
        case "!==": return .bool(!identical(a, b))
        case "<", "<=", ">", ">=":
            let order = try compare(a, b, at)
            switch op {
            case "<": return .bool(order < 0)
            case "<=": return .bool(order <= 0)
            case ">": return .bool(order > 0)
            default: return .bool(order >= 0)
            }
        case "..", "..<":
            guard case .int(let from) = integer(a), case .int(let to) = integer(b) else {
                throw DSLFlow.failure("\(op) needs two integers, not \(a.kindName) and \(b.kindName)", at, type: "ClassCastException")
            }
            let (end, o1) = op == ".." ? (to, false) : to.subtractingReportingOverflow(1)
            let (span, o2) = end.subtractingReportingOverflow(from)
            guard !o1, !o2, span.magnitude < UInt64(DSLLimits.maxCollectionSize) else {
                throw DSLFlow.fatal("the range \(from)\(op)\(to) has more than \(DSLLimits.maxCollectionSize) elements (rules.dslValueTooLarge)", at)
            }
            let values: [DSLValue] = from <= end ? (from...end).map(DSLValue.int) : (op == ".." ? stride(from: from, through: end, by: -1).map(DSLValue.int) : [])
            return .list(DSLList(values))
        case "->":
            return .list(DSLList([a, b]))  // a Pair, as a two-element list (`key`/`value` read it)
        default:
            return try arithmetic(op, a, b, at, interpreter)
        }
    }

    private static func instant(_ t: SimInstant?, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        guard let t, t >= DSLTime.earliest, t <= DSLTime.latest else {
            throw DSLFlow.failure("the date-time is outside the years the twin supports (1–9999)", at, type: "DateTimeException")
        }
        return .instant(t)
    }

    private static func integer(_ v: DSLValue) -> DSLValue {
        if case .number(let d) = v, d == d.rounded(), abs(d) < 9e15 { return .int(Int64(d)) }
        if case .decimal(let d) = v, let whole = d.setScale(0, .unnecessary).value, whole.magnitude < 1 << 62 { return .int(Int64(whole.unscaled)) }
        return v
    }

    /// A Java primitive number (`int`/`long`/`double`), as opposed to a `Number` object (`DecimalType`, `BigDecimal`).
    @inline(__always) private static func isPrimitive(_ v: DSLValue) -> Bool {
        switch v {
        case .int, .number: return true
        default: return false
        }
    }

    /// A quantity with a unit other than ONE (openHAB's `NumberExtensions` treats `Units.ONE` as a plain number).
    @inline(__always) private static func hasUnit(_ v: DSLValue) -> Bool {
        switch v {
        case .quantity(let q), .state(.quantity(let q)): return q.unit != .one
        default: return false
        }
    }

    /// Both sides as BigDecimals when openHAB compares them so (`NumberExtensions.operator_equals(Number, Number)`,
    /// `operator_lessThan(Type, Number)`, …): at least one is a `Number` object, neither has a unit.
    private static func decimals(_ a: DSLValue, _ b: DSLValue) -> (JavaDecimal, JavaDecimal)? {
        guard !(isPrimitive(a) && isPrimitive(b)), !hasUnit(a), !hasUnit(b), let x = a.javaDecimal, let y = b.javaDecimal else { return nil }
        return (x, y)
    }

    /// Unary `-`: `int` and `double` negate as Java's; a `Number` object as `NumberExtensions.operator_minus(Number)`
    /// (a BigDecimal); a quantity keeps its unit.
    static func negate(_ value: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        switch value {
        case .int(let n): return .int(0 &- n)
        case .number(let d): return .number(-d)
        case .quantity(let q), .state(.quantity(let q)):
            if let d = JavaDecimal(number: q.number) { return .quantity(Quantity(decimalNumber(d.negated()), q.unit)) }
            return .quantity(Quantity(DecimalNumber(-q.value), q.unit))
        default:
            if let d = value.javaDecimal { return .decimal(d.negated()) }
            guard let n = value.numeric else { throw DSLFlow.failure("cannot negate \(value.kindName)", at) }
            return .number(-n.value)
        }
    }

    /// A BigDecimal as a state's number: `DecimalType(BigDecimal)` prints `toPlainString`.
    static func decimalNumber(_ d: JavaDecimal) -> DecimalNumber {
        DecimalNumber(parsing: d.plainString) ?? DecimalNumber(d.doubleValue)
    }

    /// `==`: states by state, numbers and quantities by value (converted), the rest by text.
    static func equal(_ a: DSLValue, _ b: DSLValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.state(let x), .state(let y)): return StateComparison.equal(x, y)
        case (.instant(let x), .instant(let y)): return x == y
        case (.dayOfWeek(let x), .dayOfWeek(let y)): return x == y
        case (.localDateTime(let x), .localDateTime(let y)): return x == y
        case (.localDateTime, _), (_, .localDateTime): return false
        case (.timer(let x), .timer(let y)): return x === y
        case (.list(let x), .list(let y)):
            if x === y { return true }  // AbstractList.equals: the same list (also one that holds itself)
            let xv = x.values, yv = y.values
            return xv.count == yv.count && zip(xv, yv).allSatisfy { equal($0, $1) }
        case (.map(let x), .map(let y)): return x === y
        case (.lambda, _), (_, .lambda): return false
        case (.item(let x), .item(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.state(.string(let x)), .string(let y)), (.string(let y), .state(.string(let x))): return x == y
        default: break
        }
        if let (x, y) = decimals(a, b) { return JavaDecimal.compare(x, y) == 0 }
        if let x = a.numeric, let y = b.numeric { return (try? order(x, y)) == 0 }
        if case .state = a, case .string = b { return false }
        if case .string = a, case .state = b { return false }
        if case .item = a { return false }
        if case .item = b { return false }
        // A collection equals only a collection of its kind (handled above); comparing texts would also
        // recurse through a collection that holds itself.
        switch a { case .list, .map, .builder: return false; default: break }
        switch b { case .list, .map, .builder: return false; default: break }
        return a.text == b.text
    }

    /// `===`: the same object (values of value types: equal and of the same kind).
    static func identical(_ a: DSLValue, _ b: DSLValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.list(let x), .list(let y)): return x === y
        case (.map(let x), .map(let y)): return x === y
        case (.timer(let x), .timer(let y)): return x === y
        case (.state(let x), .state(let y)): return x == y
        case (.item(let x), .item(let y)): return x == y
        case (.constant(let t1, let n1), .constant(let t2, let n2)): return t1 == t2 && n1 == n2
        default: return equal(a, b)
        }
    }

    static func order(_ x: (value: Double, unit: QuantityUnit?), _ y: (value: Double, unit: QuantityUnit?)) throws(DSLFlow) -> Int {
        var right = y.value
        if let lu = x.unit, let ru = y.unit, lu != ru {
            guard let converted = Quantity(DecimalNumber(y.value), ru).converted(to: lu) else {
                throw DSLFlow.failure("cannot compare \(lu.symbol) with \(ru.symbol)", DSLLocation(file: "", line: 0, column: 0))
            }
            right = converted.value
        }
        return x.value < right ? -1 : (x.value > right ? 1 : 0)
    }

    static func compare(_ a: DSLValue, _ b: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> Int {
        func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x > y ? 1 : 0) }
        switch (a, b) {
        case (.instant(let x), .instant(let y)): return sign(x, y)
        case (.state(.dateTime(let x)), .state(.dateTime(let y))): return sign(x.instant, y.instant)
        case (.localTime(let x), .localTime(let y)): return sign(x, y)
        case (.localDate(let x), .localDate(let y)): return sign(x, y)
        case (.localDateTime(let x), .localDateTime(let y)): return sign(x, y)
        case (.duration(let x), .duration(let y)): return sign(x, y)
        case (.string(let x), .string(let y)): return sign(x, y)
        case (.int(let x), .int(let y)): return sign(x, y)
        case (.null, _), (_, .null): throw DSLFlow.failure("cannot compare with null", at, type: "NullPointerException")
        default: break
        }
        if let (x, y) = decimals(a, b) { return JavaDecimal.compare(x, y) }
        guard let x = a.numeric, let y = b.numeric else {
            throw DSLFlow.failure("cannot compare \(a.kindName) with \(b.kindName)", at, type: "ClassCastException")
        }
        do { return try order(x, y) } catch {
            if case .failure(let message, _, _) = error { throw DSLFlow.failure(message, at, type: "UnconvertibleException") }
            throw error
        }
    }

    static func arithmetic(_ op: String, _ a: DSLValue, _ b: DSLValue, _ at: DSLLocation, _ interpreter: DSLInterpreter) throws(DSLFlow) -> DSLValue {
        if op == "+" {
            if case .string = a { return try concatenated(interpreter.describe(a), interpreter.describe(b), at) }
            if case .string = b { return try concatenated(interpreter.describe(a), interpreter.describe(b), at) }
            if case .instant(let t) = a, case .duration(let d) = b { return try instant(DSLTime.shifted(t, d.milliseconds, unitMs: 1), at) }
            if case .duration(let x) = a, case .duration(let y) = b { return .duration(SimDuration(milliseconds: x.milliseconds &+ y.milliseconds)) }
        }
        if op == "-", case .instant(let t) = a, case .duration(let d) = b { return try instant(DSLTime.shifted(t, d.milliseconds, unitMs: -1), at) }
        return try numberArithmetic(op, a, b, at)
    }

    /// `a op b` for numbers (no string, date-time or duration on either side).
    static func numberArithmetic(_ op: String, _ a: DSLValue, _ b: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        if case .int(let x) = a, case .int(let y) = b {
            switch op {
            case "+": return .int(x &+ y)
            case "-": return .int(x &- y)
            case "*": return .int(x &* y)
            case "**": return .number(pow(Double(x), Double(y)))
            case "/", "%":
                guard y != 0 else { throw DSLFlow.failure("division by zero (/ by zero)", at, type: "ArithmeticException") }
                if x == Int64.min && y == -1 { return .int(op == "/" ? x : 0) }
                return .int(op == "/" ? x / y : x % y)
            default: break
            }
        }
        guard let x = a.numeric, let y = b.numeric else {
            if case .null = a { throw DSLFlow.failure("cannot apply \(op) to null", at, type: "NullPointerException") }
            if case .null = b { throw DSLFlow.failure("cannot apply \(op) to null", at, type: "NullPointerException") }
            throw DSLFlow.failure("cannot apply \(op) to \(a.kindName) and \(b.kindName)", at, type: "ClassCastException")
        }
        if x.unit != nil || y.unit != nil { return try quantityArithmetic(op, x, y, a, b, at) }
        // Doubles: two primitives (`IntegerExtensions`/`DoubleExtensions`), or a double on the left of any
        // Number (`DoubleExtensions.operator_plus(Double, Number)` and its kin: `a + b.doubleValue()`).
        if isPrimitive(a) && isPrimitive(b) { return try doubleArithmetic(op, x.value, y.value, at) }
        if case .number = a, op != "%" { return try doubleArithmetic(op, x.value, y.value, at) }
        guard let dx = a.javaDecimal, let dy = b.javaDecimal else { return try doubleArithmetic(op, x.value, y.value, at) }
        var bothBigDecimal = false
        if case .decimal = a, case .decimal = b { bothBigDecimal = true }
        if op == "**" {
            // `BigDecimalExtensions.operator_power(BigDecimal, int)`: exact; any other pair computes in double.
            if case .decimal = a, case .int(let n) = b, n >= 0, n <= 999_999_999, let p = dx.power(Int(n)) { return .decimal(p) }
            return try doubleArithmetic(op, x.value, y.value, at)
        }
        return .decimal(try decimalArithmetic(op, dx, dy, bigDecimals: bothBigDecimal, at))
    }

    /// `double` arithmetic as Java's (`%` is `fmod`, `/ 0` is Infinity in Java; the twin refuses a
    /// non-finite result, as an Item state cannot hold it).
    private static func doubleArithmetic(_ op: String, _ x: Double, _ y: Double, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        let result: Double
        switch op {
        case "+": result = x + y
        case "-": result = x - y
        case "*": result = x * y
        case "**": result = pow(x, y)
        case "/":
            guard y != 0 else { throw DSLFlow.failure("division by zero (Division undefined)", at, type: "ArithmeticException") }
            result = x / y
        case "%":
            guard y != 0 else { throw DSLFlow.failure("division by zero (Division undefined)", at, type: "ArithmeticException") }
            result = x.truncatingRemainder(dividingBy: y)
        default:
            throw DSLFlow.failure("the operator \(op) does not apply to numbers", at)
        }
        guard result.isFinite else { throw DSLFlow.failure("the result of \(op) is too large for a number", at, type: "ArithmeticException") }
        return .number(result)
    }

    /// openHAB's `NumberExtensions` on BigDecimals (`numberToBigDecimal` of each side): `+ - *` exact, `/` with
    /// `divide(y, 8, RoundingMode.HALF_UP)` — or `MathContext.DECIMAL128` when both are BigDecimals (Xbase's
    /// `BigDecimalExtensions.operator_divide`, the more specific overload). openHAB has no `%` for a Number; the
    /// twin gives the BigDecimal remainder. A result past the twin's 38 digits is computed in double (``JavaDecimal``).
    static func decimalArithmetic(_ op: String, _ x: JavaDecimal, _ y: JavaDecimal, bigDecimals: Bool, _ at: DSLLocation) throws(DSLFlow) -> JavaDecimal {
        var result: JavaDecimal?
        switch op {
        case "+": result = x + y
        case "-": result = x - y
        case "*": result = x * y
        case "/", "%":
            guard y.signum != 0 else {
                throw DSLFlow.failure(x.signum == 0 ? "Division undefined" : "Division by zero", at, type: "ArithmeticException")
            }
            if op == "%" {
                result = JavaDecimal.remainder(x, y)
            } else if bigDecimals {
                result = JavaDecimal.divide128(x, y)
            } else if case .value(let q) = JavaDecimal.divide(x, y, scale: 8, .halfUp) {
                result = q
            }
        default:
            throw DSLFlow.failure("the operator \(op) does not apply to numbers", at)
        }
        if let result { return result }
        guard case .number(let d) = try doubleArithmetic(op, x.doubleValue, y.doubleValue, at), let back = JavaDecimal(double: d) else {
            throw DSLFlow.failure("the result of \(op) is outside the decimals the twin holds", at, type: "ArithmeticException")
        }
        return back
    }

    /// A quantity with a unit on one side: `QuantityType.add/subtract` convert the right side to the left's unit;
    /// the numbers add, multiply and divide as BigDecimals (`/` with `MathContext.DECIMAL128`); unit conversion
    /// itself is the twin's (binary floating point, rounded to 1e-9, see ``Quantity/converted(to:)``).
    private static func quantityArithmetic(_ op: String, _ x: (value: Double, unit: QuantityUnit?), _ y: (value: Double, unit: QuantityUnit?),
                                           _ a: DSLValue, _ b: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        var right = b.javaDecimal
        if let lu = x.unit, let ru = y.unit, lu != ru, op == "+" || op == "-" {
            guard let converted = Quantity(DecimalNumber(y.value), ru).converted(to: lu) else {
                throw DSLFlow.failure("cannot \(op == "+" ? "add" : "subtract") \(ru.symbol) and \(lu.symbol)", at, type: "UnconvertibleException")
            }
            right = JavaDecimal(number: converted.number)
        }
        guard let unit = x.unit ?? ((op == "*" || op == "+" || op == "-") ? y.unit : nil) else {
            // A number divided by a quantity (or `%`, `**` of one): a plain number, as before.
            return .number(try doubleValue(doubleArithmetic(op, x.value, y.value, at)))
        }
        if op != "**", let l = a.javaDecimal, let r = right {
            let result = try decimalArithmetic(op, l, r, bigDecimals: true, at)
            return .quantity(Quantity(decimalNumber(result), unit))
        }
        let result = try doubleValue(doubleArithmetic(op, x.value, right?.doubleValue ?? y.value, at))
        return .quantity(Quantity(DecimalNumber(result), unit))
    }

    private static func doubleValue(_ v: DSLValue) -> Double {
        if case .number(let d) = v { return d }
        return v.numeric?.value ?? 0
    }

    /// `a + b` for strings, within the value-size budget.
    static func concatenated(_ a: String, _ b: String, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        try checkedString(a + b, at)
    }

    static func checkedString(_ s: String, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        guard s.utf8.count <= DSLLimits.maxStringLength else {
            throw DSLFlow.fatal("a string grew past \(DSLLimits.maxStringLength) bytes; the run was ended (rules.dslValueTooLarge)", at)
        }
        return .string(s)
    }

    /// `value as Type`: numbers and states convert as openHAB's types do; a wrong cast is a `ClassCastException`.
    static func cast(_ value: DSLValue, to type: String, _ at: DSLLocation, _ interpreter: DSLInterpreter) throws(DSLFlow) -> DSLValue {
        if case .null = value { return .null }
        switch type {
        case "Number", "QuantityType", "DecimalType", "PercentType", "BigDecimal", "Double", "Integer", "Long", "int", "double", "long", "float", "Float":
            if case .state(let s) = value, s.isUndefined {
                throw DSLFlow.failure("\(s) cannot be cast to \(type)", at, type: "ClassCastException")
            }
            guard let n = value.numeric else { throw DSLFlow.failure("\(value.kindName) cannot be cast to \(type)", at, type: "ClassCastException") }
            if case .int = value { return value }
            if type == "QuantityType", n.unit == nil, case .state(.quantity) = value {} else if type == "QuantityType", n.unit == nil {
                throw DSLFlow.failure("\(value.kindName) cannot be cast to QuantityType", at, type: "ClassCastException")
            }
            if let unit = n.unit {
                if type == "DecimalType", case .state(.quantity(let q)) = value { return .state(.decimal(q.number)) }
                if type == "DecimalType", case .quantity(let q) = value { return .state(.decimal(q.number)) }
                if case .quantity = value { return value }
                if case .state(.quantity(let q)) = value { return .quantity(q) }
                return .quantity(Quantity(DecimalNumber(n.value), unit))
            }
            if type == "Number" { return value }  // the common cast, without comparing the type with each below
            switch type {
            case "Integer", "Long", "int", "long": return .int(Int64(saturating: n.value.rounded(.towardZero)))
            case "Double", "double", "Float", "float":
                if case .number = value { return value }
                return .number(n.value)
            case "BigDecimal":
                return value.javaDecimal.map(DSLValue.decimal) ?? .number(n.value)
            default:
                // `Number`, `DecimalType`, `PercentType`: a DecimalType state, a BigDecimal or a double stays
                // what it is (a cast does not convert in Java).
                return value
            }
        case "String":
            if case .string = value { return value }
            throw DSLFlow.failure("\(value.kindName) cannot be cast to String (use toString)", at, type: "ClassCastException")
        case "Object", "State", "Command", "Type", "PrimitiveType":
            return value
        default:
            guard isInstance(value, of: type) else {
                throw DSLFlow.failure("\(value.kindName) cannot be cast to \(type)", at, type: "ClassCastException")
            }
            return value
        }
    }

    /// `value instanceof Type` (also a switch's type guard).
    static func isInstance(_ value: DSLValue, of type: String) -> Bool {
        // The common test (`state instanceof Number`) without comparing the type with each name below.
        if type == "Number" {
            switch value {
            case .int, .number, .decimal, .quantity, .state(.decimal), .state(.percent), .state(.quantity): return true
            default: break
            }
        }
        switch (value, type) {
        case (.null, _): return false
        case (_, "Object"): return true
        case (.state(let s), "State"), (.state(let s), "Command"), (.state(let s), "Type"):
            return type != "Command" || !s.isUndefined
        case (.state(.onOff), "OnOffType"), (.state(.openClosed), "OpenClosedType"), (.state(.string), "StringType"),
             (.state(.dateTime), "DateTimeType"), (.state(.quantity), "QuantityType"), (.state(.percent), "PercentType"),
             (.state(.null), "UnDefType"), (.state(.undef), "UnDefType"), (.state(.hsb), "HSBType"), (.state(.hsb), "PercentType"),
             (.state(.hsb), "DecimalType"), (.state(.point), "PointType"):
            return true
        case (.state(.decimal), "DecimalType"), (.state(.percent), "DecimalType"), (.state(.decimal), "Number"),
             (.state(.percent), "Number"), (.state(.quantity), "Number"):
            return true
        case (.int, "Number"), (.int, "Integer"), (.int, "Long"), (.number, "Number"), (.number, "Double"), (.decimal, "Number"), (.decimal, "BigDecimal"),
             (.quantity, "Number"), (.quantity, "QuantityType"):
            return true
        case (.string, "String"), (.string, "CharSequence"), (.bool, "Boolean"), (.instant, "ZonedDateTime"), (.localTime, "LocalTime"),
             (.localDate, "LocalDate"), (.duration, "Duration"), (.timer, "Timer"):
            return true
        case (.lambda, _):
            return type.hasPrefix("Procedure") || type.hasPrefix("Function")
        case (.list(let l), _): return ["List", "ArrayList", "LinkedList", "Iterable", "Collection"].contains(type) ? !l.isSet : (["Set", "HashSet", "Iterable", "Collection"].contains(type) && l.isSet)
        case (.map, "Map"), (.map, "HashMap"), (.map, "LinkedHashMap"): return true
        case (.item, _):
            return type == "Item" || type == "GenericItem" || type.hasSuffix("Item")
        case (.exception(let t, _), _): return t == type || type == "Exception" || type == "Throwable"
        default: return false
        }
    }
}
