import Simulation

/// A number as openHAB's `DecimalType` holds it: a value plus the exact text it prints as.
///
/// openHAB keeps `BigDecimal`s, so `21` prints as `21`, `21.50` as `21.50`, and a number that
/// came from a Java `double` prints as `Double.toString` does (`21.0`). The twin keeps the
/// value as a `Double` for arithmetic and the text for output; equality compares values only
/// (like `BigDecimal.compareTo`), so `21` and `21.0` are the same state.
public struct DecimalNumber: Sendable, Hashable, CustomStringConvertible, Comparable {
    /// The numeric value.
    public let value: Double
    /// The text openHAB would print.
    public let text: String

    /// Parses a decimal text the way openHAB's `DecimalType(String)` does with an English number
    /// format (`21`, `-0.5`, `1e3`, `.5`, `1E-05`): a comma is a *grouping* separator, so `21,5` is
    /// 215 and `2,000.5` is 2000.5 — a real openHAB trap the twin shows rather than hides.
    /// Returns `nil` for anything else (empty, `NaN`, `+22`, `2.5E+3`, `0x10`, spaces).
    public init?(parsing text: some StringProtocol) {
        if let integer = Self.plainInteger(text.utf8) {
            // The common case (`1`, `-20`, what rules and REST clients post most): the same value and text as below.
            value = integer
            self.text = String(text)
            return
        }
        guard Self.isJavaDecimal(String(text)) else { return nil }
        let whole = String(text)
        // Foundation's replacingOccurrences bridges to NSString: only for a text that has a comma.
        let s = whole.utf8.contains(UInt8(ascii: ",")) ? whole.replacingOccurrences(of: ",", with: "") : whole
        guard let value = Double(s), value.isFinite else { return nil }
        self.value = value
        if s.contains(where: { $0 == "e" || $0 == "E" }) {
            // `new BigDecimal("1e3").toPlainString()` is `1000`, not `Double.toString`'s `1000.0`.
            self.text = Self(value).stateText
        } else {
            var plain = s
            if plain.hasPrefix(".") { plain = "0" + plain }
            if plain.hasPrefix("-.") { plain = "-0" + plain.dropFirst() }
            if plain.hasSuffix(".") { plain.removeLast() }
            self.text = plain
        }
    }

    /// A number that came from a `double`, printed like `BigDecimal.valueOf(double)`: `21.0`, `21.5`.
    public init(_ value: Double) {
        self.value = value.isFinite ? value : 0
        self.text = Self.javaDoubleText(self.value)
    }

    /// The number `DecimalNumber(value, fractionDigits:)` makes of the value `key` was made from, without
    /// rounding the value again: a device that compared keys to see whether its reading's text changed
    /// makes the new number from the key it already has.
    public init(_ key: FixedPointKey) {
        // A key that does not fit holds the (finite) value's bits: made as from the value.
        let fallback = key.fits ? 0 : Double(bitPattern: key.magnitude)
        let (text, exact) = key.fits
            ? Self.textAndValue(ofScaled: key.magnitude, places: Int(key.digits), negative: key.negative)
            : Self.fixedTextAndValue(fallback, fractionDigits: Int(key.digits))
        self.text = text
        self.value = exact ?? Double(text) ?? fallback
    }

    /// A `double` and its Java text in plain notation (`21.0`, `0.001`, `-0.0`: Java's `Double.toString` for
    /// 10⁻³ ≤ |value| < 10⁷ and zero): the number ``init(parsing:)`` makes of that text, without parsing it —
    /// the text's shortest digits read back as `value` itself.
    public init(_ value: Double, plainJavaText text: String) {
        assert(Self(parsing: text).map { $0.value.bitPattern == value.bitPattern && $0.text == text } == true,
               "\(text) is not the plain Java text of \(value)")
        self.value = value
        self.text = text
    }

    /// An integer, printed without a fraction: `0`, `60`.
    public init(integer: Int) {
        value = Double(integer)
        text = String(integer)
    }

    /// `value` rounded to `fractionDigits` (0…15) decimals by ``DecimalText``'s rule and printed with
    /// exactly that many (`21.3`, `0.125`; `25.849999999999998` at one decimal is `25.8`).
    public init(_ value: Double, fractionDigits: Int) {
        let v = value.isFinite ? value : 0
        let (text, exact) = Self.fixedTextAndValue(v, fractionDigits: fractionDigits)
        self.text = text
        self.value = exact ?? Double(text) ?? v
    }

    public var description: String { text }

