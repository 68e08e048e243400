import Devices
import Simulation
import Testing
import Twin
import Weather

/// A world gives a city's zones copies of one outdoor source, which hands out the segments it made
/// last again: whatever the order of the questions, every answer must be the one a fresh source gives.
struct WeatherOutdoorTemperatureTests {
    static let start = SimInstant(unixSeconds: 1_767_916_800)  // 2026-01-09T00:00Z

    static func weathers() throws -> [CityWeather] {
        let diurnal = WeatherSource.diurnal(try DiurnalWeather(meanC: 2, amplitudeK: 5, minAtHour: 5, noiseK: 0.7, seed: 42,
                                                               city: "Budapest", calendar: .utc))
        let series = WeatherSource.series(try WeatherSeries(points: [
            .init(at: start + .hours(3), sample: try WeatherSample(tempC: -4)),
            .init(at: start + .hours(15), sample: try WeatherSample(tempC: 8)),
            .init(at: start + .hours(40), sample: try WeatherSample(tempC: 1)),
        ]))
        let overrides = [WeatherOverride(from: start + .hours(20) + .minutes(7), sample: try WeatherSample(tempC: -10)),
                         WeatherOverride(from: start + .hours(26), sample: try WeatherSample(tempC: 12))]
        return [CityWeather(base: diurnal), CityWeather(base: diurnal, overrides: overrides),
                CityWeather(base: series), CityWeather(base: series, overrides: overrides),
                CityWeather(base: .constant(try WeatherSample(tempC: 3)), overrides: overrides)]
    }

    @Test func aSharedSourceAnswersAsAFreshOneWhateverTheOrder() throws {
        var random = SplitMix64(seed: 31)
        for weather in try Self.weathers() {
            let shared = WeatherOutdoorTemperature(weather: weather)
            let copy = shared  // a zone's copy shares what the source remembers
            var instants: [SimInstant] = []
            for hour in 0..<60 {
                let at = Self.start + .hours(Int64(hour))
                instants += [at, at + .milliseconds(-1), at + .milliseconds(1), at + .minutes(7)]
            }
            for _ in 0..<400 { instants.append(Self.start + .milliseconds(Int64(random.next() % (60 * 3_600_000)))) }
            // Mostly forward in runs (as zones ask), with jumps back and forth.
            instants.sort()
            for index in stride(from: 0, to: instants.count - 8, by: 8) where random.next() % 3 == 0 {
                instants.swapAt(index, Int(random.next() % UInt64(instants.count)))
            }
            for (index, instant) in instants.enumerated() {
                let source = index % 2 == 0 ? shared : copy
                #expect(source.outdoorSegment(at: instant) == WeatherOutdoorTemperature(weather: weather).outdoorSegment(at: instant),
                        "\(instant)")
            }
        }
    }
}
