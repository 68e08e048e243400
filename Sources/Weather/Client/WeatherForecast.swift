import Simulation

/// A 5-day forecast in 3-hour steps as the booking services use it: SI units, typed fields.
public struct WeatherForecast: Sendable, Equatable {
    /// One forecast step.
    public struct Entry: Sendable, Equatable {
        /// The instant the step forecasts (`dt`).
        public let at: SimInstant
        /// Air temperature, °C.
        public let tempC: Double
        /// Apparent temperature, °C.
        public let feelsLikeC: Double
        /// Relative humidity, %.
        public let humidity: Int
        /// The condition group.
        public let condition: WeatherCondition
        /// Wind speed, m/s.
        public let windMps: Double
        /// Cloud cover, %.
        public let cloudsPercent: Int
        /// Probability of precipitation, 0–1.
        public let precipitationProbability: Double
        /// Whether the step is in daylight (`sys.pod == "d"`).
        public let isDaytime: Bool
    }

    /// The city name.
    public let cityName: String
    /// OpenWeatherMap city id.
    public let cityID: Int
    /// ISO 3166 country code, if reported.
    public let countryCode: String?
    /// The city's UTC offset when the forecast was issued.
    public let utcOffset: SimDuration
    /// The steps, in time order.
    public let entries: [Entry]

    /// Converts a decoded response given in `units`.
    /// - Throws: ``WeatherError`` `weather.decoding` when an entry has no known condition.
    public init(_ wire: OWMForecastResponse, units: OWMUnits) throws(WeatherError) {
        var entries: [Entry] = []
        for (i, item) in wire.list.enumerated() {
            guard let first = item.weather.first,
                  let condition = WeatherCondition(rawValue: first.main) ?? WeatherCondition(owmConditionID: first.id)
            else {
                throw WeatherError(.decoding, "Forecast entry \(i) for \(wire.city.name) has no known condition; the service's answer is incomplete.")
            }
            entries.append(Entry(
                at: SimInstant(unixSeconds: item.dt),
                tempC: units.celsius(fromTemperature: item.main.temp),
                feelsLikeC: units.celsius(fromTemperature: item.main.feelsLike),
                humidity: item.main.humidity,
                condition: condition,
                windMps: units.metersPerSecond(fromWindSpeed: item.wind.speed),
                cloudsPercent: item.clouds.all,
                precipitationProbability: item.pop,
                isDaytime: item.sys.pod == "d"))
        }
        cityName = wire.city.name
        cityID = wire.city.id
        countryCode = wire.city.country
        utcOffset = .seconds(Int64(wire.city.timezone))
        self.entries = entries
    }
}
