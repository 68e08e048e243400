/// The body of a successful `GET /data/2.5/weather` (current weather), exactly as
/// OpenWeatherMap sends it.
///
/// Properties are declared in wire order, so ``OrderedJSONEncoder`` writes
/// `coord, weather, base, main, visibility, wind, clouds, rain, snow, dt, sys, timezone, id, name, cod`
/// (`rain`/`snow` only when present).
public struct OWMCurrentWeather: Sendable, Equatable, Codable {
    /// The city's location.
    public var coord: OWMCoordinates
    /// The conditions (the first is the main one).
    public var weather: [OWMWeatherEntry]
    /// Internal parameter; always `"stations"`.
    public var base: String
    /// Temperatures, pressure, humidity.
    public var main: OWMMain
    /// Visibility, m (at most 10 000).
    public var visibility: Int?
    /// Wind.
    public var wind: OWMWind
    /// Cloud cover.
    public var clouds: OWMClouds
    /// Rain over the last hour, only when it rains.
    public var rain: OWMPrecipitation?
    /// Snow over the last hour, only when it snows.
    public var snow: OWMPrecipitation?
    /// Observation time, Unix seconds.
    public var dt: Int64
    /// Country, sunrise, sunset.
    public var sys: OWMSys
    /// UTC offset of the city at ``dt``, seconds.
    public var timezone: Int
    /// OpenWeatherMap city id.
    public var id: Int
    /// City name.
    public var name: String
    /// `200`.
    public var cod: OWMCode

    /// Creates a response.
    public init(coord: OWMCoordinates, weather: [OWMWeatherEntry], base: String = "stations", main: OWMMain,
                visibility: Int?, wind: OWMWind, clouds: OWMClouds, rain: OWMPrecipitation? = nil,
                snow: OWMPrecipitation? = nil, dt: Int64, sys: OWMSys, timezone: Int, id: Int, name: String,
                cod: OWMCode = .number(200)) {
        self.coord = coord
        self.weather = weather
        self.base = base
        self.main = main
        self.visibility = visibility
        self.wind = wind
        self.clouds = clouds
        self.rain = rain
        self.snow = snow
        self.dt = dt
        self.sys = sys
        self.timezone = timezone
        self.id = id
        self.name = name
        self.cod = cod
    }
}
