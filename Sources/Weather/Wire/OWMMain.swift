/// `main`: temperatures (in the requested units), pressure (hPa) and humidity (%).
///
/// The current-weather response has the first eight fields; forecast entries add `temp_kf`.
public struct OWMMain: Sendable, Equatable, Codable {
    /// Temperature (K, °C or °F by `units`).
    public var temp: Double
    /// Apparent temperature, same unit.
    public var feelsLike: Double
    /// Minimum currently observed in the area, same unit.
    public var tempMin: Double
    /// Maximum currently observed in the area, same unit.
    public var tempMax: Double
    /// Sea-level pressure, hPa.
    public var pressure: Int
    /// Relative humidity, %.
    public var humidity: Int
    /// Sea-level pressure, hPa.
    public var seaLevel: Int?
    /// Pressure at ground level, hPa.
    public var grndLevel: Int?
    /// Forecast-internal temperature correction (forecast entries only; the feed sends 0).
    public var tempKf: Double?

    /// The wire names, in wire order.
    enum CodingKeys: String, CodingKey {
        case temp
        case feelsLike = "feels_like"
        case tempMin = "temp_min"
        case tempMax = "temp_max"
        case pressure
        case humidity
        case seaLevel = "sea_level"
        case grndLevel = "grnd_level"
        case tempKf = "temp_kf"
    }

    /// Creates the block.
    public init(temp: Double, feelsLike: Double, tempMin: Double, tempMax: Double, pressure: Int, humidity: Int,
                seaLevel: Int? = nil, grndLevel: Int? = nil, tempKf: Double? = nil) {
        self.temp = temp
        self.feelsLike = feelsLike
        self.tempMin = tempMin
        self.tempMax = tempMax
        self.pressure = pressure
        self.humidity = humidity
        self.seaLevel = seaLevel
        self.grndLevel = grndLevel
        self.tempKf = tempKf
    }
}
