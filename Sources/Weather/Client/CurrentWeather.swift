import Simulation

/// The current weather in a city as the booking services use it: SI units, typed fields.
///
/// Built by ``OpenWeatherMapClient`` from an ``OWMCurrentWeather`` in whatever units were
/// requested; temperatures are converted to °C and wind to m/s (rounded to 2 decimals).
public struct CurrentWeather: Sendable, Equatable {
    /// The city name the service reported.
    public let cityName: String
    /// OpenWeatherMap city id.
    public let cityID: Int
    /// ISO 3166 country code, if reported.
    public let countryCode: String?
    /// Latitude, degrees north.
    public let latitude: Double
    /// Longitude, degrees east.
    public let longitude: Double
    /// The observation time (`dt`).
    public let observedAt: SimInstant
    /// The city's UTC offset at ``observedAt``.
    public let utcOffset: SimDuration
    /// Air temperature, °C.
    public let tempC: Double
    /// Apparent temperature, °C.
    public let feelsLikeC: Double
    /// Relative humidity, %.
    public let humidity: Int
    /// Sea-level pressure, hPa.
    public let pressureHPa: Int
    /// The condition group.
    public let condition: WeatherCondition
    /// OpenWeatherMap's condition id.
    public let conditionID: Int
    /// The condition in words (`light snow`).
    public let conditionDescription: String
    /// Wind speed, m/s.
    public let windMps: Double
    /// Wind direction, degrees.
    public let windDeg: Int
    /// Cloud cover, %.
    public let cloudsPercent: Int
    /// Visibility, m, if reported.
    public let visibilityM: Int?
    /// Rain over the last hour, mm (0 when none was reported).
    public let rainLastHourMm: Double
    /// Snow over the last hour, mm (0 when none was reported).
    public let snowLastHourMm: Double
    /// Sunrise of the day, if the Sun rises.
    public let sunrise: SimInstant?
    /// Sunset of the day, if the Sun sets.
    public let sunset: SimInstant?

    /// Converts a decoded response given in `units`.
    /// - Throws: ``WeatherError`` `weather.decoding` when `weather` is empty or names no
    ///   known condition.
    public init(_ wire: OWMCurrentWeather, units: OWMUnits) throws(WeatherError) {
        guard let entry = wire.weather.first else {
            throw WeatherError(.decoding, "The current-weather answer for \(wire.name) has an empty \"weather\" list; the service sent no condition.")
        }
        guard let condition = WeatherCondition(rawValue: entry.main) ?? WeatherCondition(owmConditionID: entry.id) else {
            throw WeatherError(.decoding, "The current-weather answer for \(wire.name) has condition \"\(entry.main)\" (id \(entry.id)), which is not an OpenWeatherMap condition group.")
        }
        cityName = wire.name
        cityID = wire.id
        countryCode = wire.sys.country
        latitude = wire.coord.lat
        longitude = wire.coord.lon
        observedAt = SimInstant(unixSeconds: wire.dt)
        utcOffset = .seconds(Int64(wire.timezone))
        tempC = units.celsius(fromTemperature: wire.main.temp)
        feelsLikeC = units.celsius(fromTemperature: wire.main.feelsLike)
        humidity = wire.main.humidity
        pressureHPa = wire.main.pressure
        self.condition = condition
        conditionID = entry.id
        conditionDescription = entry.description
        windMps = units.metersPerSecond(fromWindSpeed: wire.wind.speed)
        windDeg = wire.wind.deg
        cloudsPercent = wire.clouds.all
        visibilityM = wire.visibility
        rainLastHourMm = wire.rain?.oneHour ?? 0
        snowLastHourMm = wire.snow?.oneHour ?? 0
        sunrise = wire.sys.sunrise == 0 ? nil : SimInstant(unixSeconds: wire.sys.sunrise)
        sunset = wire.sys.sunset == 0 ? nil : SimInstant(unixSeconds: wire.sys.sunset)
    }
}
