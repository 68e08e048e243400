import Simulation

/// Locale-independent number formatting and rounding shared by the wire model and messages.
enum NumberText {
    /// Like ``DecimalText/json(_:)`` but never `nil` (non-finite values print as `nan`, `inf`):
    /// for error messages.
    static func plain(_ value: Double) -> String {
        DecimalText.json(value) ?? value.description
    }

    /// `value` rounded half away from zero to `decimals` decimal places.
    static func rounded(_ value: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
