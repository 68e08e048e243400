import Foundation
import Simulation
import Weather

/// The booking system's weather service (the original's OpenWeatherMap service): current outdoor
/// temperatures and forecasts per city, through a real ``OpenWeatherMapClient`` in metric units.
///
/// It never throws for current weather: when the feed fails (401, 404, 429, 5xx, a bad answer) it
/// records the error and returns the last good value for that city flagged as stale, or `nil` if
/// there never was one. Scenario countries are English names (`Hungary`); requests use ISO codes
/// (`q=Budapest,HU`), mapped through ``CityGazetteer``; an unknown country is left out of the query
/// (`q=Budapest`), an ISO code is used as it is.
public actor WeatherService {
    /// How many error records are kept (the oldest are dropped first).
    public static let errorLogCapacity = 1_000

    /// How many cities' current-weather requests are kept built (all are dropped when more are asked about).
    static let preparedCapacity = 1_000

    private let client: OpenWeatherMapClient
    private let clock: BookingClock
    private var lastGood: [String: WeatherObservation] = [:]
    private var errorLog: [WeatherErrorRecord] = []
    /// The current-weather request of each city and country as asked, built once (country code, key and
    /// URL are the same every time: the automations ask about the same cities every hour).
    private var prepared: [Asked: Prepared] = [:]

    /// A city and country as ``temperature(city:country:)`` is asked about them.
    private struct Asked: Hashable {
        let city: String
        let country: String?
    }

    /// What a current-weather request for one ``Asked`` needs (a class: a run takes it without copying its fields).
    private final class Prepared: Sendable {
        let countryCode: String?
        /// The ``lastGood`` key.
        let key: String
        /// The request, or why none can be built from the client's base URL.
        let request: Result<OpenWeatherMapClient.CurrentWeatherRequest, WeatherError>

        init(countryCode: String?, key: String, request: Result<OpenWeatherMapClient.CurrentWeatherRequest, WeatherError>) {
            self.countryCode = countryCode
            self.key = key
            self.request = request
        }
    }

    /// A service over `client` (which should request `metric` units; any units are converted to °C).
    public init(client: OpenWeatherMapClient, clock: BookingClock) {
        self.client = client
        self.clock = clock
    }

    /// A service with a metric OpenWeatherMap client for `baseURL`, `apiKey` and `transport`.
    public init(baseURL: URL, apiKey: String, transport: any WeatherTransport, clock: BookingClock) {
        self.init(client: OpenWeatherMapClient(baseURL: baseURL, apiKey: apiKey, transport: transport, units: .metric),
                  clock: clock)
    }

    /// The current temperature in `city` (optionally in `country`, a name or ISO code): fresh from the
    /// feed, or — when the feed fails — the last good value flagged ``WeatherObservation/isStale``;
    /// `nil` when the feed fails and there never was a good value. Failures are recorded in ``errors``.
    public func temperature(city: String, country: String? = nil) async -> WeatherObservation? {
        let prepared = prepare(city: city, country: country)
        let code = prepared.countryCode
        let key = prepared.key
        do {
            let current = try await client.currentWeather(try prepared.request.get())
            let observation = WeatherObservation(city: city, countryCode: code, tempC: current.tempC,
                                                 observedAt: current.observedAt, fetchedAt: clock.now)
            lastGood[key] = observation
            return observation
        } catch {
            record(city: city, error)
            guard var last = lastGood[key] else { return nil }
            last.isStale = true
            last.staleBecause = error.code.rawValue
            return last
        }
    }

    /// The 5-day / 3-hour forecast for `city` (optionally in `country`).
    /// - Throws: `weather.unavailable` quoting the feed's error (also recorded in ``errors``).
    public func forecast(city: String, country: String? = nil) async throws(BookingError) -> WeatherForecast {
        let code = Self.countryCode(for: country)
        do {
            return try await client.forecast(for: .city(city, countryCode: code))
        } catch {
            record(city: city, error)
            throw BookingError(.weatherUnavailable, "No forecast for \(city): \(error.code.rawValue): \(error.message)")
        }
    }

    /// The last good value for `city`, without asking the feed.
    public func lastKnown(city: String, country: String? = nil) -> WeatherObservation? {
        lastGood[Self.key(city: city, countryCode: Self.countryCode(for: country))]
    }

    /// The failed requests, oldest first (at most ``errorLogCapacity``).
    public var errors: [WeatherErrorRecord] { errorLog }

    /// The most recent failure for `city`, if any.
    public func lastError(city: String) -> WeatherErrorRecord? {
        errorLog.last { $0.city.lowercased() == city.lowercased() }
    }

    /// The ISO 3166 code for a country as scenarios write it: a two-letter code as it is (upper-cased),
    /// an English name of a ``CityGazetteer`` country (`Hungary` → `HU`), otherwise `nil` (query by city only).
    public static func countryCode(for country: String?) -> String? {
        guard let trimmed = country?.trimmingBlanks, !trimmed.isEmpty else { return nil }
        if trimmed.count == 2, trimmed.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) }) {
            return trimmed.uppercased()
        }
        let wanted = trimmed.lowercased()
        return CityGazetteer.entries.first { $0.countryName.lowercased() == wanted }?.countryCode
    }

    /// The request for `city` in `country`, built on first use.
    private func prepare(city: String, country: String?) -> Prepared {
        let asked = Asked(city: city, country: country)
        if let known = prepared[asked] { return known }
        let code = Self.countryCode(for: country)
        let request = Result { () throws(WeatherError) in try client.currentWeatherRequest(for: .city(city, countryCode: code)) }
        let made = Prepared(countryCode: code, key: Self.key(city: city, countryCode: code), request: request)
        if prepared.count >= Self.preparedCapacity { prepared.removeAll() }
        prepared[asked] = made
        return made
    }

    private func record(city: String, _ error: WeatherError) {
        errorLog.append(WeatherErrorRecord(at: clock.now, city: city, code: error.code.rawValue, message: error.message))
        if errorLog.count > Self.errorLogCapacity { errorLog.removeFirst(errorLog.count - Self.errorLogCapacity) }
    }

    private static func key(city: String, countryCode: String?) -> String {
        "\(city.trimmingBlanks.lowercased()),\(countryCode ?? "")"
    }
}
