import Foundation
import Simulation
import Synchronization
import Testing
import Weather

/// A UTC instant from `2026-01-09T12:00Z`-style text.
func utc(_ text: String) throws -> SimInstant {
    try LocalCalendar.utc.parseInstant(text)
}

/// The calendar of Budapest.
func budapestCalendar() throws -> LocalCalendar {
    try LocalCalendar(identifier: "Europe/Budapest")
}

/// Runs `body` and returns the `WeatherError` it threw, or `nil` if it did not throw
/// (any other error is recorded as an issue).
func weatherError(_ body: () throws -> Void) -> WeatherError? {
    do {
        try body()
        return nil
    } catch let error as WeatherError {
        return error
    } catch {
        Issue.record("expected a WeatherError, got \(error)")
        return nil
    }
}

/// Runs async `body` and returns the `WeatherError` it threw, or `nil` if it did not throw
/// (any other error is recorded as an issue).
func asyncWeatherError(_ body: () async throws -> Void) async -> WeatherError? {
    do {
        try await body()
        return nil
    } catch let error as WeatherError {
        return error
    } catch {
        Issue.record("expected a WeatherError, got \(error)")
        return nil
    }
}

/// The sample of WEATHER.md's example response: −3.2 °C, 80 %, light snow, 3 m/s from 200°, 1021 hPa.
func exampleSnowSample() throws -> WeatherSample {
    try WeatherSample(tempC: -3.2, humidity: 80, condition: .snow, windMps: 3, windDeg: 200, pressureHPa: 1021)
}

/// A feed that knows Budapest (constant `sample`) and Vienna (constant 5 °C), accepting key `KEY`.
func makeFeed(budapest sample: WeatherSample, requestsPerMinute: Int? = 60) throws -> FakeOpenWeatherMap {
    let feed = FakeOpenWeatherMap(apiKeys: ["KEY"], requestsPerMinute: requestsPerMinute)
    try feed.addCity(CityGazetteer.city(named: "Budapest"), weather: CityWeather(base: .constant(sample)))
    try feed.addCity(CityGazetteer.city(named: "Vienna"), weather: CityWeather(base: .constant(WeatherSample(tempC: 5))))
    return feed
}

/// A settable simulated clock for transports.
final class TestClock: Sendable {
    private let current: Mutex<SimInstant>

    init(_ start: SimInstant) { current = Mutex(start) }

    var now: SimInstant { current.withLock { $0 } }

    func set(_ instant: SimInstant) { current.withLock { $0 = instant } }
}

/// A transport that always answers with the same status and body.
struct StubTransport: WeatherTransport {
    let status: Int
    let body: String

    func get(_ url: URL) async throws(WeatherError) -> (status: Int, body: Data) {
        (status, Data(body.utf8))
    }
}

/// A transport that never gets an answer.
struct OfflineTransport: WeatherTransport {
    func get(_ url: URL) async throws(WeatherError) -> (status: Int, body: Data) {
        throw WeatherError(.transport, "The request to \(url.host ?? "?") failed before any answer: offline.")
    }
}

/// The set of key paths of a JSON document (`main.temp`, `weather[].id`, …).
func keyPaths(ofJSON data: Data) throws -> Set<String> {
    let object = try JSONSerialization.jsonObject(with: data)
    var paths = Set<String>()
    func walk(_ value: Any, _ prefix: String) {
        if let dictionary = value as? [String: Any] {
            for (key, child) in dictionary {
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                paths.insert(path)
                walk(child, path)
            }
        } else if let array = value as? [Any] {
            for child in array { walk(child, prefix + "[]") }
        }
    }
    walk(object, "")
    return paths
}

/// The top-level JSON object of `data`.
func jsonObject(_ data: Data) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw CocoaError(.coderReadCorrupt)
    }
    return object
}

/// A number at a key path (`["main", "temp"]`) of a JSON object.
func number(_ object: [String: Any], _ path: String...) -> Double? {
    var current: Any = object
    for key in path {
        guard let dictionary = current as? [String: Any], let next = dictionary[key] else { return nil }
        current = next
    }
    return (current as? NSNumber)?.doubleValue
}