    /// The text openHAB 5 shows for this number in a quantity state: whole numbers narrowed to integers and
    /// trailing fraction zeros dropped (`21.0` → `21`, `21.50` → `21.5`, `0.000` → `0`, `-0` → `0`),
    /// as `DecimalType`/`QuantityType` print through Indriya 2.2's number narrowing.
    public var stateText: String {
        var bytes = Array(text.utf8)
        if bytes.contains(UInt8(ascii: ".")) {
            while bytes.last == UInt8(ascii: "0") { bytes.removeLast() }
            if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        }
        if bytes == Array("-0".utf8) { return "0" }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func == (lhs: DecimalNumber, rhs: DecimalNumber) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
    public static func < (lhs: DecimalNumber, rhs: DecimalNumber) -> Bool { lhs.value < rhs.value }

    /// Java's `Double.toString` in plain notation: shortest round-trip digits, at least one fraction digit.
    static func javaDoubleText(_ value: Double) -> String {
        let swift = "\(value)"  // shortest round-trip digits
        // A byte search: `contains("e")` on a String resolves to Foundation's locale-aware substring search.
        guard swift.utf8.contains(UInt8(ascii: "e")) else { return swift }
        // Expand Swift's exponent form (1e-05, 1.5e+16) to plain decimal notation.
        let negative = value < 0
        let parts = swift.drop(while: { $0 == "-" }).split(separator: "e")
        guard parts.count == 2, let exponent = Int(parts[1]) else { return swift }
        let mantissa = String(parts[0])
        let digits = mantissa.replacingOccurrences(of: ".", with: "")
        let pointIndex = (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) + exponent
        var result: String
        if pointIndex <= 0 {
            result = "0." + String(repeating: "0", count: -pointIndex) + digits
        } else if pointIndex >= digits.count {
            result = digits + String(repeating: "0", count: pointIndex - digits.count) + ".0"
        } else {
            let i = digits.index(digits.startIndex, offsetBy: pointIndex)
            result = digits[..<i] + "." + digits[i...]
        }
        return (negative ? "-" : "") + result
    }

    /// ``DecimalText/fixed(_:places:)`` with at most 15 decimals, and the `Double` nearest to that text,
    /// worked out without parsing it.
    ///
    /// The text is exactly `±integer / 10^digits`; while `integer ≤ 2^53` it is an exact `Double` and
    /// `10^digits ≤ 10^15` is exact, so one IEEE division rounds that rational correctly — the same `Double` as
    /// `Double(text)`. A magnitude too large for that is parsed back from the text.
    static func fixedTextAndValue(_ value: Double, fractionDigits: Int) -> (text: String, value: Double?) {
        let digits = max(0, min(fractionDigits, 15))
        guard let integer = DecimalText.scaledMagnitude(value, places: digits) else {
            return (DecimalText.fixed(value, places: digits), nil)
        }
        return textAndValue(ofScaled: integer, places: digits, negative: value < 0 && integer != 0)
    }

    /// The text of `±integer / 10^digits` (a ``DecimalText/scaledMagnitude(_:places:)`` result) and the
    /// `Double` nearest to it, as ``fixedTextAndValue(_:fractionDigits:)`` gives them.
    static func textAndValue(ofScaled integer: UInt64, places digits: Int, negative: Bool) -> (text: String, value: Double?) {
        let text = DecimalText.text(ofScaled: integer, places: digits, negative: negative)
        // Beyond 2^53 the integer itself is not a Double; parse the text rather than round twice.
        guard integer <= 1 << 53 else { return (text, Double(text)) }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let magnitude = Double(integer) / scale
        return (text, negative ? -magnitude : magnitude)
    }

    /// The value of `-?digits` with at most 15 digits (every such integer is exact as a `Double`, as `Double(text)`
    /// gives it, `-0` as `-0.0`); `nil` for any other text.
    private static func plainInteger(_ bytes: some Collection<UInt8>) -> Double? {
        var magnitude: Int64 = 0, digits = 0, negative = false
        for byte in bytes {
            if digits == 0, !negative, byte == UInt8(ascii: "-") {
                negative = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 15 else { return nil }
            magnitude = magnitude * 10 + Int64(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -Double(magnitude) : Double(magnitude)
    }

    /// `-?(digit[digits,]*[.digits?]|.digits)([eE]-?digits)?` — what `DecimalType(String)` accepts
    /// through Java's English `DecimalFormat`: no `+` sign (neither in front nor in the exponent),
    /// commas as grouping separators anywhere in the integer part after its first digit.
    private static func isJavaDecimal(_ s: String) -> Bool {
        var bytes = Substring(s).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        var intPart = bytes.prefix(while: isDigit)
        if !intPart.isEmpty {
            intPart = bytes.prefix(while: { isDigit($0) || $0 == UInt8(ascii: ",") })
        }
        bytes = bytes.dropFirst(intPart.count)
        var fracCount = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            let frac = bytes.prefix(while: isDigit)
            fracCount = frac.count
            bytes = bytes.dropFirst(frac.count)
        }
        guard intPart.count + fracCount > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            let exp = bytes.prefix(while: isDigit)
            guard !exp.isEmpty else { return false }
            bytes = bytes.dropFirst(exp.count)
        }
        return bytes.isEmpty
    }
}

import Foundation
