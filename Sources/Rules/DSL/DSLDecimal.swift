import Foundation
import SmartHome

/// Java's `java.math.BigDecimal` as the Rules DSL computes with it: an unscaled integer and a scale
/// (value = unscaled × 10^-scale), so `21.50` keeps its two decimals and `0.1 + 0.2` of BigDecimals is exactly `0.3`.
///
/// Where the twin differs from Java (deliberately, to stay small and never crash):
/// - the unscaled value holds at most 38 digits (Java: unlimited). A text with more significant digits
///   (a 300-digit Item state) is rounded half-even to 38; an exact `+ - *` whose result needs more returns
///   `nil` and the caller computes that one operation in `double` (``DSLOperators``) — openHAB would still compute.
/// - the scale is kept within ±10 000 (Java: an `int`); outside that a value is refused (`nil`), so no
///   `toPlainString` can build a huge text.
struct JavaDecimal: Sendable, Hashable {
    /// |unscaled| < 10^38.
    let unscaled: Int128
    let scale: Int

    static let maxDigits = 38
    static let maxScale = 10_000
    static let pow10: [UInt128] = {
        var table: [UInt128] = [1]
        for _ in 0..<38 { table.append(table[table.count - 1] * 10) }
        return table
    }()
    static var limit: UInt128 { pow10[38] }

    /// Java's rounding modes (`java.math.RoundingMode`).
    enum Rounding: String, Sendable { case up = "UP", down = "DOWN", ceiling = "CEILING", floor = "FLOOR", halfUp = "HALF_UP", halfDown = "HALF_DOWN", halfEven = "HALF_EVEN", unnecessary = "UNNECESSARY" }

    init?(unscaled: Int128, scale: Int) {
        guard unscaled.magnitude < Self.limit, Swift.abs(scale) <= Self.maxScale else { return nil }
        self.unscaled = unscaled
        self.scale = scale
    }

    init?(negative: Bool, magnitude: UInt128, scale: Int) {
        guard magnitude < Self.limit else { return nil }
        self.init(unscaled: negative ? -Int128(magnitude) : Int128(magnitude), scale: scale)
    }

    /// `BigDecimal.valueOf(long)`.
    init(_ n: Int64) {
        unscaled = Int128(n)
        scale = 0
    }

    /// `new BigDecimal(Double.toString(d))`, as openHAB's `NumberExtensions.numberToBigDecimal` and
    /// `DecimalType(Number)` turn a `double` into a decimal (`21.0` keeps its `.0`, `1.0E-5` is `0.000010`).
    init?(double d: Double) {
        guard d.isFinite else { return nil }
        self.init(parsing: JavaDecimal.javaDoubleText(d))
    }

