/// The body of One Call API 3.0 (`/data/3.0/onecall`): current weather, a minute-by-minute hour,
/// 48 hours and 8 days, for one coordinate. Sections named in `exclude` are absent.
public struct OWMOneCall: Sendable, Equatable, Encodable {
    public var lat: Double
    public var lon: Double
    /// The IANA zone of the place.
    public var timezone: String
    /// Seconds east of UTC now.
    public var timezoneOffset: Int
    public var current: Current?
    public var minutely: [Minute]?
    public var hourly: [Hour]?
    public var daily: [Day]?

    enum CodingKeys: String, CodingKey {
        case lat, lon, timezone, timezoneOffset = "timezone_offset", current, minutely, hourly, daily
    }

    /// `current`.
    public struct Current: Sendable, Equatable, Encodable {
        public var dt: Int64, sunrise: Int64, sunset: Int64
        public var temp: Double, feelsLike: Double, pressure: Int, humidity: Int, dewPoint: Double, uvi: Double, clouds: Int
        public var visibility: Int?, windSpeed: Double, windDeg: Int
        public var weather: [OWMWeatherEntry]
        public var rain: OWMPrecipitation?, snow: OWMPrecipitation?

        enum CodingKeys: String, CodingKey {
            case dt, sunrise, sunset, temp, feelsLike = "feels_like", pressure, humidity, dewPoint = "dew_point", uvi, clouds
            case visibility, windSpeed = "wind_speed", windDeg = "wind_deg", weather, rain, snow
        }
    }

    /// One entry of `minutely`: precipitation in mm/h.
    public struct Minute: Sendable, Equatable, Encodable {
        public var dt: Int64, precipitation: Double
    }

    /// One entry of `hourly`.
    public struct Hour: Sendable, Equatable, Encodable {
        public var dt: Int64
        public var temp: Double, feelsLike: Double, pressure: Int, humidity: Int, dewPoint: Double, uvi: Double, clouds: Int
        public var visibility: Int?, windSpeed: Double, windDeg: Int, windGust: Double
        public var weather: [OWMWeatherEntry]
        public var pop: Double
        public var rain: OWMPrecipitation?, snow: OWMPrecipitation?

        enum CodingKeys: String, CodingKey {
            case dt, temp, feelsLike = "feels_like", pressure, humidity, dewPoint = "dew_point", uvi, clouds
            case visibility, windSpeed = "wind_speed", windDeg = "wind_deg", windGust = "wind_gust", weather, pop, rain, snow
        }
    }

    /// One entry of `daily` (`dt` is local noon).
    public struct Day: Sendable, Equatable, Encodable {
        /// `temp`: the day's minimum and maximum, and the values at 06:00, 12:00, 18:00 and 00:00 (next night).
        public struct Temperatures: Sendable, Equatable, Encodable { public var day: Double, min: Double, max: Double, night: Double, eve: Double, morn: Double }
        /// `feels_like` at the same four times.
        public struct FeelsLike: Sendable, Equatable, Encodable { public var day: Double, night: Double, eve: Double, morn: Double }

        public var dt: Int64, sunrise: Int64, sunset: Int64
        public var temp: Temperatures, feelsLike: FeelsLike
        public var pressure: Int, humidity: Int, dewPoint: Double, windSpeed: Double, windDeg: Int, windGust: Double
        public var weather: [OWMWeatherEntry]
        public var clouds: Int, pop: Double
        /// The day's total precipitation in mm (a number, not an object, in One Call's daily entries).
        public var rain: Double?, snow: Double?
        public var uvi: Double

        enum CodingKeys: String, CodingKey {
            case dt, sunrise, sunset, temp, feelsLike = "feels_like", pressure, humidity, dewPoint = "dew_point"
            case windSpeed = "wind_speed", windDeg = "wind_deg", windGust = "wind_gust", weather, clouds, pop, rain, snow, uvi
        }
    }
}
