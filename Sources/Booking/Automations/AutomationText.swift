import Simulation
import SmartHome

/// Locale-independent number and time texts for automation log reasons.
enum AutomationText {
    /// `21.0 °C`.
    static func celsius(_ value: Double) -> String { "\(DecimalNumber(value, fractionDigits: 1).text) °C" }

    /// `21.07 °C`, for predictions.
    static func celsius2(_ value: Double) -> String { "\(DecimalNumber(value, fractionDigits: 2).text) °C" }

    /// A setpoint command openHAB parses: `21`, `21.5`.
    static func setpointCommand(_ value: Double) -> String { DecimalNumber(value).text }

    /// `2026-01-09T15:00` in `calendar`.
    static func local(_ instant: SimInstant, _ calendar: LocalCalendar) -> String {
        calendar.localDateTime(at: instant).description
    }

    /// The number at the start of a state text (`"16.3 °C"` → 16.3), or `nil` for `NULL`, `UNDEF`, …
    static func number(fromState text: String) -> Double? {
        guard let first = text.split(separator: " ").first else { return nil }
        var digits = String(first)
        if let unitStart = digits.firstIndex(where: { !("0"..."9").contains($0) && $0 != "." && $0 != "-" && $0 != "+" && $0 != "e" && $0 != "E" }) {
            digits = String(digits[..<unitStart])
        }
        guard let value = Double(digits), value.isFinite else { return nil }
        return value
    }
}
