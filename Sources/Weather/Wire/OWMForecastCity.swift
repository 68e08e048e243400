/// `city` of a forecast response.
public struct OWMForecastCity: Sendable, Equatable, Codable {
    /// OpenWeatherMap city id.
    public var id: Int
    /// City name.
    public var name: String
    /// Location.
    public var coord: OWMCoordinates
    /// ISO 3166 country code.
    public var country: String?
    /// Population (0 when unknown).
    public var population: Int?
    /// UTC offset at the time of the request, seconds.
    public var timezone: Int
    /// Sunrise of the request's local day, Unix seconds.
    public var sunrise: Int64
    /// Sunset of the request's local day, Unix seconds.
    public var sunset: Int64

    /// Creates the block.
    public init(id: Int, name: String, coord: OWMCoordinates, country: String?, population: Int?, timezone: Int,
                sunrise: Int64, sunset: Int64) {
        self.id = id
        self.name = name
        self.coord = coord
        self.country = country
        self.population = population
        self.timezone = timezone
        self.sunrise = sunrise
        self.sunset = sunset
    }
}
