import Foundation
import Simulation

/// Turns a city's simulated weather into OpenWeatherMap response bodies.
///
/// Derived fields: `temp_min`/`temp_max` equal `temp` (one station); `feels_like` from
/// ``ApparentTemperature``; `sea_level` = `pressure`; `grnd_level` = pressure reduced by
/// the barometric formula with a scale height of 8434 m; `visibility`, cloud cover,
/// precipitation and the condition's id, description and icon from the sample's
/// ``WeatherCondition``; `sunrise`/`sunset` of the city's local day from
/// ``SolarCalculator``; the icon's `d`/`n` from whether the Sun is up. Temperatures and
/// wind speeds are rounded to two decimals, coordinates to four.
enum FeedRenderer {
    /// Forecast gusts as a multiple of the mean wind (a gust factor of open terrain, 1.3–1.5); OWM's
    /// 5-day forecast always carries `wind.gust`, its current weather only sometimes (the feed: never).
    static let gustFactor = 1.4

    /// The current-weather body for `city` with `sample` observed at `instant`.
    static func current(city: CityInfo, sample: WeatherSample, at instant: SimInstant, units: OWMUnits) -> OWMCurrentWeather {
        let sun = sunTimes(city, at: instant)
        let (rain, snow) = precipitationBlocks(sample, hours: 1)
        let (sunrise, sunset) = sun.unixSeconds
        return OWMCurrentWeather(
            coord: coordinates(city),
            weather: [weatherEntry(sample.condition, isDay: sun.isDay(at: instant))],
            main: main(sample, city: city, units: units, forecast: false),
            visibility: sample.condition.typicalVisibilityM,
            wind: OWMWind(speed: units.windSpeed(fromMetersPerSecond: sample.windMps), deg: sample.windDeg),
            clouds: OWMClouds(all: sample.cloudsPercent),
            rain: rain,
            snow: snow,
            dt: instant.unixSeconds,
            sys: OWMSys(country: city.countryCode, sunrise: sunrise, sunset: sunset),
            timezone: utcOffsetSeconds(city, at: instant),
            id: city.owmID,
            name: city.name)
    }

    /// The forecast body issued at `now`: `count` entries 3 h apart from the first 3-hour UTC
    /// boundary after `now`, each from ``CityWeather/forecastSample(at:issuedAt:)``.
    static func forecast(city: CityInfo, weather: CityWeather, at now: SimInstant, units: OWMUnits, count: Int) -> OWMForecastResponse {
        let step: Int64 = 3 * 3_600_000
        let first = (now.unixMilliseconds.floorDivided(by: step).quotient + 1) * step
        var list: [OWMForecastEntry] = []
        for i in 0..<Int64(count) {
            let t = SimInstant(unixMilliseconds: first + i * step)
            let sample = weather.forecastSample(at: t, issuedAt: now)
            let isDay = sunTimes(city, at: t).isDay(at: t)
            let (rain, snow) = precipitationBlocks(sample, hours: 3)
            list.append(OWMForecastEntry(
                dt: t.unixSeconds,
                main: main(sample, city: city, units: units, forecast: true),
                weather: [weatherEntry(sample.condition, isDay: isDay)],
                clouds: OWMClouds(all: sample.cloudsPercent),
                wind: OWMWind(speed: units.windSpeed(fromMetersPerSecond: sample.windMps), deg: sample.windDeg,
                              gust: units.windSpeed(fromMetersPerSecond: sample.windMps * Self.gustFactor)),
                visibility: sample.condition.typicalVisibilityM,
                pop: sample.condition.isPrecipitation ? 1 : 0,
                rain: rain,
                snow: snow,
                sys: OWMForecastSys(pod: isDay ? "d" : "n"),
                dtTxt: dateText(t)))
        }
        let (sunrise, sunset) = sunTimes(city, at: now).unixSeconds
        return OWMForecastResponse(
            cnt: list.count, list: list,
            city: OWMForecastCity(id: city.owmID, name: city.name, coord: coordinates(city), country: city.countryCode,
                                  population: city.population, timezone: utcOffsetSeconds(city, at: now),
                                  sunrise: sunrise, sunset: sunset))
    }

    /// The `rain` or `snow` block of `sample` over `hours` (1: `"1h"`, 3: `"3h"`): the amount rounded to
    /// 2 decimals, under the kind its condition brings; neither when that rounds to 0.
    static func precipitationBlocks(_ sample: WeatherSample, hours: Int) -> (rain: OWMPrecipitation?, snow: OWMPrecipitation?) {
        let amount = NumberText.rounded(sample.precipitationMmPerHour * Double(hours), decimals: 2)
        guard amount > 0 else { return (nil, nil) }
        let block = hours == 3 ? OWMPrecipitation(threeHours: amount) : OWMPrecipitation(oneHour: amount)
        return sample.condition.precipitationIsSnow ? (nil, block) : (block, nil)
    }

    /// `instant` in UTC as `"2026-01-09 12:00:00"` (OpenWeatherMap's `dt_txt`).
    static func dateText(_ instant: SimInstant) -> String {
        let (days, ms) = instant.unixMilliseconds.floorDivided(by: 86_400_000)
        let time = LocalTime(millisecondOfDay: ms - ms % 1_000)
        return "\(CivilDate(daysSinceEpoch: days)) \(time.isoString)"
    }

    private static func main(_ sample: WeatherSample, city: CityInfo, units: OWMUnits, forecast: Bool) -> OWMMain {
        let temp = units.temperature(fromCelsius: sample.tempC)
        let feels = units.temperature(fromCelsius: ApparentTemperature.celsius(
            tempC: sample.tempC, humidity: sample.humidity, windMps: sample.windMps))
        let pressure = Int(sample.pressureHPa.rounded())
        let ground = Int((sample.pressureHPa * exp(-city.elevationM / 8_434)).rounded())
        return OWMMain(temp: temp, feelsLike: feels, tempMin: temp, tempMax: temp, pressure: pressure,
                       humidity: Int(sample.humidity.rounded()), seaLevel: pressure, grndLevel: ground,
                       tempKf: forecast ? 0 : nil)
    }

    static func weatherEntry(_ condition: WeatherCondition, isDay: Bool) -> OWMWeatherEntry {
        OWMWeatherEntry(id: condition.owmConditionID, main: condition.rawValue, description: condition.owmDescription,
                        icon: condition.owmIcon(isDay: isDay))
    }

    private static func coordinates(_ city: CityInfo) -> OWMCoordinates {
        OWMCoordinates(lon: NumberText.rounded(city.longitude, decimals: 4), lat: NumberText.rounded(city.latitude, decimals: 4))
    }

    static func sunTimes(_ city: CityInfo, at instant: SimInstant) -> SolarCalculator.SunTimes {
        SolarCalculator.sunTimes(on: city.calendar.date(at: instant), latitude: city.latitude, longitude: city.longitude)
    }

    static func utcOffsetSeconds(_ city: CityInfo, at instant: SimInstant) -> Int {
        Int(city.calendar.offset(at: instant).milliseconds / 1_000)
    }
}
