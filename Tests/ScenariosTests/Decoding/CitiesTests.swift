@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Testing
import Twin
import Weather

/// `cities` and listings in cities outside the built-in gazetteer (SCENARIO-FORMAT.md, "any city").
@Suite("Any city")
struct CitiesTests {
    /// `minimalScenario` with its city renamed and, optionally, a `cities` block.
    func scenario(city: String, country: String = "Hungary", cities: String? = nil) -> String {
        var text = minimalScenario.replacingOccurrences(of: "\"Budapest\"", with: "\"\(city)\"")
            .replacingOccurrences(of: "\"country\": \"Hungary\"", with: "\"country\": \"\(country)\"")
        if let cities { text = text.replacingOccurrences(of: "\"users\":", with: "\"cities\": \(cities),\n  \"users\":") }
        return text
    }

    @Test func aMadeUpCityWithWeatherIsValid() throws {
        let decoded = try ScenarioDecoder.decode(scenario(city: "Testville", country: "Testland"), file: "t.json")
        let info = try decoded.feedCity(named: "Testville")
        #expect(info.owmID == CitySpec.derivedID(forCity: "Testville"))
        #expect(info.owmID >= CitySpec.derivedIDBase)
        #expect(info.countryCode == "ZZ")
        #expect(info.calendar.identifier == "Europe/Budapest")
    }

    @Test func citiesGiveCoordinatesAndCountry() throws {
        let text = scenario(city: "Siófok", cities: #"{ "Siófok": { "country": "HU", "lat": 46.9, "lon": 18.05 } }"#)
        let info = try ScenarioDecoder.decode(text, file: "t.json").feedCity(named: "Siófok")
        #expect(info.latitude == 46.9 && info.longitude == 18.05 && info.countryCode == "HU")
        #expect(info.owmID == CitySpec.derivedID(forCity: "Siófok"))
    }

    @Test func wellKnownCitiesKeepTheirRealID() throws {
        let info = try ScenarioDecoder.decode(minimalScenario, file: "t.json").feedCity(named: "Budapest")
        #expect(info.owmID == 3_054_643)
        #expect(info.latitude == 47.498)
    }

    @Test func theDerivedIDIsStableAndCaseInsensitive() {
        #expect(CitySpec.derivedID(forCity: "Testville") == CitySpec.derivedID(forCity: "testville"))
        #expect(CitySpec.derivedID(forCity: "Testville") != CitySpec.derivedID(forCity: "Testvilla"))
        // FNV-1a 64 of "testville" mod 10^8, plus the base: written out so a change of the hash is seen.
        #expect(CitySpec.derivedID(forCity: "Testville") == 900_000_000 + Int(StableHash.fnv1a64("testville") % 100_000_000))
    }

    @Test(arguments: [
        (#"{ "Siófok": { "lat": 91, "lon": 18 } }"#, "cities.Siófok.lat", "between -90 and 90"),
        (#"{ "Siófok": { "lat": 46.9, "lon": -180.5 } }"#, "cities.Siófok.lon", "between -180 and 180"),
        (#"{ "Siófok": { "lat": 46.9, "lon": 18, "elevation": 100 } }"#, "cities.Siófok.elevation", "unknown key"),
        (#"{ "Siófok": { "lon": 18 } }"#, "cities.Siófok", "missing the required key \"lat\""),
        (#"{ "Siófok": { "lat": 46.9, "lon": 18, "country": "Hungary!" } }"#, "cities.Siófok.country", "ISO 3166"),
        (#"{ "Siófok": { "lat": 46.9, "lon": 18, "country": "AT" } }"#, "listings[0].country", "puts the city in AT"),
        (#"{ "Siófok": { "lat": 46.9, "lon": 18 }, "Tihany": { "lat": 46.9, "lon": 17.9 } }"#, "cities.Tihany", "no weather"),
        (#"[]"#, "cities", "expected an object of cities"),
    ])
    func badCitiesAreLocatedErrors(cities: String, path: String, message: String) {
        let found = issues(scenario(city: "Siófok", cities: cities))
        #expect(found.contains { $0.path == path && $0.message.contains(message) }, "\(found)")
        #expect(found.allSatisfy { $0.line != nil })
    }

    @Test func theFakeFeedAnswersForAMadeUpCity() throws {
        let decoded = try ScenarioDecoder.decode(scenario(city: "Testville", country: "Testland"), file: "t.json")
        let feed = FakeOpenWeatherMap(apiKeys: ["KEY"], requestsPerMinute: nil)
        try feed.addCity(try decoded.feedCity(named: "Testville"), weather: CityWeather(base: decoded.weather[0].source))
        let response = feed.respond(toTarget: "/data/2.5/weather?q=Testville&appid=KEY&units=metric", at: decoded.start)
        #expect(response.status == 200)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("\"name\":\"Testville\""))
        #expect(body.contains("\"id\":\(CitySpec.derivedID(forCity: "Testville"))"))
        #expect(body.contains("\"temp\":-2"))
        #expect(feed.respond(toTarget: "/data/2.5/weather?id=\(CitySpec.derivedID(forCity: "Testville"))&appid=KEY", at: decoded.start).status == 200)
    }
}
