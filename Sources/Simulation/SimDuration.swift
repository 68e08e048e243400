/// A span of virtual time, exact to the millisecond.
///
/// Durations are integers so that a year of simulated time accumulates no rounding error.
/// Physics code that needs real numbers uses ``seconds`` and converts back with
/// ``seconds(roundingUp:)`` (which rounds up, so a scheduled crossing is never early).
public struct SimDuration: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The length in milliseconds (may be negative).
    public var milliseconds: Int64

    /// Creates a duration of `milliseconds` ms.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The zero-length duration.
    public static let zero = SimDuration(milliseconds: 0)

    /// A duration of whole milliseconds.
    public static func milliseconds(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value) }
    /// A duration of whole seconds.
    public static func seconds(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value * 1_000) }
    /// A duration of whole minutes.
    public static func minutes(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value * 60_000) }
    /// A duration of whole hours.
    public static func hours(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value * 3_600_000) }
    /// A duration of whole 24-hour days (not calendar days: see ``LocalCalendar`` for those).
    public static func days(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value * 86_400_000) }

    /// A duration from a real number of seconds, rounded **up** to the next millisecond.
    ///
    /// Rounding up means an event scheduled at a computed crossing time never fires before
    /// the crossing. Non-finite or negative inputs give `nil`.
    public static func seconds(roundingUp value: Double) -> SimDuration? {
        guard value.isFinite, value >= 0, value < 9.0e15 else { return nil }
        return SimDuration(milliseconds: Int64((value * 1_000).rounded(.up)))
    }

    /// The length in seconds as a real number (exact for any duration under 285 years).
    public var seconds: Double { Double(milliseconds) / 1_000 }

    /// The length in hours as a real number.
    public var hours: Double { Double(milliseconds) / 3_600_000 }

    public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool { lhs.milliseconds < rhs.milliseconds }
    public static func + (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(milliseconds: lhs.milliseconds + rhs.milliseconds)
    }
    public static func - (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(milliseconds: lhs.milliseconds - rhs.milliseconds)
    }
    public static func * (lhs: SimDuration, rhs: Int64) -> SimDuration {
        SimDuration(milliseconds: lhs.milliseconds * rhs)
    }

    /// ISO 8601 form, e.g. `PT1H30M`, `P1DT6H`, `PT0.5S`, `PT0S`.
    public var description: String { ISODuration.format(self) }
}
