import Booking
import Simulation
import Testing
import Weather

@Suite("WeatherService: last good value, error log, country codes")
struct WeatherServiceTests {
    @Test("scenario country names become ISO codes for q=", arguments: [
        ("Hungary", "HU"), ("hungary", "HU"), ("HU", "HU"), ("hu", "HU"), ("United Kingdom", "GB"),
    ])
    func countryCodes(_ name: String, _ code: String) {
        #expect(WeatherService.countryCode(for: name) == code)
    }

    @Test("unknown or missing countries query by city only")
    func noCountry() async throws {
        #expect(WeatherService.countryCode(for: "Atlantis") == nil)
        #expect(WeatherService.countryCode(for: nil) == nil)
        #expect(WeatherService.countryCode(for: " ") == nil)
        let twin = try await BookingTwin(outdoorC: -2)
        #expect(await twin.weather.temperature(city: "Budapest", country: "Atlantis")?.tempC == -2)
        #expect(await twin.weather.temperature(city: "Budapest", country: "Hungary")?.countryCode == "HU")
    }

    @Test("a failure returns the last good value flagged stale, or nil, and is logged")
    func staleAndErrors() async throws {
        let twin = try await BookingTwin(outdoorC: -2)
        #expect(await twin.weather.temperature(city: "Vienna") == nil)  // not in the feed: 404
        let fresh = try #require(await twin.weather.temperature(city: "Budapest", country: "Hungary"))
        #expect(fresh.tempC == -2 && !fresh.isStale && fresh.staleBecause == nil)
        #expect(fresh.observedAt == twin.kernel.now)
        try twin.feed.setFault(.unauthorized, forCity: "Budapest")
        try await twin.run(until: "2026-01-09T01:00")
        let stale = try #require(await twin.weather.temperature(city: "Budapest", country: "Hungary"))
        #expect(stale.isStale && stale.staleBecause == "weather.unauthorized" && stale.tempC == -2)
        #expect(stale.observedAt == fresh.observedAt)
        await expectTwinError(.weatherUnavailable) { try await twin.weather.forecast(city: "Budapest", country: "Hungary") }
        let errors = await twin.weather.errors
        #expect(errors.map(\.code) == ["weather.cityNotFound", "weather.unauthorized", "weather.unauthorized"])
        #expect(errors.map(\.city) == ["Vienna", "Budapest", "Budapest"])
        #expect(await twin.weather.lastError(city: "budapest")?.at == twin.kernel.now)
    }

    @Test("every ask reaches the feed: the request is built once per city, the answer is never kept")
    func everyAskReachesTheFeed() async throws {
        let twin = try await BookingTwin(outdoorC: -2)
        let before = twin.feed.requestCount
        let first = try #require(await twin.weather.temperature(city: "Budapest", country: "Hungary"))
        try twin.feed.setWeather(CityWeather(base: .constant(try WeatherSample(tempC: 7))), forCity: "Budapest")
        let second = try #require(await twin.weather.temperature(city: "Budapest", country: "Hungary"))
        try twin.feed.setFault(.serverError, forCity: "Budapest")
        let third = try #require(await twin.weather.temperature(city: "Budapest", country: "Hungary"))
        try twin.feed.setFault(nil, forCity: "Budapest")
        let fourth = try #require(await twin.weather.temperature(city: "Budapest", country: "HU"))
        #expect(twin.feed.requestCount - before == 4)
        #expect(first.tempC == -2 && second.tempC == 7 && !second.isStale)
        #expect(third.tempC == 7 && third.isStale && third.staleBecause == "weather.server")
        #expect(fourth.tempC == 7 && !fourth.isStale && fourth.countryCode == "HU")
        #expect(await twin.weather.errors.map(\.code) == ["weather.server"])
    }
}
