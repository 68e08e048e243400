/// One step of a forecast: the weather predicted for ``dt``.
///
/// Wire order: `dt, main, weather, clouds, wind, visibility, pop, rain, snow, sys, dt_txt`
/// (`rain`/`snow` with `"3h"` only when there is precipitation).
public struct OWMForecastEntry: Sendable, Equatable, Codable {
    /// The time the step forecasts, Unix seconds.
    public var dt: Int64
    /// Temperatures, pressure, humidity.
    public var main: OWMMain
    /// The conditions.
    public var weather: [OWMWeatherEntry]
    /// Cloud cover.
    public var clouds: OWMClouds
    /// Wind.
    public var wind: OWMWind
    /// Visibility, m.
    public var visibility: Int?
    /// Probability of precipitation, 0–1.
    public var pop: Double
    /// Rain over the three hours, only when it rains.
    public var rain: OWMPrecipitation?
    /// Snow over the three hours, only when it snows.
    public var snow: OWMPrecipitation?
    /// Part of the day.
    public var sys: OWMForecastSys
    /// ``dt`` in UTC as `"2026-01-09 12:00:00"`.
    public var dtTxt: String

    /// The wire names, in wire order.
    enum CodingKeys: String, CodingKey {
        case dt, main, weather, clouds, wind, visibility, pop, rain, snow, sys
        case dtTxt = "dt_txt"
    }

    /// Creates an entry.
    public init(dt: Int64, main: OWMMain, weather: [OWMWeatherEntry], clouds: OWMClouds, wind: OWMWind, visibility: Int?,
                pop: Double, rain: OWMPrecipitation? = nil, snow: OWMPrecipitation? = nil, sys: OWMForecastSys, dtTxt: String) {
        self.dt = dt
        self.main = main
        self.weather = weather
        self.clouds = clouds
        self.wind = wind
        self.visibility = visibility
        self.pop = pop
        self.rain = rain
        self.snow = snow
        self.sys = sys
        self.dtTxt = dtTxt
    }
}
