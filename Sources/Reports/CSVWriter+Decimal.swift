extension CSVWriter {
    /// `value` with exactly `places` decimals, `.` as separator, no grouping, whatever the locale.
    ///
    /// Rounds half away from zero on the shortest decimal form that reads back as `value`
    /// (Swift's `description`), so `2.675` gives `2.68` and `1.0005` gives `1.001` — what a
    /// person reading the number expects, though the binary doubles lie a hair below. A result
    /// that rounds to zero never carries a sign: `-0.0001` and `-0.0` give `0.000`.
    /// - Parameters:
    ///   - value: the number; must be finite.
    ///   - places: decimals to print, 0 or more.
    /// - Throws: ``ReportsError`` `report.nonFinite` for NaN or ±infinity: a report never
    ///   prints `nan` or `inf`, and an empty field would hide a broken meter.
    public static func decimal(_ value: Double, places: Int) throws(ReportsError) -> String {
        guard value.isFinite else {
            throw ReportsError(.nonFiniteNumber,
                               "A report figure is \(value), not a finite number; a meter or snapshot is broken, so the report was not written.")
        }
        let places = max(0, places)
        // Shortest round-trip digits of |value| and where its decimal point sits.
        let text = "\(value.magnitude)"
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1)
        let integerDigits = Array(mantissa[0].utf8).map { Int($0) - 48 }
        let fractionDigits = mantissa.count > 1 ? Array(mantissa[1].utf8).map { Int($0) - 48 } : []
        let digits = integerDigits + fractionDigits
        let pointPosition = integerDigits.count + exponent
        // The digits of round(|value| × 10^places), most significant first.
        let keep = pointPosition + places
        var scaled: [Int]
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
        // Drop leading zeros, then pad so there is at least one integer digit.
        while let first = scaled.first, first == 0 { scaled.removeFirst() }
        let isZero = scaled.isEmpty
        if scaled.count < places + 1 { scaled = Array(repeating: 0, count: places + 1 - scaled.count) + scaled }
        let characters = scaled.map { Character(Unicode.Scalar(UInt8(48 + $0))) }
        var result = String(characters[0..<(characters.count - places)])
        if places > 0 { result += "." + String(characters[(characters.count - places)...]) }
        return value < 0 && !isZero ? "-" + result : result
    }

    /// Like ``decimal(_:places:)``, for an optional figure: `nil` gives an empty field.
    public static func decimal(_ value: Double?, places: Int) throws(ReportsError) -> String {
        guard let value else { return "" }
        return try decimal(value, places: places)
    }
}
