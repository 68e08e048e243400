/// Locale-independent number formatting and rounding shared by the wire model and messages.
enum NumberText {
    /// The shortest text that reads back as `value`: integral values without a fraction
    /// (`1013`, `-3`), others in Swift's round-trip form (`-3.2`, `269.95`); `-0` prints as `0`.
    ///
    /// Swift's `description` of a floating-point number never depends on the locale.
    /// - Returns: `nil` for NaN and infinities, which JSON cannot represent.
    static func json(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return value.description
    }

    /// Like ``json(_:)-swift.type.method`` but never `nil` (non-finite values print as `nan`, `inf`):
    /// for error messages.
    static func plain(_ value: Double) -> String {
        json(value) ?? value.description
    }

    /// `value` rounded half away from zero to `decimals` decimal places.
    static func rounded(_ value: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
