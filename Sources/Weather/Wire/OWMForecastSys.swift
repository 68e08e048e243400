/// `sys` of a forecast entry: the part of the day, `"d"` or `"n"`.
public struct OWMForecastSys: Sendable, Equatable, Codable {
    /// `"d"` between sunrise and sunset, `"n"` otherwise.
    public var pod: String

    /// Creates the block.
    public init(pod: String) { self.pod = pod }
}
