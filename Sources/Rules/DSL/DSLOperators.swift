import Foundation
import Simulation
import SmartHome

/// Operators, equality, casts and type tests as Xbase and openHAB's extensions define them:
/// `int` arithmetic for two integers (Java: `7 / 2` is 3, overflow wraps), `BigDecimal` for a
/// `DecimalType`/`QuantityType` or a decimal (openHAB's `NumberExtensions`), `String +` anything (null
/// prints as "null"), `==` by value (`equals`, with openHAB's state/number comparisons), `===` by identity.
enum DSLOperators {
    static func apply(_ op: String, _ a: DSLValue, _ b: DSLValue, _ at: DSLLocation, _ interpreter: DSLInterpreter) throws(DSLFlow) -> DSLValue {
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
        return v
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
        case (.timer(let x), .timer(let y)): return x === y
        case (.list(let x), .list(let y)):
            let xv = x.values, yv = y.values
            return xv.count == yv.count && zip(xv, yv).allSatisfy { equal($0, $1) }
        case (.map(let x), .map(let y)): return x === y
        case (.lambda, _), (_, .lambda): return false
        case (.item(let x), .item(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.state(.string(let x)), .string(let y)), (.string(let y), .state(.string(let x))): return x == y
        default: break
        }
        if let x = a.numeric, let y = b.numeric { return (try? order(x, y)) == 0 }
        if case .state = a, case .string = b { return false }
        if case .string = a, case .state = b { return false }
        if case .item = a { return false }
        if case .item = b { return false }
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
        case (.duration(let x), .duration(let y)): return sign(x, y)
        case (.string(let x), .string(let y)): return sign(x, y)
        case (.int(let x), .int(let y)): return sign(x, y)
        case (.null, _), (_, .null): throw DSLFlow.failure("cannot compare with null", at, type: "NullPointerException")
        default: break
        }
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
        var right = y.value
        if let lu = x.unit, let ru = y.unit, lu != ru, op == "+" || op == "-" {
            guard let converted = Quantity(DecimalNumber(y.value), ru).converted(to: lu) else {
                throw DSLFlow.failure("cannot \(op == "+" ? "add" : "subtract") \(ru.symbol) and \(lu.symbol)", at, type: "UnconvertibleException")
            }
            right = converted.value
        }
        let result: Double
        switch op {
        case "+": result = x.value + right
        case "-": result = x.value - right
        case "*": result = x.value * right
        case "**": result = pow(x.value, right)
        case "/":
            guard right != 0 else { throw DSLFlow.failure("division by zero (Division undefined)", at, type: "ArithmeticException") }
            result = x.value / right
        case "%":
            guard right != 0 else { throw DSLFlow.failure("division by zero (Division undefined)", at, type: "ArithmeticException") }
            result = x.value.truncatingRemainder(dividingBy: right)
        default:
            throw DSLFlow.failure("the operator \(op) does not apply to numbers", at)
        }
        guard result.isFinite else { throw DSLFlow.failure("the result of \(op) is too large for a number", at, type: "ArithmeticException") }
        if let unit = x.unit ?? ((op == "*" || op == "+" || op == "-") ? y.unit : nil) {
            return .quantity(Quantity(DecimalNumber(result), unit))
        }
        return .number(result)
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
            if let unit = n.unit { return type == "DecimalType" ? .number(n.value) : .quantity(Quantity(DecimalNumber(n.value), unit)) }
            if ["Integer", "Long", "int", "long"].contains(type) { return .int(Int64(n.value)) }
            return .number(n.value)
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
        switch (value, type) {
        case (.null, _): return false
        case (_, "Object"): return true
        case (.state(let s), "State"), (.state(let s), "Command"), (.state(let s), "Type"):
            return type != "Command" || !s.isUndefined
        case (.state(.onOff), "OnOffType"), (.state(.openClosed), "OpenClosedType"), (.state(.string), "StringType"),
             (.state(.dateTime), "DateTimeType"), (.state(.quantity), "QuantityType"), (.state(.percent), "PercentType"),
             (.state(.null), "UnDefType"), (.state(.undef), "UnDefType"), (.state(.hsb), "HSBType"), (.state(.hsb), "PercentType"),
             (.state(.hsb), "DecimalType"):
            return true
        case (.state(.decimal), "DecimalType"), (.state(.percent), "DecimalType"), (.state(.decimal), "Number"),
             (.state(.percent), "Number"), (.state(.quantity), "Number"):
            return true
        case (.int, "Number"), (.int, "Integer"), (.int, "Long"), (.number, "Number"), (.number, "BigDecimal"), (.number, "Double"),
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
