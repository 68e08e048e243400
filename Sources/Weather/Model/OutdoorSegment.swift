import Simulation

/// A stretch of time in which the outdoor temperature is exactly linear:
/// `T_out(t) = startC + slopeKPerSecond · (t − start)` for `start ≤ t < end`.
///
/// Every weather source describes its temperature as a chain of such segments, so the
/// physics engine can use the closed form of the 1R1C zone for a linear outdoor temperature
/// and schedule a recomputation at ``end``. A segment with no ``start`` has always been
/// there and is flat (its slope is 0); a segment with no ``end`` lasts forever.
public struct OutdoorSegment: Sendable, Equatable, CustomStringConvertible {
    /// Where the segment begins (inclusive), or `nil` when it has no beginning (then it is flat).
    public let start: SimInstant?
    /// Where the segment ends (exclusive: the next segment starts here), or `nil` for never.
    public let end: SimInstant?
    /// The temperature at ``start``, °C (throughout, when ``start`` is `nil`).
    public let startC: Double
    /// The rate of change, kelvin per second (0 when ``start`` is `nil`).
    public let slopeKPerSecond: Double

    /// Creates a segment; a `nil` start forces the slope to 0.
    public init(start: SimInstant?, end: SimInstant?, startC: Double, slopeKPerSecond: Double) {
        self.start = start
        self.end = end
        self.startC = startC
        self.slopeKPerSecond = start == nil ? 0 : slopeKPerSecond
    }

    /// A flat segment of `tempC` from `start` to `end`.
    static func flat(_ tempC: Double, from start: SimInstant?, to end: SimInstant?) -> OutdoorSegment {
        OutdoorSegment(start: start, end: end, startC: tempC, slopeKPerSecond: 0)
    }

    /// Whether `instant` lies in `[start, end)`.
    public func contains(_ instant: SimInstant) -> Bool {
        if let start, instant < start { return false }
        if let end, instant >= end { return false }
        return true
    }

    /// The temperature at `instant`, °C: `startC + slopeKPerSecond · (instant − start)` in seconds.
    ///
    /// Every weather source computes its ``WeatherSample/tempC`` with exactly this
    /// expression, so the two agree to the last bit.
    public func temperatureC(at instant: SimInstant) -> Double {
        guard let start else { return startC }
        return startC + slopeKPerSecond * (instant - start).seconds
    }

    /// The duration of the segment, or `nil` if it is unbounded on either side.
    public var duration: SimDuration? {
        guard let start, let end else { return nil }
        return end - start
    }

    /// `[start, end) startC + slope·t`, for diagnostics.
    public var description: String {
        let from = start.map { "\($0)" } ?? "-∞"
        let to = end.map { "\($0)" } ?? "∞"
        return "[\(from), \(to)) \(NumberText.plain(startC)) °C + \(NumberText.plain(slopeKPerSecond)) K/s"
    }
}
