/// Locale-independent decimal text of a `Double`: the one rounding rule of every printed figure.
///
/// openHAB prints a state with a fixed number of decimals through Java's `Formatter` on a
/// `BigDecimal` made by `BigDecimal.valueOf(double)` — the double's shortest round-trip decimal
/// text — rounding `HALF_UP`. The twin does the same everywhere a figure is printed with a fixed
/// number of decimals: Item states (`DecimalNumber`, `Quantity`), the CSV reports and the charts.
///
/// **The rule:** take the shortest decimal text that reads back as the value (Swift's
/// `description`, which equals Java's `BigDecimal.valueOf`), and round it half away from zero.
/// So `25.849999999999998` at one decimal is `25.8` (the digit after the `8` is a `4`), and
/// `2.675` at two decimals is `2.68` (the text is `2.675`, although the binary value lies a hair
/// below). A result that rounds to zero carries no sign: `-0.0001` at three decimals is `0.000`.
///
/// Most values take a fast path (one multiplication); a product within a few ulps of a half is
/// compared with that half as a double, and only a huge one (≥ 2^50) reads the digits, so every
/// path gives the rule's answer.
public enum DecimalText {
    /// The shortest JSON number text that reads back as `value`: integral values without a
    /// fraction (`1013`, `-3`), others in Swift's round-trip form (`-3.2`, `269.95`); `-0` is `0`.
    ///
    /// - Returns: `nil` for NaN and infinities, which JSON cannot represent.
    public static func json(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return value.description
    }

