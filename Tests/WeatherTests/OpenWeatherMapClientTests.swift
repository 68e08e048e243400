import Foundation
import RemoteTransports
import Simulation
import Testing
import Weather

struct OpenWeatherMapClientTests {
    static let base = URL(string: "https://api.openweathermap.org")

    func client(_ transport: any WeatherTransport, units: OWMUnits = .metric, key: String = "KEY") throws -> OpenWeatherMapClient {
        OpenWeatherMapClient(baseURL: try #require(Self.base), apiKey: key, transport: transport, units: units)
    }

    @Test("request URLs are the real service's, percent-encoded")
    func urls() throws {
        let c = try client(OfflineTransport())
        #expect(try c.currentWeatherURL(for: .city("Budapest", countryCode: "HU")).absoluteString
            == "https://api.openweathermap.org/data/2.5/weather?q=Budapest,HU&appid=KEY&units=metric")
        #expect(try c.currentWeatherURL(for: .city("New York", countryCode: "US")).absoluteString
            == "https://api.openweathermap.org/data/2.5/weather?q=New%20York,US&appid=KEY&units=metric")
        #expect(try c.currentWeatherURL(for: .cityID(3_054_643)).absoluteString
            == "https://api.openweathermap.org/data/2.5/weather?id=3054643&appid=KEY&units=metric")
        #expect(try c.currentWeatherURL(for: .coordinates(latitude: 47.5, longitude: 19.04)).absoluteString
            == "https://api.openweathermap.org/data/2.5/weather?lat=47.5&lon=19.04&appid=KEY&units=metric")
        #expect(try c.forecastURL(for: .city("Budapest", countryCode: nil), count: 8).absoluteString
            == "https://api.openweathermap.org/data/2.5/forecast?q=Budapest&appid=KEY&units=metric&cnt=8")
        let odd = try client(OfflineTransport(), units: .imperial, key: "a+b&c=d/é")
        #expect(try odd.currentWeatherURL(for: .city("Zürich", countryCode: "CH")).absoluteString
            == "https://api.openweathermap.org/data/2.5/weather?q=Z%C3%BCrich,CH&appid=a%2Bb%26c%3Dd%2F%C3%A9&units=imperial")
        let prefixed = OpenWeatherMapClient(baseURL: try #require(URL(string: "http://localhost:8080/owm/")), apiKey: "K",
                                            transport: OfflineTransport())
        #expect(try prefixed.currentWeatherURL(for: .cityID(1)).absoluteString
            == "http://localhost:8080/owm/data/2.5/weather?id=1&appid=K&units=metric")
    }

    @Test("the fake feed's current weather decodes in every unit system", arguments: OWMUnits.allCases)
    func decodesEveryUnit(_ units: OWMUnits) async throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        let instant = try utc("2026-01-09T10:15:30Z") + .milliseconds(250)
        let c = try client(FakeFeedTransport(feed: feed, clock: { instant }), units: units)
        let weather = try await c.currentWeather(city: "Budapest", countryCode: "HU")
        let tolerance = units == .imperial ? 0.01 : 0
        #expect(abs(weather.tempC - -3.2) <= tolerance)
        #expect(abs(weather.windMps - 3) <= tolerance)
        #expect(weather.humidity == 80 && weather.pressureHPa == 1021)
        #expect(weather.condition == .snow && weather.conditionID == 600 && weather.conditionDescription == "light snow")
        #expect(weather.observedAt == SimInstant(unixSeconds: instant.unixSeconds))
        #expect(weather.utcOffset == .hours(1))
        #expect(weather.cityName == "Budapest" && weather.cityID == 3_054_643 && weather.countryCode == "HU")
        #expect(weather.snowLastHourMm == 0.3 && weather.rainLastHourMm == 0)
        #expect(weather.sunrise != nil && weather.sunset != nil)
        #expect(weather.feelsLikeC < weather.tempC)
    }

    @Test("the client reads the feed at the time its clock says")
    func followsClock() async throws {
        let series = try WeatherSeries(points: [
            .init(at: utc("2026-01-09T00:00Z"), sample: WeatherSample(tempC: 0)),
            .init(at: utc("2026-01-09T10:00Z"), sample: WeatherSample(tempC: 10)),
        ])
        let feed = FakeOpenWeatherMap(apiKeys: ["KEY"])
        try feed.addCity(CityGazetteer.city(named: "Budapest"), weather: CityWeather(base: .series(series)))
        let clock = TestClock(try utc("2026-01-09T02:30Z"))
        let c = try client(FakeFeedTransport(feed: feed, clock: { clock.now }))
        #expect(try await c.currentWeather(for: .cityID(3_054_643)).tempC == 2.5)
        clock.set(try utc("2026-01-09T07:00Z"))
        let later = try await c.currentWeather(for: .coordinates(latitude: 47.5, longitude: 19.04))
        #expect(later.tempC == 7)
        #expect(later.observedAt == clock.now)
    }

    @Test("each error status maps to its code and quotes OpenWeatherMap's message", arguments: [
        (401, OWMWireTests.errorBodies[0].1, WeatherError.Code.unauthorized, "Invalid API key"),
        (404, OWMWireTests.errorBodies[1].1, .cityNotFound, "city not found"),
        (429, OWMWireTests.errorBodies[2].1, .rateLimited, "temporary blocked"),
        (500, OWMWireTests.errorBodies[3].1, .server, "Internal error"),
        (503, "", .server, "no message"),
        (400, #"{"cod":"400","message":"Nothing to geocode"}"#, .badRequest, "Nothing to geocode"),
        (200, "<html>oops</html>", .decoding, "not valid JSON"),
        (200, #"{"cod":200}"#, .decoding, "coord is missing"),
    ])
    func errorMapping(_ status: Int, _ body: String, _ code: WeatherError.Code, _ quoted: String) async throws {
        let c = try client(StubTransport(status: status, body: body), key: "SECRET")
        let error = try #require(await asyncWeatherError { _ = try await c.currentWeather(city: "Budapest", countryCode: "HU") })
        #expect(error.code == code)
        #expect(error.message.contains(quoted), "\(error.message)")
        #expect(error.message.contains("Budapest,HU"))
        #expect(!error.message.contains("SECRET"))
    }

    @Test("the fake feed's errors reach the client as typed errors", arguments: [
        (FeedFault.unauthorized, WeatherError.Code.unauthorized), (.cityNotFound, .cityNotFound),
        (.rateLimited, .rateLimited), (.serverError, .server),
    ])
    func feedFaults(_ fault: FeedFault, _ code: WeatherError.Code) async throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        try feed.setFault(fault, forCity: "Budapest")
        let c = try client(FakeFeedTransport(feed: feed, clock: { .epoch }))
        let error = try #require(await asyncWeatherError { _ = try await c.currentWeather(city: "Budapest") })
        #expect(error.code == code)
        #expect(error.message.contains(fault.body.message))
    }

    @Test("a wrong key, an unknown city and the 61st call in a minute fail with their codes")
    func realisticFailures() async throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        let clock = TestClock(try utc("2026-01-09T10:00Z"))
        let transport = FakeFeedTransport(feed: feed, clock: { clock.now })
        let wrongKey = try client(transport, key: "WRONG")
        #expect(await asyncWeatherError { _ = try await wrongKey.currentWeather(city: "Budapest") }?.code == .unauthorized)
        let c = try client(transport)
        #expect(await asyncWeatherError { _ = try await c.currentWeather(city: "Atlantis") }?.code == .cityNotFound)
        for _ in 0..<59 { _ = try await c.currentWeather(city: "Budapest") }  // 60 calls so far, with the one above
        #expect(await asyncWeatherError { _ = try await c.currentWeather(city: "Budapest") }?.code == .rateLimited)
        clock.set(try utc("2026-01-09T10:01Z"))
        #expect(try await c.currentWeather(city: "Budapest").tempC == -3.2)
    }

    @Test("transport failures are weather.transport")
    func transportFailure() async throws {
        let c = try client(OfflineTransport())
        let error = try #require(await asyncWeatherError { _ = try await c.currentWeather(city: "Budapest") })
        #expect(error.code == .transport)
        #expect(error.code.rawValue == "weather.transport")
    }

    @Test("the forecast decodes into 40 entries 3 h apart", arguments: OWMUnits.allCases)
    func forecast(_ units: OWMUnits) async throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        let now = try utc("2026-01-09T10:30Z")
        let c = try client(FakeFeedTransport(feed: feed, clock: { now }), units: units)
        let forecast = try await c.forecast(for: .city("Budapest", countryCode: "HU"))
        #expect(forecast.entries.count == 40)
        #expect(forecast.entries.first?.at == (try utc("2026-01-09T12:00Z")))
        for (a, b) in zip(forecast.entries, forecast.entries.dropFirst()) { #expect(b.at - a.at == .hours(3)) }
        #expect(forecast.entries.allSatisfy { abs($0.tempC - -3.2) <= 0.01 && $0.condition == .snow && $0.precipitationProbability == 1 })
        #expect(forecast.entries.contains { $0.isDaytime } && forecast.entries.contains { !$0.isDaytime })
        #expect(forecast.cityName == "Budapest" && forecast.utcOffset == .hours(1))
        #expect(try await c.forecast(for: .cityID(3_054_643), count: 3).entries.count == 3)
    }

    @Test("URLSessionWeatherTransport can be built (it is not exercised: no network here)")
    func urlSessionTransportExists() throws {
        let transport = URLSessionWeatherTransport(timeoutSeconds: 5)
        #expect(transport.timeoutSeconds == 5)
        _ = try client(transport)
    }
}