    /// `new BigDecimal(String)`: `-12.50`, `1e3`, `+.5`, `1.0E-5`. More than 38 significant digits are
    /// rounded half-even (see the type's notes).
    init?(parsing text: some StringProtocol) {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let s = bytes.first, s == UInt8(ascii: "-") || s == UInt8(ascii: "+") { negative = s == UInt8(ascii: "-"); bytes = bytes.dropFirst() }
        var magnitude: UInt128 = 0
        var digits = 0          // significant digits kept
        var fraction = 0        // digits seen after the point (kept or dropped)
        var dropped = 0         // significant digits past 38, dropped
        var firstDropped: UInt8 = 0
        var sticky = false
        var seenDigit = false
        var seenPoint = false
        while let b = bytes.first {
            if b == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
                seenDigit = true
                let d = b - UInt8(ascii: "0")
                if seenPoint { fraction += 1 }
                if digits == 0 && d == 0 {
                    // a leading zero: no significant digit yet
                } else if digits < Self.maxDigits {
                    magnitude = magnitude * 10 + UInt128(d)
                    digits += 1
                } else {
                    if dropped == 0 { firstDropped = d } else if d != 0 { sticky = true }
                    dropped += 1
                }
            } else {
                break
            }
            bytes = bytes.dropFirst()
        }
        guard seenDigit else { return nil }
        var exponent = 0
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var expNegative = false
            if let s = bytes.first, s == UInt8(ascii: "-") || s == UInt8(ascii: "+") { expNegative = s == UInt8(ascii: "-"); bytes = bytes.dropFirst() }
            let expDigits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard !expDigits.isEmpty, expDigits.count <= 9 else { return nil }
            for b in expDigits { exponent = exponent * 10 + Int(b - UInt8(ascii: "0")) }
            if expNegative { exponent = -exponent }
            bytes = bytes.dropFirst(expDigits.count)
        }
        guard bytes.isEmpty else { return nil }
        var scale = fraction - exponent - dropped
        if dropped > 0 {
            let more: Fraction = firstDropped > 5 || (firstDropped == 5 && sticky) ? .moreThanHalf : (firstDropped == 5 ? .half : (firstDropped == 0 && !sticky ? .zero : .lessThanHalf))
            if Self.roundsUp(more, odd: magnitude % 2 == 1, negative: negative, .halfEven) == true {
                magnitude += 1
                if magnitude == Self.limit { magnitude /= 10; scale -= 1 }
            }
        }
        self.init(negative: negative, magnitude: magnitude, scale: scale)
    }

    /// A state's number by its text (`DecimalType(String)`: a comma groups, so `2,000.5` is 2000.5); a text
    /// the twin cannot read as a BigDecimal falls back to its double.
    init?(number: DecimalNumber) {
        let text = number.text
        if let d = JavaDecimal(parsing: text) { self = d; return }
        if text.utf8.contains(UInt8(ascii: ",")), let d = JavaDecimal(parsing: text.replacingOccurrences(of: ",", with: "")) { self = d; return }
        self.init(double: number.value)
    }

    var magnitude: UInt128 { unscaled.magnitude }
    var isNegative: Bool { unscaled < 0 }
    var signum: Int { unscaled == 0 ? 0 : (unscaled < 0 ? -1 : 1) }

    static func digitCount(_ m: UInt128) -> Int {
        var n = 1
        while n < 39, m >= pow10[n] { n += 1 }
        return n
    }

    /// `BigDecimal.doubleValue`: the nearest `double` (Swift's parser rounds correctly).
    var doubleValue: Double {
        if scale == 0, magnitude < 1 << 53 { return Double(unscaled) }
        return Double("\(unscaled)e\(-scale)") ?? (isNegative ? -.infinity : .infinity)
    }

    /// `BigDecimal.longValue`: the integer part's low 64 bits (Java truncates, then keeps the low-order bits).
    var longValue: Int64 {
        let whole: Int128
        if scale <= 0 {
            guard -scale < Self.maxDigits + 90 else { return 0 }  // 10^128 and more: the low 64 bits are 0
            var w = unscaled
            for _ in 0..<(-scale) { w = w &* 10 }
            whole = w
        } else {
            whole = scale > Self.maxDigits ? 0 : unscaled / Int128(Self.pow10[scale])
        }
        return Int64(truncatingIfNeeded: whole)
    }

    /// `BigDecimal.intValue`: the integer part's low 32 bits.
    var intValue: Int32 { Int32(truncatingIfNeeded: longValue) }

    func negated() -> JavaDecimal { JavaDecimal(unscaled: -unscaled, scale: scale)! }

    // MARK: Text

    private var digitText: String { String(magnitude) }

    /// `BigDecimal.toString`: plain while the scale is not negative and the exponent at least -6, else
    /// scientific (`1E+3`, `1.5E-7`).
    var javaString: String {
        let digits = digitText
        let adjusted = -scale + (digits.utf8.count - 1)
        var out = isNegative ? "-" : ""
        if scale >= 0 && adjusted >= -6 {
            out += Self.placePoint(digits, scale)
        } else {
            out += String(digits.prefix(1))
            if digits.utf8.count > 1 { out += "." + digits.dropFirst() }
            out += "E" + (adjusted > 0 ? "+" : "") + String(adjusted)
        }
        return out
    }

    /// `BigDecimal.toPlainString` (what `DecimalType.toString` prints): never an exponent.
    var plainString: String {
        if scale <= 0 {
            if unscaled == 0 { return "0" }
            return (isNegative ? "-" : "") + digitText + String(repeating: "0", count: -scale)
        }
        return (isNegative ? "-" : "") + Self.placePoint(digitText, scale)
    }

    private static func placePoint(_ digits: String, _ scale: Int) -> String {
        guard scale > 0 else { return digits }
        let count = digits.utf8.count
        if count > scale {
            let split = digits.index(digits.startIndex, offsetBy: count - scale)
            return digits[..<split] + "." + digits[split...]
        }
        return "0." + String(repeating: "0", count: scale - count) + digits
    }

    /// Java's `Double.toString` (JDK 19+: the shortest digits that read back): `21.0`, `0.30000000000000004`,
    /// `1.0E-5`, `1.0E7` — plain from 10^-3 up to 10^7, else `d.dddE±n`.
    static func javaDoubleText(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
        let swift = "\(Swift.abs(d))"  // shortest round-trip digits: "0.001", "1e-05", "1.5e+16", "123.25"
        // Java's plain range written plainly by Swift too ("123.25", "21.0", "0.001"): the same digits, as they are.
        if Swift.abs(d) >= 1e-3, Swift.abs(d) < 1e7, !swift.utf8.contains(UInt8(ascii: "e")) { return d < 0 ? "-" + swift : swift }
        let parts = swift.split(separator: "e")
        let mantissa = parts[0]
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let intPart = mantissa.prefix { $0 != "." }
        let fracPart = mantissa.dropFirst(intPart.count + 1)
        var all = Array((intPart + fracPart).utf8)
        var point = intPart.utf8.count - 1 + exponent  // value = all[0].all[1…] × 10^point
        while all.count > 1, all.first == UInt8(ascii: "0") { all.removeFirst(); point -= 1 }
        while all.count > 1, all.last == UInt8(ascii: "0") { all.removeLast() }
        let digits = String(decoding: all, as: UTF8.self)
        let sign = d < 0 ? "-" : ""
        let magnitude = Swift.abs(d)
        if magnitude >= 1e-3 && magnitude < 1e7 {
            if point >= 0 {
                let whole = all.count > point + 1 ? String(digits.prefix(point + 1)) : digits + String(repeating: "0", count: point + 1 - all.count)
                let fraction = all.count > point + 1 ? String(digits.dropFirst(point + 1)) : "0"
                return sign + whole + "." + fraction
            }
            return sign + "0." + String(repeating: "0", count: -point - 1) + digits
        }
        return sign + String(digits.prefix(1)) + "." + (all.count > 1 ? String(digits.dropFirst()) : "0") + "E" + String(point)
    }

    // MARK: Arithmetic

    enum Fraction { case zero, lessThanHalf, half, moreThanHalf }

    /// Whether a magnitude whose discarded part is `fraction` rounds away from zero; `nil` for
    /// `UNNECESSARY` with a discarded part (Java's "Rounding necessary").
    static func roundsUp(_ fraction: Fraction, odd: Bool, negative: Bool, _ mode: Rounding) -> Bool? {
        if fraction == .zero { return false }
        switch mode {
        case .up: return true
        case .down: return false
        case .ceiling: return !negative
        case .floor: return negative
        case .halfUp: return fraction != .lessThanHalf
        case .halfDown: return fraction == .moreThanHalf
        case .halfEven: return fraction == .moreThanHalf || (fraction == .half && odd)
        case .unnecessary: return nil
        }
    }

    /// The discarded part `r / d` (0 ≤ r < d) against one half.
    private static func fraction(_ r: UInt128, of d: UInt128) -> Fraction {
        if r == 0 { return .zero }
        let rest = d - r
        return r < rest ? .lessThanHalf : (r == rest ? .half : .moreThanHalf)
    }

    /// `magnitude × 10^k` when it stays under 38 digits.
    private static func scaledUp(_ m: UInt128, _ k: Int) -> UInt128? {
        guard k >= 0, k <= maxDigits else { return nil }
        let (p, o) = m.multipliedReportingOverflow(by: pow10[k])
        return o || p >= limit ? nil : p
    }

    private static func aligned(_ a: JavaDecimal, _ b: JavaDecimal) -> (Int128, Int128, Int)? {
        let s = Swift.max(a.scale, b.scale)
        guard let x = scaledUp(a.magnitude, s - a.scale), let y = scaledUp(b.magnitude, s - b.scale) else { return nil }
        return (a.isNegative ? -Int128(x) : Int128(x), b.isNegative ? -Int128(y) : Int128(y), s)
    }

    /// `a.add(b)`, exact; `nil` past 38 digits.
    static func + (a: JavaDecimal, b: JavaDecimal) -> JavaDecimal? {
        if a.unscaled == 0 && a.scale <= b.scale { return b }
        if b.unscaled == 0 && b.scale <= a.scale { return a }
        guard let (x, y, s) = aligned(a, b) else { return nil }
        return JavaDecimal(unscaled: x + y, scale: s)  // |x + y| < 2·10^38 fits an Int128
    }

    /// `a.subtract(b)`, exact; `nil` past 38 digits.
    static func - (a: JavaDecimal, b: JavaDecimal) -> JavaDecimal? { a + b.negated() }

    /// `a.multiply(b)`, exact; `nil` past 38 digits.
    static func * (a: JavaDecimal, b: JavaDecimal) -> JavaDecimal? {
        let (p, o) = a.magnitude.multipliedReportingOverflow(by: b.magnitude)
        guard !o else { return nil }
        return JavaDecimal(negative: a.isNegative != b.isNegative && p != 0, magnitude: p, scale: a.scale + b.scale)
    }

    /// `compareTo`: exact.
    static func compare(_ a: JavaDecimal, _ b: JavaDecimal) -> Int {
        if a.signum != b.signum { return a.signum < b.signum ? -1 : 1 }
        if a.signum == 0 { return 0 }
        // Same sign: the adjusted exponents order the magnitudes unless they are equal.
        let ea = digitCount(a.magnitude) - 1 - a.scale, eb = digitCount(b.magnitude) - 1 - b.scale
        var order: Int
        if ea != eb {
            order = ea < eb ? -1 : 1
        } else if let (x, y, _) = aligned(a, b) {
            order = x.magnitude < y.magnitude ? -1 : (x.magnitude > y.magnitude ? 1 : 0)
        } else {
            let (x, y) = (a.doubleValue.magnitude, b.doubleValue.magnitude)
            order = x < y ? -1 : (x > y ? 1 : 0)
        }
        return a.isNegative ? -order : order
    }

    /// What a rounding division gives.
    enum Quotient {
        case value(JavaDecimal)
        /// More than 38 digits.
        case tooLarge
        /// `RoundingMode.UNNECESSARY` and the quotient had to round (Java's "Rounding necessary").
        case roundingNecessary

        var value: JavaDecimal? { if case .value(let v) = self { v } else { nil } }
    }

    /// `a.divide(b, scale, mode)`: the quotient at exactly `scale` decimals (`NumberExtensions.operator_divide`
    /// uses scale 8, `HALF_UP`). b ≠ 0.
    static func divide(_ a: JavaDecimal, _ b: JavaDecimal, scale target: Int, _ mode: Rounding) -> Quotient {
        let negative = a.isNegative != b.isNegative
        let k = target + b.scale - a.scale  // quotient = |a| × 10^k / |b|
        let divisor = b.magnitude
        var q: UInt128
        var frac: Fraction
        if k >= 0 {
            q = a.magnitude / divisor
            var r = a.magnitude % divisor
            guard k <= 2 * Self.maxScale + Self.maxDigits else { return .tooLarge }
            for _ in 0..<k {
                guard q < limit / 10 else { return .tooLarge }
                let (d, rest) = Self.timesTen(r, divisor)
                q = q * 10 + d
                r = rest
            }
            frac = fraction(r, of: divisor)
        } else {
            let (big, o) = -k <= maxDigits ? divisor.multipliedReportingOverflow(by: pow10[-k]) : (0, true)
            if o {
                // |b| × 10^-k is past 2^128 > 2|a|: the quotient is 0 and less than half.
                q = 0
                frac = a.magnitude == 0 ? .zero : .lessThanHalf
            } else {
                q = a.magnitude / big
                frac = fraction(a.magnitude % big, of: big)
            }
        }
        guard let up = roundsUp(frac, odd: q % 2 == 1, negative: negative, mode) else { return .roundingNecessary }
        if up { q += 1 }
        guard let result = JavaDecimal(negative: negative && q != 0, magnitude: q, scale: target) else { return .tooLarge }
        return .value(result)
    }

    /// `(r × 10) / d` and its remainder, for r < d.
    private static func timesTen(_ r: UInt128, _ d: UInt128) -> (UInt128, UInt128) {
        if r <= UInt128.max / 10 { let t = r * 10; return (t / d, t % d) }
        let wide = r.multipliedFullWidth(by: 10)
        return d.dividingFullWidth(wide)
    }

    /// `a.divide(b, MathContext.DECIMAL128)` (Xbase's `BigDecimalExtensions.operator_divide`): 34 significant
    /// digits, `HALF_EVEN`; an exact quotient has its trailing zeros taken off down to the preferred scale
    /// `a.scale - b.scale` (`1 / 4` is `0.25`, `6 / 2` is `3`). b ≠ 0.
    static func divide128(_ a: JavaDecimal, _ b: JavaDecimal) -> JavaDecimal? {
        let preferred = a.scale - b.scale
        let negative = a.isNegative != b.isNegative
        if a.unscaled == 0 { return JavaDecimal(unscaled: 0, scale: Swift.max(-maxScale, Swift.min(maxScale, preferred))) }
        let precision = 34
        let d = b.magnitude
        var q = a.magnitude / d
        var r = a.magnitude % d
        var e = 0  // decimals generated (negative: digits dropped)
        var frac: Fraction
        let digits = q == 0 ? 0 : digitCount(q)
        if digits > precision {
            let drop = digits - precision
            let rest = q % pow10[drop]
            q /= pow10[drop]
            e = -drop
            frac = fraction(rest, of: pow10[drop])
            if r != 0 { frac = frac == .zero ? .lessThanHalf : (frac == .half ? .moreThanHalf : frac) }
        } else {
            var have = digits
            while r != 0 && have < precision {
                let (digit, rest) = timesTen(r, d)
                q = q * 10 + digit
                r = rest
                e += 1
                if q != 0 { have = digitCount(q) }
            }
            frac = fraction(r, of: d)
        }
        if roundsUp(frac, odd: q % 2 == 1, negative: negative, .halfEven) == true {
            q += 1
            if q == pow10[precision] { q /= 10; e -= 1 }
        }
        var scale = preferred + e
        if frac == .zero {
            while scale > preferred, q % 10 == 0 { q /= 10; scale -= 1 }
        }
        return JavaDecimal(negative: negative, magnitude: q, scale: scale)
    }

    /// `setScale(n, mode)`.
    func setScale(_ n: Int, _ mode: Rounding) -> Quotient {
        if n >= scale {
            guard let m = Self.scaledUp(magnitude, n - scale), let v = JavaDecimal(negative: isNegative, magnitude: m, scale: n) else { return .tooLarge }
            return .value(v)
        }
        return Self.divide(self, JavaDecimal(1), scale: n, mode)
    }

    /// `a.pow(n)`, exact, 0 ≤ n; `nil` past 38 digits.
    func power(_ n: Int) -> JavaDecimal? {
        if scale == 0, magnitude <= 1 { return n == 0 ? JavaDecimal(1) : (isNegative && n % 2 == 0 ? negated() : self) }
        guard n <= 2 * Self.maxScale else { return nil }  // any other base leaves 38 digits or the scale range
        var result = JavaDecimal(1)
        for _ in 0..<n {
            guard let next = result * self else { return nil }
            result = next
        }
        return result
    }

    /// The integer part, rounding toward zero (`a.divideToIntegralValue` for `%`).
    static func remainder(_ a: JavaDecimal, _ b: JavaDecimal) -> JavaDecimal? {
        guard case .value(let q) = divide(a, b, scale: 0, .down), let p = q * b else { return nil }
        return a - p
    }
}
