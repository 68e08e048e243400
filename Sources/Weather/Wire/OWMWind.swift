/// `wind`: speed (m/s, or mph for imperial units) and direction (degrees).
public struct OWMWind: Sendable, Equatable, Codable {
    /// Wind speed, m/s (mph for `units=imperial`).
    public var speed: Double
    /// Direction the wind comes from, degrees.
    public var deg: Int
    /// Gust speed, same unit as ``speed``: in every forecast entry, never in the feed's current weather.
    public var gust: Double?

    /// Creates the block.
    public init(speed: Double, deg: Int, gust: Double? = nil) {
        self.speed = speed
        self.deg = deg
        self.gust = gust
    }
}
