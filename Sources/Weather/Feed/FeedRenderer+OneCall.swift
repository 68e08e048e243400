import Foundation
import Simulation

/// One Call API 3.0 from the same simulated weather: `current` is the observation at `now`
/// (as `/data/2.5/weather`), the rest the forecast issued at `now` (as `/data/2.5/forecast`).
///
/// Derived fields beyond the 2.5 ones: `dew_point` by the Magnus formula (b = 17.62, c = 243.12 °C);
/// `uvi` is 0 (the twin models no UV); `minutely` is 61 minutes from the current minute; `hourly`
/// 48 hours from the current hour; `daily` 8 local days from today, each from its 24 hourly
/// forecasts (min and max, `morn`/`day`/`eve`/`night` at 06, 12, 18 and 24 h, means of pressure,
/// humidity, wind and clouds, the most frequent condition, the summed precipitation).
extension FeedRenderer {
    /// The sections of the body `exclude` can leave out.
    static let oneCallSections: Set<String> = ["current", "minutely", "hourly", "daily", "alerts"]

    static func oneCall(city: CityInfo, weather: CityWeather, at now: SimInstant, units: OWMUnits, exclude: Set<String>) -> OWMOneCall {
        let minute: Int64 = 60_000, hour: Int64 = 3_600_000
        func forecast(_ t: SimInstant) -> WeatherSample { weather.forecastSample(at: t, issuedAt: now) }
        func temperature(_ celsius: Double) -> Double { units.temperature(fromCelsius: celsius) }
        func feelsLike(_ s: WeatherSample) -> Double {
            temperature(ApparentTemperature.celsius(tempC: s.tempC, humidity: s.humidity, windMps: s.windMps))
        }
        func wind(_ mps: Double) -> Double { units.windSpeed(fromMetersPerSecond: mps) }
        func rounded(_ value: Double) -> Double { NumberText.rounded(value, decimals: 2) }

        var body = OWMOneCall(lat: NumberText.rounded(city.latitude, decimals: 4), lon: NumberText.rounded(city.longitude, decimals: 4),
                              timezone: city.calendar.identifier, timezoneOffset: utcOffsetSeconds(city, at: now))
        if !exclude.contains("current") {
            let s = weather.sample(at: now)
            let sun = sunTimes(city, at: now)
            let (sunrise, sunset) = sun.unixSeconds
            let (rain, snow) = precipitationBlocks(s, hours: 1)
            body.current = OWMOneCall.Current(
                dt: now.unixSeconds, sunrise: sunrise, sunset: sunset, temp: temperature(s.tempC), feelsLike: feelsLike(s),
                pressure: Int(s.pressureHPa.rounded()), humidity: Int(s.humidity.rounded()), dewPoint: temperature(dewPoint(s)), uvi: 0,
                clouds: s.cloudsPercent, visibility: s.condition.typicalVisibilityM, windSpeed: wind(s.windMps), windDeg: s.windDeg,
                weather: [weatherEntry(s.condition, isDay: sun.isDay(at: now))],
                rain: rain, snow: snow)
        }
        if !exclude.contains("minutely") {
            let first = now.unixMilliseconds.floorDivided(by: minute).quotient * minute
            body.minutely = (0..<61).map { i in
                let t = SimInstant(unixMilliseconds: first + Int64(i) * minute)
                return OWMOneCall.Minute(dt: t.unixSeconds, precipitation: rounded(forecast(t).precipitationMmPerHour))
            }
        }
        if !exclude.contains("hourly") {
            let first = now.unixMilliseconds.floorDivided(by: hour).quotient * hour
            body.hourly = (0..<48).map { i in
                let t = SimInstant(unixMilliseconds: first + Int64(i) * hour)
                let s = forecast(t)
                let (rain, snow) = precipitationBlocks(s, hours: 1)
                return OWMOneCall.Hour(
                    dt: t.unixSeconds, temp: temperature(s.tempC), feelsLike: feelsLike(s), pressure: Int(s.pressureHPa.rounded()),
                    humidity: Int(s.humidity.rounded()), dewPoint: temperature(dewPoint(s)), uvi: 0, clouds: s.cloudsPercent,
                    visibility: s.condition.typicalVisibilityM, windSpeed: wind(s.windMps), windDeg: s.windDeg,
                    windGust: wind(s.windMps * gustFactor), weather: [weatherEntry(s.condition, isDay: sunTimes(city, at: t).isDay(at: t))],
                    pop: s.condition.isPrecipitation ? 1 : 0,
                    rain: rain, snow: snow)
            }
        }
        if !exclude.contains("daily") {
            let calendar = city.calendar
            let today = calendar.date(at: now)
            body.daily = (0..<8).map { d in
                let date = today.adding(days: d)
                func at(_ h: Int) -> SimInstant {
                    h == 24 ? calendar.resolvedInstant(for: LocalDateTime(date: date.adding(days: 1), time: .midnight))
                        : calendar.resolvedInstant(for: LocalDateTime(date: date, time: LocalTime(millisecondOfDay: Int64(h) * hour)))
                }
                let hours = (0..<24).map { forecast(at($0)) }
                let (morn, noon, eve, night) = (forecast(at(6)), forecast(at(12)), forecast(at(18)), forecast(at(24)))
                func mean(_ value: (WeatherSample) -> Double) -> Double { hours.map(value).reduce(0, +) / Double(hours.count) }
                let conditions = Dictionary(grouping: hours, by: \.condition)
                let condition = conditions.max { a, b in (a.value.count, b.key.owmConditionID) < (b.value.count, a.key.owmConditionID) }?.key ?? noon.condition
                let total = rounded(hours.map(\.precipitationMmPerHour).reduce(0, +))
                let snowy = hours.contains { $0.condition.precipitationIsSnow && $0.precipitationMmPerHour > 0 }
                let (sunrise, sunset) = SolarCalculator.sunTimes(on: date, latitude: city.latitude, longitude: city.longitude).unixSeconds
                let meanWind = mean(\.windMps)
                let meanSample = (try? WeatherSample(tempC: mean(\.tempC), humidity: mean(\.humidity))) ?? noon
                return OWMOneCall.Day(
                    dt: at(12).unixSeconds, sunrise: sunrise, sunset: sunset,
                    temp: .init(day: temperature(noon.tempC), min: temperature(hours.map(\.tempC).min() ?? noon.tempC),
                                max: temperature(hours.map(\.tempC).max() ?? noon.tempC), night: temperature(night.tempC),
                                eve: temperature(eve.tempC), morn: temperature(morn.tempC)),
                    feelsLike: .init(day: feelsLike(noon), night: feelsLike(night), eve: feelsLike(eve), morn: feelsLike(morn)),
                    pressure: Int(mean(\.pressureHPa).rounded()), humidity: Int(mean(\.humidity).rounded()),
                    dewPoint: temperature(dewPoint(meanSample)), windSpeed: wind(meanWind), windDeg: noon.windDeg,
                    windGust: wind((hours.map(\.windMps).max() ?? meanWind) * gustFactor),
                    weather: [weatherEntry(condition, isDay: true)], clouds: Int(mean { Double($0.cloudsPercent) }.rounded()),
                    pop: hours.contains { $0.condition.isPrecipitation } ? 1 : 0,
                    rain: total > 0 && !snowy ? total : nil, snow: total > 0 && snowy ? total : nil, uvi: 0)
            }
        }
        return body
    }

    /// The dew point of a sample in °C (Magnus formula over water).
    static func dewPoint(_ s: WeatherSample) -> Double {
        let (b, c) = (17.62, 243.12)
        let gamma = log(max(s.humidity, 1) / 100) + b * s.tempC / (c + s.tempC)
        return NumberText.rounded(c * gamma / (b - gamma), decimals: 2)
    }
}
