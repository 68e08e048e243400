import Foundation
import SmartHome

/// openHAB's `HSBType` as rules use it (openhab-core `library.types.HSBType` and `util.ColorUtil`):
/// `new HSBType("120,100,50")`, `new HSBType(hue, saturation, brightness)`, `HSBType::fromRGB(r, g, b)`,
/// the constants `BLACK WHITE RED GREEN BLUE`, and `hue`, `saturation`, `brightness`, `red`, `green`,
/// `blue` (PercentType 0…100), `toRGB` (three PercentTypes), `toXY` (CIE x, y, Y as PercentTypes), `getRGB`
/// (the sRGB int `0xFFrrggbb`).
/// ColorUtil computes with `BigDecimal`s at 5 significant digits (`COLOR_MATH_CONTEXT`); the twin rounds
/// its doubles the same way, and prints numbers as the twin prints decimals (no trailing zeros).
enum DSLColor {
    /// `MathContext(5, HALF_UP)`: 5 significant digits.
    private static func significant5(_ x: Double) -> Double {
        guard x != 0, x.isFinite else { return x }
        let digits = 5 - Int(floor(log10(abs(x)))) - 1
        let scale = pow(10.0, Double(digits))
        return (abs(x) * scale).rounded(.toNearestOrAwayFromZero) / scale * (x < 0 ? -1 : 1)
    }

    private static func number(_ x: Double) -> DecimalNumber {
        DecimalNumber(parsing: DecimalNumber(x, fractionDigits: 10).stateText) ?? DecimalNumber(x)
    }

    static func make(_ h: Double, _ s: Double, _ b: Double, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        guard (0...360).contains(h) else { throw DSLFlow.failure("Hue must be between 0 and 360", at, type: "IllegalArgumentException") }
        guard (0...100).contains(s) else { throw DSLFlow.failure("Saturation must be between 0 and 100", at, type: "IllegalArgumentException") }
        guard (0...100).contains(b) else { throw DSLFlow.failure("Brightness must be between 0 and 100", at, type: "IllegalArgumentException") }
        // HSBType(DecimalType, PercentType, PercentType): a hue of 360 is 0.
        return .state(.hsb(HSB(hue: number(h == 360 ? 0 : h), saturation: number(s), brightness: number(b))))
    }

    static let constructor: DSLFunction = { _, a, at in
        switch a.count {
        case 0: return try make(0, 0, 0, at)
        case 1:
            let text: String
            switch a[0] {
            case .string(let s): text = s
            case .state(.hsb(let c)): return .state(.hsb(c))
            default: throw DSLFlow.failure("new HSBType takes \"h,s,b\" or three numbers, not \(a[0].kindName)", at, type: "IllegalArgumentException")
            }
            guard let c = HSB(parsing: text) else {
                throw DSLFlow.failure("\(text) is not a valid HSBType syntax", at, type: "IllegalArgumentException")
            }
            return .state(.hsb(c))
        case 3:
            guard let h = a[0].numeric?.value, let s = a[1].numeric?.value, let b = a[2].numeric?.value else {
                throw DSLFlow.failure("new HSBType takes a hue (DecimalType), a saturation and a brightness (PercentType)", at, type: "IllegalArgumentException")
            }
            return try make(h, s, b, at)
        default:
            throw DSLFlow.failure("new HSBType takes \"h,s,b\" or a hue, a saturation and a brightness", at, type: "IllegalArgumentException")
        }
    }

    /// ColorUtil.rgbToHsb(int[]): each byte to percent (`/ 2.55`, 5 digits), then hue, saturation, brightness.
    static func fromRGB(_ rgb: [Int64], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        guard rgb.count == 3 else { throw DSLFlow.failure("rgbToHsb() requires 3 or 4 arguments", at, type: "IllegalArgumentException") }
        for (k, v) in rgb.enumerated() where v < 0 || v > 255 {
            throw DSLFlow.failure("rgbToHsb() argument \(k) value '\(v)' out of range [0..255]", at, type: "IllegalArgumentException")
        }
        let p = rgb.map { significant5(Double($0) / 2.55) }
        let (r, g, b) = (p[0], p[1], p[2])
        let high = max(r, g, b), low = min(r, g, b), span = high - low
        if high == 0 { return try make(0, 0, 0, at) }
        if span == 0 { return try make(0, 0, high, at) }
        let saturation = significant5(span / high) * 100
        let scale = significant5(span / 60)
        let redAngle = significant5((high - r) / scale), greenAngle = significant5((high - g) / scale), blueAngle = significant5((high - b) / scale)
        var hue: Double
        if r == high { hue = blueAngle - greenAngle } else if g == high { hue = 120 + redAngle - blueAngle } else { hue = 240 + greenAngle - redAngle }
        if hue < 0 { hue += 360 } else if hue >= 360 { hue -= 360 }
        return try make(hue, saturation, high, at)
    }

    /// ColorUtil.hsbToRgbPercent.
    static func rgbPercent(_ c: HSB) -> [Double] {
        let h = (c.hue.value / 100 * 1e10).rounded(.toNearestOrAwayFromZero) / 1e10
        let s = c.saturation.value / 100
        let hInt = Int((h * 5 / 3).rounded(.towardZero))
        let f = ((h * 5 / 3) * 1e10).rounded(.toNearestOrAwayFromZero) / 1e10
        let frac = f - f.rounded(.towardZero)
        let v = c.brightness.value
        let a = v * (1 - s), b = v * (1 - s * frac), cc = v * (1 - (1 - frac) * s)
        switch hInt {
        case 0, 6: return [v, cc, a]
        case 1: return [b, v, a]
        case 2: return [a, v, cc]
        case 3: return [a, b, v]
        case 4: return [cc, a, v]
        default: return [v, a, b]
        }
    }

