import Simulation
import Testing
import Weather

struct CityWeatherTests {
    /// A linear series from −4 °C at 00:00 to +8 °C at 12:00 UTC on 2026-01-09.
    func base() throws -> WeatherSource {
        .series(try WeatherSeries(points: [
            .init(at: utc("2026-01-09T00:00Z"), sample: WeatherSample(tempC: -4)),
            .init(at: utc("2026-01-09T12:00Z"), sample: WeatherSample(tempC: 8)),
        ]))
    }

    @Test("from an override on the weather is that sample until the next override")
    func overrides() throws {
        let weather = CityWeather(base: try base(), overrides: [
            WeatherOverride(from: try utc("2026-01-09T08:00Z"), sample: try WeatherSample(tempC: 20, condition: .clouds)),
            WeatherOverride(from: try utc("2026-01-09T04:00Z"), sample: try WeatherSample(tempC: -10, condition: .snow)),
        ])
        #expect(weather.overrides.map(\.sample.tempC) == [-10, 20])  // sorted by time
        #expect(weather.sample(at: try utc("2026-01-09T03:00Z")).tempC == -1)
        #expect(weather.sample(at: try utc("2026-01-09T04:00Z")).tempC == -10)
        #expect(weather.sample(at: try utc("2026-01-09T07:59:59Z")).condition == .snow)
        #expect(weather.sample(at: try utc("2026-01-09T08:00Z")).tempC == 20)
        #expect(weather.sample(at: try utc("2026-02-01T00:00Z")).tempC == 20)
    }

    @Test("segments end at override instants")
    func segmentsEndAtOverrides() throws {
        let weather = CityWeather(base: try base())
            .overriding(WeatherOverride(from: try utc("2026-01-09T04:00Z"), sample: try WeatherSample(tempC: -10)))
            .overriding(WeatherOverride(from: try utc("2026-01-09T08:00Z"), sample: try WeatherSample(tempC: 20)))
        let first = weather.outdoorSegment(at: try utc("2026-01-09T01:00Z"))
        #expect(first.start == (try utc("2026-01-09T00:00Z")))
        #expect(first.end == (try utc("2026-01-09T04:00Z")))
        #expect(first.slopeKPerSecond == 12.0 / 43_200)
        let second = weather.outdoorSegment(at: try utc("2026-01-09T04:00Z"))
        #expect(second == OutdoorSegment(start: try utc("2026-01-09T04:00Z"), end: try utc("2026-01-09T08:00Z"),
                                         startC: -10, slopeKPerSecond: 0))
        let last = weather.outdoorSegment(at: try utc("2026-03-01T00:00Z"))
        #expect(last.start == (try utc("2026-01-09T08:00Z")) && last.end == nil && last.startC == 20)
        // A constant base is one infinite segment, cut by an override.
        let constant = CityWeather(base: .constant(try WeatherSample(tempC: 3)))
        #expect(constant.outdoorSegment(at: .epoch) == OutdoorSegment(start: nil, end: nil, startC: 3, slopeKPerSecond: 0))
        let cut = constant.overriding(WeatherOverride(from: try utc("2026-01-09T04:00Z"), sample: try WeatherSample(tempC: 9)))
        #expect(cut.outdoorSegment(at: .epoch).end == (try utc("2026-01-09T04:00Z")))
        try SegmentChecks.assertExact(source: { weather.sample(at: $0).tempC }, segment: { weather.outdoorSegment(at: $0) },
                                      from: utc("2026-01-08T22:00Z"), to: utc("2026-01-09T10:00Z"))
    }

    @Test("two overrides at the same instant: the later one wins")
    func sameInstant() throws {
        let t = try utc("2026-01-09T04:00Z")
        let weather = CityWeather(base: try base(), overrides: [
            WeatherOverride(from: t, sample: try WeatherSample(tempC: 1)),
            WeatherOverride(from: t, sample: try WeatherSample(tempC: 2)),
        ]).overriding(WeatherOverride(from: t, sample: try WeatherSample(tempC: 3)))
        #expect(weather.overrides.count == 1)
        #expect(weather.sample(at: t).tempC == 3)
    }

    @Test("a timeline-style override keeps the fields it does not name")
    func partialOverride() throws {
        let base = WeatherSource.constant(try WeatherSample(tempC: 1, humidity: 44, condition: .rain, windMps: 5))
        let weather = try CityWeather(base: base).overriding(from: try utc("2026-01-09T04:00Z"), tempC: 30)
        let sample = weather.sample(at: try utc("2026-01-09T05:00Z"))
        #expect(sample.tempC == 30 && sample.humidity == 44 && sample.condition == .rain && sample.windMps == 5)
        let error = try #require(weatherError {
            _ = try CityWeather(base: base).overriding(from: .epoch, tempC: 1, humidity: 101, fieldPath: "timeline[4].weather")
        })
        #expect(error.code == .invalidSource && error.message.contains("timeline[4].weather.humidity"))
    }

    @Test("a forecast knows the override in force, not later ones")
    func forecastSamples() throws {
        let weather = CityWeather(base: try base(), overrides: [
            WeatherOverride(from: try utc("2026-01-09T04:00Z"), sample: try WeatherSample(tempC: -10)),
            WeatherOverride(from: try utc("2026-01-09T08:00Z"), sample: try WeatherSample(tempC: 20)),
        ])
        // Issued at 02:00: no override in force yet, later ones unknown → the base series.
        #expect(weather.forecastSample(at: try utc("2026-01-09T09:00Z"), issuedAt: try utc("2026-01-09T02:00Z")).tempC == 5)
        // Issued at 05:00: the −10 °C override persists into the forecast.
        #expect(weather.forecastSample(at: try utc("2026-01-09T09:00Z"), issuedAt: try utc("2026-01-09T05:00Z")).tempC == -10)
    }
}
