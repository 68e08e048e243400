import Simulation

/// What `DecimalNumber(value, fractionDigits:)` is made from: equal keys make equal numbers, with
/// the same text and value.
///
/// A device that reports a slowly changing reading with a few decimals (a meter's `1.234 kWh`)
/// compares keys to skip printing a reading whose text cannot have changed.
public struct FixedPointKey: Hashable, Sendable {
    /// `|value|·10^digits` rounded by ``DecimalText``'s rule, or the value's bits when it does not fit.
    let magnitude: UInt64
    let negative: Bool
    /// The fraction digits, 0…15.
    let digits: Int8
    /// Whether ``magnitude`` is the rounded magnitude (else the value's bits).
    let fits: Bool

    private init(magnitude: UInt64, negative: Bool, digits: Int8, fits: Bool) {
        self.magnitude = magnitude
        self.negative = negative
        self.digits = digits
        self.fits = fits
    }

    /// The key of `DecimalNumber(value, fractionDigits: fractionDigits)`.
    public init(_ value: Double, fractionDigits: Int) {
        let v = value.isFinite ? value : 0  // as DecimalNumber.init(_:fractionDigits:)
        let digits = max(0, min(fractionDigits, 15))
        guard let integer = DecimalText.scaledMagnitude(v, places: digits) else {
            self.init(magnitude: v.bitPattern, negative: false, digits: Int8(digits), fits: false)
            return
        }
        self.init(magnitude: integer, negative: v < 0 && integer != 0, digits: Int8(digits), fits: true)
    }
}
