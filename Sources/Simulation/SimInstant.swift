/// A point on the virtual timeline: milliseconds since 1970-01-01T00:00:00Z.
///
/// The simulation never reads the wall clock; every instant comes from a scenario or from
/// ``SimulationKernel/now``. Using the Unix epoch keeps OpenWeatherMap's `dt` and openHAB
/// timestamps a plain division away.
public struct SimInstant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch (UTC).
    public var unixMilliseconds: Int64

    /// Creates the instant `unixMilliseconds` ms after the Unix epoch.
    public init(unixMilliseconds: Int64) { self.unixMilliseconds = unixMilliseconds }

    /// Creates the instant `unixSeconds` s after the Unix epoch.
    public init(unixSeconds: Int64) { self.unixMilliseconds = unixSeconds * 1_000 }

    /// The Unix epoch itself.
    public static let epoch = SimInstant(unixMilliseconds: 0)

    /// Whole seconds since the Unix epoch, rounded down (OpenWeatherMap's `dt`).
    public var unixSeconds: Int64 {
        unixMilliseconds >= 0 ? unixMilliseconds / 1_000 : (unixMilliseconds - 999) / 1_000
    }

    public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool { lhs.unixMilliseconds < rhs.unixMilliseconds }
    public static func + (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
        SimInstant(unixMilliseconds: lhs.unixMilliseconds + rhs.milliseconds)
    }
    public static func - (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
        SimInstant(unixMilliseconds: lhs.unixMilliseconds - rhs.milliseconds)
    }
    public static func - (lhs: SimInstant, rhs: SimInstant) -> SimDuration {
        SimDuration(milliseconds: lhs.unixMilliseconds - rhs.unixMilliseconds)
    }
    public static func += (lhs: inout SimInstant, rhs: SimDuration) { lhs = lhs + rhs }

    /// UTC in ISO 8601, e.g. `2026-01-09T15:00:00Z` (milliseconds shown only when non-zero).
    public var description: String {
        let (days, msOfDay) = unixMilliseconds.floorDivided(by: 86_400_000)
        let date = CivilDate(daysSinceEpoch: days)
        let time = LocalTime(millisecondOfDay: msOfDay)
        return "\(date)T\(time.isoString)Z"
    }
}

extension Int64 {
    /// Floor division and the matching non-negative remainder (`-1 ÷ 60` is `-1` remainder `59`).
    @inlinable
    public func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let q = self / divisor, r = self % divisor
        return r < 0 ? (q - 1, r + divisor) : (q, r)
    }
}
