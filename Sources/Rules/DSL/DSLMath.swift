import Foundation
import SmartHome

/// `Math::…` and the methods of numbers (`Number`, `BigDecimal`, `DecimalType`, `QuantityType`).
enum DSLMath {
    private static func number(_ v: DSLValue?, _ name: String, _ at: DSLLocation) throws(DSLFlow) -> Double {
        guard let n = v?.numeric else { throw DSLFlow.failure("Math.\(name) takes numbers", at, type: "IllegalArgumentException") }
        return n.value
    }

    private static func unary(_ name: String, _ f: @escaping @Sendable (Double) -> Double) -> DSLFunction {
        { _, a, at in .number(f(try number(a.first, name, at))) }
    }

    static let functions: [String: DSLFunction] = [
        "max": { _, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("Math.max takes two numbers", at) }
            if case .int(let x) = a[0], case .int(let y) = a[1] { return .int(Swift.max(x, y)) }
            return try DSLOperators.compare(a[0], a[1], at) >= 0 ? a[0] : a[1]
        },
        "min": { _, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("Math.min takes two numbers", at) }
            if case .int(let x) = a[0], case .int(let y) = a[1] { return .int(Swift.min(x, y)) }
            return try DSLOperators.compare(a[0], a[1], at) <= 0 ? a[0] : a[1]
        },
        "abs": { _, a, at in
            if case .int(let x)? = a.first { return .int(x == .min ? x : Swift.abs(x)) }
            if case .decimal(let d)? = a.first { return .decimal(d.isNegative ? d.negated() : d) }
            return .number(Swift.abs(try number(a.first, "abs", at)))
        },
        "round": { _, a, at in .int(Int64(saturating: Foundation.floor(try number(a.first, "round", at) + 0.5))) },
        "floor": unary("floor") { Foundation.floor($0) },
        "ceil": unary("ceil") { Foundation.ceil($0) },
        "sqrt": unary("sqrt") { $0.squareRoot() },
        "log": unary("log") { Foundation.log($0) },
        "log10": unary("log10") { Foundation.log10($0) },
        "exp": unary("exp") { Foundation.exp($0) },
        "sin": unary("sin") { Foundation.sin($0) },
        "cos": unary("cos") { Foundation.cos($0) },
        "tan": unary("tan") { Foundation.tan($0) },
        "signum": unary("signum") { $0 > 0 ? 1 : ($0 < 0 ? -1 : 0) },
        "pow": { _, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("Math.pow takes two numbers", at) }
            return .number(Foundation.pow(try number(a[0], "pow", at), try number(a[1], "pow", at)))
        },
        "PI": { _, _, _ in .number(Double.pi) },
        "E": { _, _, _ in .number(M_E) },
    ]

    private static func value(_ r: DSLValue, _ name: String, _ at: DSLLocation) throws(DSLFlow) -> Double {
        guard let n = r.numeric else { throw DSLFlow.failure("\(name) needs a number, not \(r.kindName)", at, type: "ClassCastException") }
        return n.value
    }

    private static func decimal(_ r: DSLValue, _ name: String, _ at: DSLLocation) throws(DSLFlow) -> JavaDecimal {
        guard let d = r.javaDecimal else { throw DSLFlow.failure("\(name) needs a number, not \(r.kindName)", at, type: "ClassCastException") }
        return d
    }

    /// Java's `(int)`/`(long)` of a double (saturating), or a BigDecimal's `intValue`/`longValue` (the
    /// integer part's low-order bits, `BigDecimal.intValue`) for a `DecimalType` or a `BigDecimal`.
    private static func whole(_ r: DSLValue, _ name: String, bits32: Bool, _ at: DSLLocation) throws(DSLFlow) -> Int64 {
        switch r {
        case .int(let n): return bits32 ? Int64(Int32(truncatingIfNeeded: n)) : n
        case .number(let d):
            let t = d.rounded(.towardZero)
            return bits32 ? Int64(Int32(clamping: Int64(saturating: t))) : Int64(saturating: t)
        default:
            let d = try decimal(r, name, at)
            return bits32 ? Int64(d.intValue) : d.longValue
        }
    }

    static let numberMethods: [String: DSLMethodCode] = [
        "doubleValue": .init { _, r, _, at in .number(try value(r, "doubleValue", at)) },
        "floatValue": .init { _, r, _, at in .number(try value(r, "floatValue", at)) },
        "toBigDecimal": .init { _, r, _, at in .decimal(try decimal(r, "toBigDecimal", at)) },
        "intValue": .init { _, r, _, at in .int(try whole(r, "intValue", bits32: true, at)) },
        "longValue": .init { _, r, _, at in .int(try whole(r, "longValue", bits32: false, at)) },
        "abs": .init { _, r, _, at in
            switch r {
            case .int(let n): return .int(n == .min ? n : Swift.abs(n))
            case .number(let d): return .number(Swift.abs(d))
            default:
                let d = try decimal(r, "abs", at)
                return .decimal(d.isNegative ? d.negated() : d)
            }
        },
        "negate": .init { _, r, _, at in
            if case .number(let d) = r { return .number(-d) }
            return .decimal(try decimal(r, "negate", at).negated())
        },
        "signum": .init { _, r, _, at in .int(Int64(try decimal(r, "signum", at).signum)) },
        "scale": .init { _, r, _, at in .int(Int64(try decimal(r, "scale", at).scale)) },
        "stripTrailingZeros": .init { _, r, _, at in
            var d = try decimal(r, "stripTrailingZeros", at)
            if d.unscaled == 0 { return .decimal(JavaDecimal(0)) }
            while d.unscaled % 10 == 0, let next = JavaDecimal(unscaled: d.unscaled / 10, scale: d.scale - 1) { d = next }
            return .decimal(d)
        },
        "toPlainString": .init { _, r, _, at in .string(try decimal(r, "toPlainString", at).plainString) },
        "setScale": .init { _, r, a, at in
            // `BigDecimal.setScale(n)` is `RoundingMode.UNNECESSARY`: a value that must round throws.
            guard case .int(let scale)? = a.first, scale >= -1_000, scale <= 1_000 else { throw DSLFlow.failure("setScale takes a scale (an int)", at, type: "IllegalArgumentException") }
            var mode = JavaDecimal.Rounding.unnecessary
            if a.count > 1 {
                guard case .constant("RoundingMode", let m) = a[1], let known = JavaDecimal.Rounding(rawValue: m) else {
                    throw DSLFlow.failure("setScale takes a RoundingMode second (RoundingMode.HALF_UP)", at, type: "IllegalArgumentException")
                }
                mode = known
            }
            switch try decimal(r, "setScale", at).setScale(Int(scale), mode) {
            case .value(let d): return .decimal(d)
            case .roundingNecessary: throw DSLFlow.failure("Rounding necessary (give setScale a RoundingMode, e.g. RoundingMode.HALF_UP)", at, type: "ArithmeticException")
            case .tooLarge: throw DSLFlow.failure("setScale(\(scale)) needs more than the 38 digits the twin's decimals hold", at, type: "ArithmeticException")
            }
        },
        "getUnit": .init { _, r, _, at in
            guard let unit = r.numeric?.unit else { throw DSLFlow.failure("\(r.kindName) has no unit", at, type: "NoSuchMethodException") }
            return .string(unit.symbol)
        },
        "toUnit": .init { _, r, a, at in
            guard let n = r.numeric, let unit = n.unit, a.count == 1, case .string(let target) = a[0],
                  let targetUnit = Quantity(parsing: "1 \(target)")?.unit,
                  let converted = Quantity(DecimalNumber(n.value), unit).converted(to: targetUnit) else {
                throw DSLFlow.failure("toUnit needs a quantity and a unit of its dimension", at, type: "UnconvertibleException")
            }
            return .quantity(converted)
        },
        "format": .init { _, r, a, at in
            guard case .string(let pattern)? = a.first else { throw DSLFlow.failure("format takes a pattern such as \"%.1f\"", at) }
            // `DecimalType.format`: a whole value formats as a BigInteger (`%d` works), else — or when the
            // pattern does not take an integer (`%.1f`) — as the BigDecimal.
            if let d = r.javaDecimal, let whole = d.setScale(0, .unnecessary).value, whole.magnitude < 1 << 62,
               let text = try? DSLText.format([.string(pattern), .int(Int64(whole.unscaled))], at, nil) {
                return text
            }
            return try DSLText.format([.string(pattern), r.javaDecimal.map(DSLValue.decimal) ?? r], at, nil)
        },
    ]
}
