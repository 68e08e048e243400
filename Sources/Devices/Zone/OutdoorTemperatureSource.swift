import Simulation

/// A stretch of time over which the outdoor temperature is exactly linear.
public struct OutdoorTemperatureSegment: Sendable, Hashable {
    /// Where the stretch starts.
    public let start: SimInstant
    /// Where it ends (exclusive), or `nil` if it never does.
    public let end: SimInstant?
    /// The temperature at ``start``, °C.
    public let celsiusAtStart: Double
    /// The rate of change, K per second (0 for constant).
    public let slopeKPerSecond: Double

    /// Creates a segment.
    public init(start: SimInstant, end: SimInstant?, celsiusAtStart: Double, slopeKPerSecond: Double) {
        self.start = start
        self.end = end
        self.celsiusAtStart = celsiusAtStart
        self.slopeKPerSecond = slopeKPerSecond
    }

    /// The temperature at `instant`, °C.
    public func celsius(at instant: SimInstant) -> Double {
        celsiusAtStart + slopeKPerSecond * (instant - start).seconds
    }
}

/// Where a zone learns the outdoor temperature: piecewise linear, so the physics stays exact.
///
/// The world builder adapts the scenario's weather to this; tests use ``ConstantOutdoorTemperature``.
///
/// A source must be a function of the instant: every instant of a segment gets that same segment
/// (or, for a flat one, the same temperature). A ``ThermalZone`` keeps the segment it was given and
/// asks again only when time leaves it — it already plans its physics on the segment up to its end.
public protocol OutdoorTemperatureSource: Sendable {
    /// The linear segment containing `instant` (segments are half-open: `[start, end)`).
    func outdoorSegment(at instant: SimInstant) -> OutdoorTemperatureSegment
}

/// A fixed outdoor temperature.
public struct ConstantOutdoorTemperature: OutdoorTemperatureSource {
    /// The temperature, °C.
    public let celsius: Double

    /// A constant outdoor temperature of `celsius` °C.
    public init(celsius: Double) { self.celsius = celsius }

    public func outdoorSegment(at instant: SimInstant) -> OutdoorTemperatureSegment {
        OutdoorTemperatureSegment(start: instant, end: nil, celsiusAtStart: celsius, slopeKPerSecond: 0)
    }
}