    /// `value` with exactly `places` decimals, `.` as separator, no grouping, rounded by the rule.
    ///
    /// - Parameters:
    ///   - value: The number; must be finite (NaN and infinities print as `nan`, `inf`).
    ///   - places: Decimals to print; negative counts as 0.
    /// - Returns: e.g. `fixed(25.849999999999998, places: 1) == "25.8"`.
    public static func fixed(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return value.description }
        let places = max(0, places)
        if places <= 15, let scaled = scaledMagnitude(value, places: places) {
            return text(ofScaled: scaled, places: places, negative: value < 0 && scaled != 0)
        }
        let digits = exactScaledDigits(value.magnitude, places: places)
        return render(digits, places: places, negative: value < 0 && !digits.isEmpty)
    }

    /// `|value|·10^places` rounded by the rule, as an integer; `nil` when it does not fit (≥ 9·10^18)
    /// or `places` is outside 0…15.
    ///
    /// Equal results make equal ``fixed(_:places:)`` texts; a reading compares them to skip
    /// printing a text that cannot have changed.
    public static func scaledMagnitude(_ value: Double, places: Int) -> UInt64? {
        guard value.isFinite, (0...15).contains(places) else { return nil }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }  // exact: 10^15 < 2^53
        let product = value.magnitude * scale
        guard product < 9.0e18 else { return nil }
        let floor = product.rounded(.down)
        // The product is within one rounding of |value|·10^places, and the shortest text within half
        // an ulp of |value|: away from a half both round the same way; near one, read the digits.
        if abs(product - floor - 0.5) > product * 1e-15 + 1e-300 {
            return UInt64(product.rounded(.toNearestOrAwayFromZero))
        }
        // Near a half (a 0.5 W standby metered at whole hours gives one every other hour): the half
        // itself, `floor.5·10^-places`, as the nearest double (one correctly rounded division of two
        // exact integers). If it is the value, the shortest text is that half (no shorter text lies
        // within an ulp, at this size) and rounds up; otherwise the shortest text lies on the value's
        // side of it.
        if product < 0x1p50 {
            let half = (2 * floor + 1) / (2 * scale)
            return UInt64(floor) + (value.magnitude >= half ? 1 : 0)
        }
        var integer: UInt64 = 0
        for digit in exactScaledDigits(value.magnitude, places: places) {
            integer = integer * 10 + UInt64(digit)
        }
        return integer
    }

    /// The digits of `round(magnitude·10^places)` by the rule, most significant first, without
    /// leading zeros (empty for zero), worked out on the shortest decimal text of `magnitude`.
    static func exactScaledDigits(_ magnitude: Double, places: Int) -> [UInt8] {
        let text = magnitude.description
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1)
        let integerDigits = mantissa[0].utf8.map { $0 &- UInt8(ascii: "0") }
        let fractionDigits = mantissa.count > 1 ? mantissa[1].utf8.map { $0 &- UInt8(ascii: "0") } : []
        let digits = integerDigits + fractionDigits
        let keep = integerDigits.count + exponent + places
        var scaled: [UInt8]
        if keep < 0 {
            scaled = []
        } else if keep >= digits.count {
            scaled = digits + Array(repeating: 0, count: keep - digits.count)
        } else {
            scaled = Array(digits[0..<keep])
            if digits[keep] >= 5 {
                var index = scaled.count - 1
                while index >= 0, scaled[index] == 9 {
                    scaled[index] = 0
                    index -= 1
                }
                if index >= 0 { scaled[index] += 1 } else { scaled.insert(1, at: 0) }
            }
        }
        return Array(scaled.drop(while: { $0 == 0 }))
    }

    /// `[-]whole.fraction` of `integer / 10^places` (a ``scaledMagnitude(_:places:)`` result), written
    /// right to left into a stack buffer.
    ///
    /// - Parameters:
    ///   - integer: The scaled magnitude.
    ///   - places: Decimals, 0…15.
    ///   - negative: Whether to print a minus sign (never for zero, by the rule).
    public static func text(ofScaled integer: UInt64, places: Int, negative: Bool) -> String {
        withBytes(ofScaled: integer, places: places, negative: negative) { String(decoding: $0, as: UTF8.self) }
    }

    /// The UTF-8 bytes of ``text(ofScaled:places:negative:)``, handed to `body` from the stack buffer.
    private static func withBytes<Result>(ofScaled integer: UInt64, places: Int, negative: Bool,
                                          _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer -> Result in
            var rest = integer
            var start = buffer.count
            func prepend(_ byte: UInt8) {
                start -= 1
                buffer[start] = byte
            }
            for _ in 0..<places {
                prepend(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
                rest /= 10
            }
            if places > 0 { prepend(UInt8(ascii: ".")) }
            repeat {
                prepend(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
                rest /= 10
            } while rest > 0
            if negative { prepend(UInt8(ascii: "-")) }
            return body(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Appends ``fixed(_:places:)`` of `value` to `bytes` as UTF-8, without making a `String` on the
    /// usual path (a report appends millions of figures): the figure is written in a stack buffer
    /// and appended at once.
    public static func appendFixed(_ value: Double, places: Int, to bytes: inout [UInt8]) {
        let places = max(0, places)
        guard places <= 15, let scaled = scaledMagnitude(value, places: places) else {
            bytes.append(contentsOf: fixed(value, places: places).utf8)
            return
        }
        withBytes(ofScaled: scaled, places: places, negative: value < 0 && scaled != 0) { bytes.append(contentsOf: $0) }
    }

    /// Appends the decimal digits of `value`, padded with leading zeros to `minimumCount`.
    public static func appendDigits(of value: UInt64, minimumCount: Int = 1, to bytes: inout [UInt8]) {
        withBytes(ofScaled: value, places: 0, negative: false) { digits in
            if minimumCount > digits.count { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: minimumCount - digits.count)) }
            bytes.append(contentsOf: digits)
        }
    }

    /// `[-]whole.fraction` of a digit string scaled by `10^places` (any length).
    private static func render(_ digits: [UInt8], places: Int, negative: Bool) -> String {
        var padded = digits
        if padded.count < places + 1 { padded = Array(repeating: 0, count: places + 1 - padded.count) + padded }
        var bytes = negative ? [UInt8(ascii: "-")] : []
        let wholeCount = padded.count - places
        bytes += padded[0..<wholeCount].map { $0 &+ UInt8(ascii: "0") }
        if places > 0 {
            bytes.append(UInt8(ascii: "."))
            bytes += padded[wholeCount...].map { $0 &+ UInt8(ascii: "0") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
