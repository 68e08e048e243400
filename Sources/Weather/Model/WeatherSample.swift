/// The weather in one city at one instant: what the fake feed reports and the physics sees.
///
/// A sample is always valid: the public initialiser checks every field, so code that
/// holds a `WeatherSample` never has to. Fields the scenario format leaves out get the
/// documented defaults; cloud cover and precipitation default to what the condition
/// typically brings (``WeatherCondition/typicalCloudsPercent``,
/// ``WeatherCondition/typicalPrecipitationMmPerHour``).
public struct WeatherSample: Sendable, Equatable {
    /// Outdoor air temperature, °C.
    public let tempC: Double
    /// Relative humidity, % (0–100).
    public let humidity: Double
    /// The condition group (`Clear`, `Clouds`, `Rain`, `Snow`, …).
    public let condition: WeatherCondition
    /// Wind speed, m/s (0 or more).
    public let windMps: Double
    /// Wind direction, meteorological degrees (where the wind comes from), 0–360.
    public let windDeg: Int
    /// Sea-level air pressure, hPa.
    public let pressureHPa: Double
    /// Cloud cover, % (0–100).
    public let cloudsPercent: Int
    /// Precipitation, mm per hour (0 for dry conditions).
    public let precipitationMmPerHour: Double

    /// Creates a validated sample.
    /// - Parameters:
    ///   - tempC: outdoor temperature, °C.
    ///   - humidity: relative humidity, % (default 70).
    ///   - condition: the condition group (default ``WeatherCondition/clear``).
    ///   - windMps: wind speed, m/s (default 0, calm).
    ///   - windDeg: wind direction, degrees (default 0).
    ///   - pressureHPa: sea-level pressure, hPa (default 1013).
    ///   - cloudsPercent: cloud cover, %; `nil` takes the condition's typical value.
    ///   - precipitationMmPerHour: mm/h; `nil` takes the condition's typical value. Must be 0
    ///     for conditions without precipitation.
    ///   - fieldPath: where the sample comes from (`"weather.Budapest.series[2]"`), used as the
    ///     prefix of field names in error messages.
    /// - Throws: ``WeatherError`` `weather.invalidSource` naming the field and its value for
    ///   a non-finite number, humidity or cloud cover outside 0–100, negative wind or
    ///   precipitation, a direction outside 0–360, a pressure outside 300–1200 hPa, or
    ///   precipitation with a dry condition.
    public init(tempC: Double, humidity: Double = 70, condition: WeatherCondition = .clear, windMps: Double = 0,
                windDeg: Int = 0, pressureHPa: Double = 1013, cloudsPercent: Int? = nil,
                precipitationMmPerHour: Double? = nil, fieldPath: String = "weather") throws(WeatherError) {
        let clouds = cloudsPercent ?? condition.typicalCloudsPercent
        let precipitation = precipitationMmPerHour ?? condition.typicalPrecipitationMmPerHour
        try Self.requireFinite(tempC, "\(fieldPath).tempC")
        try Self.requireFinite(humidity, "\(fieldPath).humidity")
        guard (0...100).contains(humidity) else {
            throw Self.invalid("\(fieldPath).humidity is \(NumberText.plain(humidity)), outside 0–100 %; give a relative humidity between 0 and 100.")
        }
        try Self.requireFinite(windMps, "\(fieldPath).windMps")
        guard windMps >= 0 else {
            throw Self.invalid("\(fieldPath).windMps is \(NumberText.plain(windMps)), but a wind speed cannot be negative; give 0 or more m/s.")
        }
        guard (0...360).contains(windDeg) else {
            throw Self.invalid("\(fieldPath).windDeg is \(windDeg), outside 0–360; give a compass direction in degrees.")
        }
        try Self.requireFinite(pressureHPa, "\(fieldPath).pressureHPa")
        guard (300...1_200).contains(pressureHPa) else {
            throw Self.invalid("\(fieldPath).pressureHPa is \(NumberText.plain(pressureHPa)), outside 300–1200 hPa; sea-level pressure is about 1013 hPa.")
        }
        guard (0...100).contains(clouds) else {
            throw Self.invalid("\(fieldPath).cloudsPercent is \(clouds), outside 0–100 %; give a cloud cover between 0 and 100.")
        }
        try Self.requireFinite(precipitation, "\(fieldPath).precipitationMmPerHour")
        guard precipitation >= 0 else {
            throw Self.invalid("\(fieldPath).precipitationMmPerHour is \(NumberText.plain(precipitation)), but precipitation cannot be negative; give 0 or more mm/h.")
        }
        guard precipitation == 0 || condition.isPrecipitation else {
            throw Self.invalid("\(fieldPath).precipitationMmPerHour is \(NumberText.plain(precipitation)), but condition \"\(condition.rawValue)\" brings none; use Rain, Drizzle, Snow or Thunderstorm, or give 0.")
        }
        self.init(trusted: tempC, humidity: humidity, condition: condition, windMps: windMps, windDeg: windDeg,
                  pressureHPa: pressureHPa, cloudsPercent: clouds, precipitationMmPerHour: precipitation)
    }

    /// Creates a sample from fields already known to be valid (interpolations of valid samples).
    init(trusted tempC: Double, humidity: Double, condition: WeatherCondition, windMps: Double, windDeg: Int,
         pressureHPa: Double, cloudsPercent: Int, precipitationMmPerHour: Double) {
        self.tempC = tempC
        self.humidity = humidity
        self.condition = condition
        self.windMps = windMps
        self.windDeg = windDeg
        self.pressureHPa = pressureHPa
        self.cloudsPercent = cloudsPercent
        self.precipitationMmPerHour = precipitationMmPerHour
    }

    /// This sample with another temperature (which must be finite).
    func withTemperature(_ tempC: Double) -> WeatherSample {
        WeatherSample(trusted: tempC, humidity: humidity, condition: condition, windMps: windMps, windDeg: windDeg,
                      pressureHPa: pressureHPa, cloudsPercent: cloudsPercent, precipitationMmPerHour: precipitationMmPerHour)
    }

    /// The sample a fraction `f` (0…1) of the way from `a` to `b`: humidity, wind speed and
    /// pressure are linear, everything discrete (condition, direction, clouds, precipitation)
    /// is `a`'s; the temperature is given by the caller (it comes from the outdoor segment).
    static func interpolated(from a: WeatherSample, to b: WeatherSample, fraction f: Double, tempC: Double) -> WeatherSample {
        func lerp(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        return WeatherSample(trusted: tempC, humidity: lerp(a.humidity, b.humidity), condition: a.condition,
                             windMps: lerp(a.windMps, b.windMps), windDeg: a.windDeg,
                             pressureHPa: lerp(a.pressureHPa, b.pressureHPa), cloudsPercent: a.cloudsPercent,
                             precipitationMmPerHour: a.precipitationMmPerHour)
    }

    private static func requireFinite(_ value: Double, _ field: String) throws(WeatherError) {
        guard value.isFinite else { throw invalid("\(field) is \(value), which is not a finite number; give a plain number.") }
    }

    private static func invalid(_ message: String) -> WeatherError { WeatherError(.invalidSource, message) }
}
