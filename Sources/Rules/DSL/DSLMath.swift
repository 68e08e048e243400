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

    static let numberMethods: [String: DSLMethod] = [
        "doubleValue": { _, r, _, at in .number(try value(r, "doubleValue", at)) },
        "floatValue": { _, r, _, at in .number(try value(r, "floatValue", at)) },
        "toBigDecimal": { _, r, _, at in .number(try value(r, "toBigDecimal", at)) },
        "intValue": { _, r, _, at in .int(Int64(Int32(clamping: Int64(saturating: try value(r, "intValue", at).rounded(.towardZero))))) },
        "longValue": { _, r, _, at in .int(Int64(saturating: try value(r, "longValue", at).rounded(.towardZero))) },
        "abs": { _, r, _, at in
            if case .int(let n) = r { return .int(n == .min ? n : Swift.abs(n)) }
            return .number(Swift.abs(try value(r, "abs", at)))
        },
        "negate": { _, r, _, at in .number(-(try value(r, "negate", at))) },
        "setScale": { _, r, a, at in
            guard let scale = a.first?.numeric, scale.value >= 0, scale.value <= 20 else { throw DSLFlow.failure("setScale takes a scale", at) }
            let factor = Foundation.pow(10.0, scale.value)
            var mode = "HALF_UP"
            if a.count > 1, case .constant(_, let m) = a[1] { mode = m }
            let v = try value(r, "setScale", at) * factor
            let rounded: Double
            switch mode {
            case "DOWN": rounded = v.rounded(.towardZero)
            case "UP": rounded = v.rounded(.awayFromZero)
            case "FLOOR": rounded = Foundation.floor(v)
            case "CEILING": rounded = Foundation.ceil(v)
            case "HALF_EVEN": rounded = v.rounded(.toNearestOrEven)
            default: rounded = v.rounded(.toNearestOrAwayFromZero)
            }
            return .number(rounded / factor)
        },
        "getUnit": { _, r, _, at in
            guard let unit = r.numeric?.unit else { throw DSLFlow.failure("\(r.kindName) has no unit", at, type: "NoSuchMethodException") }
            return .string(unit.symbol)
        },
        "toUnit": { _, r, a, at in
            guard let n = r.numeric, let unit = n.unit, a.count == 1, case .string(let target) = a[0],
                  let targetUnit = Quantity(parsing: "1 \(target)")?.unit,
                  let converted = Quantity(DecimalNumber(n.value), unit).converted(to: targetUnit) else {
                throw DSLFlow.failure("toUnit needs a quantity and a unit of its dimension", at, type: "UnconvertibleException")
            }
            return .quantity(converted)
        },
        "format": { _, r, a, at in
            guard case .string(let pattern)? = a.first else { throw DSLFlow.failure("format takes a pattern such as \"%.1f\"", at) }
            return try DSLText.format([.string(pattern), r], at, nil)
        },
    ]
}
