/// `sys` of the current-weather response: country code and the day's sunrise and sunset.
public struct OWMSys: Sendable, Equatable, Codable {
    /// ISO 3166 country code (`HU`).
    public var country: String?
    /// Sunrise, Unix seconds (0 when the sun does not rise or set that day).
    public var sunrise: Int64
    /// Sunset, Unix seconds (0 when the sun does not rise or set that day).
    public var sunset: Int64

    /// Creates the block.
    public init(country: String?, sunrise: Int64, sunset: Int64) {
        self.country = country
        self.sunrise = sunrise
        self.sunset = sunset
    }
}