    private static func percent(_ x: Double) -> DSLValue { .state(.percent(number(x))) }

    /// ColorUtil.hsbToXY with its `DEFAULT_GAMUT`: sRGB percent → linear (the sRGB gamma), → XYZ by the
    /// "Wide RGB D65" matrix, → xy, moved to the closest point of the gamut when outside it; then `Y`.
    /// HSBType.toXY gives each × 100 as a PercentType, and a fourth (0) when the point was moved.
    static func xyY(_ c: HSB) -> [Double] {
        var rgb = rgbPercent(c).map { $0 / 100 }
        if rgb.max() ?? 0 <= 0 { rgb = [0.000001, 0.000001, 0.000001] }  // as ColorUtil: no division by zero
        let linear = rgb.map { $0 > 0.04045 ? pow(($0 + 0.055) / (1.0 + 0.055), 2.4) : $0 / 12.92 }
        let (r, g, b) = (linear[0], linear[1], linear[2])
        let x3 = r * 0.664511 + g * 0.154324 + b * 0.162028
        let y3 = r * 0.283881 + g * 0.668433 + b * 0.047685
        let z3 = r * 0.000088 + g * 0.072310 + b * 0.986039
        let sum = x3 + y3 + z3
        let point = (x: x3 / sum, y: y3 / sum)
        let inside = closestInGamut(point)
        return inside == point ? [inside.x, inside.y, y3] : [inside.x, inside.y, y3, 0]
    }

    /// ColorUtil.DEFAULT_GAMUT: the triangle red (0.9961, 0.0001), green (0, 0.9961), blue (0, 0.0001).
    private static let gamut: [(x: Double, y: Double)] = [(0.9961, 0.0001), (0, 0.9961), (0, 0.0001)]

    /// The point itself when inside the gamut's triangle (ColorUtil.Gamut.closest's barycentric test), else the
    /// closest point of its edges red–green, green–blue, blue–red (the first of equals).
    private static func closestInGamut(_ p: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let (r, g, b) = (gamut[0], gamut[1], gamut[2])
        func cross(_ a: (x: Double, y: Double), _ c: (x: Double, y: Double)) -> Double { a.x * c.y - a.y * c.x }
        let v1 = (x: g.x - r.x, y: g.y - r.y), v2 = (x: b.x - r.x, y: b.y - r.y), q = (x: p.x - r.x, y: p.y - r.y)
        let v = cross(v1, v2), s = cross(q, v2) / v, t = cross(v1, q) / v
        if s >= 0, t >= 0, s + t <= 1 { return p }
        var best = p, bestDistance = Double.infinity
        for (a, e) in [(r, g), (g, b), (b, r)] {
            let dx = e.x - a.x, dy = e.y - a.y
            let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
            let q = (x: a.x + t * dx, y: a.y + t * dy)
            let distance = (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)
            if distance < bestDistance { best = q; bestDistance = distance }
        }
        return best
    }

    private static func color(_ r: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> HSB {
        guard case .state(.hsb(let c)) = r else { throw DSLFlow.failure("\(r.kindName) is not an HSBType", at, type: "ClassCastException") }
        return c
    }

    static let methods: [String: DSLMethodCode] = [
        "getHue": .init { _, r, _, at in .state(.decimal(try color(r, at).hue)) },
        "getSaturation": .init { _, r, _, at in .state(.percent(try color(r, at).saturation)) },
        "getBrightness": .init { _, r, _, at in .state(.percent(try color(r, at).brightness)) },
        "getRed": .init { _, r, _, at in percent(rgbPercent(try color(r, at))[0]) },
        "getGreen": .init { _, r, _, at in percent(rgbPercent(try color(r, at))[1]) },
        "getBlue": .init { _, r, _, at in percent(rgbPercent(try color(r, at))[2]) },
        "toRGB": .init { _, r, _, at in .list(DSLList(rgbPercent(try color(r, at)).map(percent))) },
        "toXY": .init { _, r, _, at in .list(DSLList(xyY(try color(r, at)).map { percent($0 * 100) })) },
        "getRGB": .init { _, r, _, at in
            // ColorUtil.hsbTosRgb: each percent to a byte (× 255 / 100, HALF_UP), packed with alpha 0xFF.
            let bytes = rgbPercent(try color(r, at)).map { Int64(($0 * 255 / 100).rounded(.toNearestOrAwayFromZero)) & 0xFF }
            return .int(Int64(Int32(bitPattern: UInt32(0xFF00_0000) | UInt32(bytes[0] << 16 | bytes[1] << 8 | bytes[2]))))
        },
        "intValue": .init { _, r, _, at in .int(Int64(try color(r, at).brightness.value)) },
        "doubleValue": .init { _, r, _, at in .number(try color(r, at).brightness.value) },
    ]

    static let statics: [String: DSLFunction] = [
        "fromRGB": { _, a, at in
            let ints = a.compactMap { v -> Int64? in if case .int(let n) = v { return n }; return nil }
            guard ints.count == a.count else { throw DSLFlow.failure("HSBType.fromRGB takes three ints 0…255", at, type: "IllegalArgumentException") }
            return try fromRGB(ints, at)
        },
        "valueOf": { i, a, at in try constructor(i, a, at) },
        "BLACK": { _, _, at in try make(0, 0, 0, at) },
        "WHITE": { _, _, at in try make(0, 0, 100, at) },
        "RED": { _, _, at in try make(0, 100, 100, at) },
        "GREEN": { _, _, at in try make(120, 100, 100, at) },
        "BLUE": { _, _, at in try make(240, 100, 100, at) },
    ]
}
