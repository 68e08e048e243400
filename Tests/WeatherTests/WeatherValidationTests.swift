import Simulation
import Testing
import Weather

/// Every invalid source is `weather.invalidSource`, and its message names the field and the value.
struct WeatherValidationTests {
    /// One invalid input: how to build it, and the texts the message must contain.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let build: @Sendable () throws -> Void
        let mustMention: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "humidity above 100", build: { _ = try WeatherSample(tempC: 1, humidity: 120, fieldPath: "weather.Budapest") },
             mustMention: ["weather.Budapest.humidity", "120"]),
        Case(name: "negative humidity", build: { _ = try WeatherSample(tempC: 1, humidity: -5) },
             mustMention: ["weather.humidity", "-5"]),
        Case(name: "negative wind", build: { _ = try WeatherSample(tempC: 1, windMps: -2.5, fieldPath: "timeline[3].weather") },
             mustMention: ["timeline[3].weather.windMps", "-2.5"]),
        Case(name: "NaN temperature", build: { _ = try WeatherSample(tempC: .nan) }, mustMention: ["weather.tempC", "nan"]),
        Case(name: "infinite wind", build: { _ = try WeatherSample(tempC: 1, windMps: .infinity) },
             mustMention: ["weather.windMps", "inf"]),
        Case(name: "precipitation when clear", build: { _ = try WeatherSample(tempC: 1, condition: .clear, precipitationMmPerHour: 1) },
             mustMention: ["precipitationMmPerHour", "1", "Clear"]),
        Case(name: "empty series", build: { _ = try WeatherSeries(points: [], fieldPath: "weather.Budapest.series") },
             mustMention: ["weather.Budapest.series", "empty"]),
        Case(name: "duplicate series times", build: {
            let t = SimInstant(unixSeconds: 1_767_916_800)
            _ = try WeatherSeries(points: [.init(at: t, sample: try WeatherSample(tempC: 1)),
                                           .init(at: t, sample: try WeatherSample(tempC: 2))])
        }, mustMention: ["series[1].at", "2026-01-09T00:00:00Z", "same time"]),
        Case(name: "unsorted series", build: {
            let t = SimInstant(unixSeconds: 1_767_916_800)
            _ = try WeatherSeries(points: [.init(at: t, sample: try WeatherSample(tempC: 1)),
                                           .init(at: t - .hours(1), sample: try WeatherSample(tempC: 2))])
        }, mustMention: ["series[1].at", "2026-01-08T23:00:00Z", "before"]),
        Case(name: "negative amplitude", build: {
            _ = try DiurnalWeather(meanC: 0, amplitudeK: -1, minAtHour: 5, seed: 1, city: "X", calendar: .utc)
        }, mustMention: ["diurnal.amplitudeK", "-1"]),
        Case(name: "negative noise", build: {
            _ = try DiurnalWeather(meanC: 0, amplitudeK: 1, minAtHour: 5, noiseK: -0.5, seed: 1, city: "X", calendar: .utc)
        }, mustMention: ["diurnal.noiseK", "-0.5"]),
        Case(name: "minAtHour 24", build: {
            _ = try DiurnalWeather(meanC: 0, amplitudeK: 1, minAtHour: 24, seed: 1, city: "X", calendar: .utc,
                                   fieldPath: "weather.Budapest.diurnal")
        }, mustMention: ["weather.Budapest.diurnal.minAtHour", "24", "0–23"]),
        Case(name: "minAtHour negative", build: {
            _ = try DiurnalWeather(meanC: 0, amplitudeK: 1, minAtHour: -1, seed: 1, city: "X", calendar: .utc)
        }, mustMention: ["diurnal.minAtHour", "-1"]),
        Case(name: "infinite mean", build: {
            _ = try DiurnalWeather(meanC: .infinity, amplitudeK: 1, minAtHour: 5, seed: 1, city: "X", calendar: .utc)
        }, mustMention: ["diurnal.meanC", "inf"]),
        Case(name: "unknown condition", build: { _ = try WeatherCondition(name: "Snwo", fieldPath: "timeline[2].weather.condition") },
             mustMention: ["timeline[2].weather.condition", "Snwo", "Did you mean \"Snow\""]),
        Case(name: "unknown feed error", build: { _ = try FeedFault(status: 418) }, mustMention: ["feed.error", "418"]),
    ]

    @Test("invalid input is weather.invalidSource naming field and value", arguments: cases)
    func invalidInput(_ testCase: Case) throws {
        let error = try #require(weatherError(testCase.build))
        #expect(error.code == .invalidSource)
        #expect(error.code.rawValue == "weather.invalidSource")
        for text in testCase.mustMention {
            #expect(error.message.contains(text), "\(error.message) should mention \(text)")
        }
    }

    @Test("valid samples keep their fields and take the condition's typical clouds and precipitation")
    func validSample() throws {
        let sample = try WeatherSample(tempC: -3.2, humidity: 80, condition: .snow, windMps: 3)
        #expect(sample.tempC == -3.2)
        #expect(sample.cloudsPercent == 90)
        #expect(sample.precipitationMmPerHour == 0.3)
        #expect(sample.pressureHPa == 1013)
        let clear = try WeatherSample(tempC: 20)
        #expect(clear.condition == .clear && clear.precipitationMmPerHour == 0 && clear.cloudsPercent == 0)
    }

    @Test("condition names parse case-insensitively and map from OWM ids", arguments: WeatherCondition.allCases)
    func conditionNames(_ condition: WeatherCondition) throws {
        #expect(try WeatherCondition(name: condition.rawValue.uppercased()) == condition)
        #expect(WeatherCondition(owmConditionID: condition.owmConditionID) == condition)
    }
}
