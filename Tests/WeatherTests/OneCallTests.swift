import Foundation
import Simulation
import Testing
import Weather

/// `/data/3.0/onecall`: the same simulated weather as the 2.5 endpoints, in One Call's shape.
struct OneCallTests {
    /// Budapest's coordinates, as the gazetteer has them.
    static let budapest = "lat=47.4979&lon=19.0402"

    /// A feed whose Budapest warms linearly from 0 °C (2026-01-09 00:00 UTC) to 24 °C a day later,
    /// raining from noon on.
    func rampFeed() throws -> FakeOpenWeatherMap {
        let feed = FakeOpenWeatherMap(apiKeys: ["KEY"], requestsPerMinute: nil)
        let series = try WeatherSeries(points: [
            .init(at: try utc("2026-01-09T00:00Z"), sample: try WeatherSample(tempC: 0, humidity: 60)),
            .init(at: try utc("2026-01-09T12:00Z"), sample: try WeatherSample(tempC: 12, humidity: 60, condition: .rain)),
            .init(at: try utc("2026-01-10T00:00Z"), sample: try WeatherSample(tempC: 24, humidity: 60, condition: .rain)),
        ], interpolation: .linear)
        try feed.addCity(CityGazetteer.city(named: "Budapest"), weather: CityWeather(base: .series(series)))
        return feed
    }

    func oneCall(_ feed: FakeOpenWeatherMap, _ query: String, at text: String) throws -> (Int, [String: Any]) {
        let response = feed.respond(toTarget: "/data/3.0/onecall?\(query)&appid=KEY", at: try utc(text))
        return (response.status, try jsonObject(response.body))
    }

    @Test("the body has One Call's sections and sizes: 61 minutes, 48 hours, 8 days, with the place's zone")
    func shape() throws {
        let (status, body) = try oneCall(try rampFeed(), "\(Self.budapest)&units=metric", at: "2026-01-09T06:30Z")
        #expect(status == 200)
        #expect(Set(body.keys) == ["lat", "lon", "timezone", "timezone_offset", "current", "minutely", "hourly", "daily"])
        #expect(body["timezone"] as? String == "Europe/Budapest")
        #expect(body["timezone_offset"] as? Int == 3_600)
        #expect((body["minutely"] as? [Any])?.count == 61)
        #expect((body["hourly"] as? [Any])?.count == 48)
        #expect((body["daily"] as? [Any])?.count == 8)
        let current = try #require(body["current"] as? [String: Any])
        #expect(Set(current.keys).isSuperset(of: ["dt", "sunrise", "sunset", "temp", "feels_like", "pressure", "humidity", "dew_point",
                                                  "uvi", "clouds", "visibility", "wind_speed", "wind_deg", "weather"]))
        #expect(current["dt"] as? Int == 1_767_940_200)
    }

    @Test("current is the observation of /data/2.5/weather, hourly the forecast of /data/2.5/forecast at the same times")
    func sameWeatherAsTwoFive() throws {
        let feed = try rampFeed()
        let now = try utc("2026-01-09T06:30Z")
        let weather = try jsonObject(feed.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=KEY&units=metric", at: now).body)
        let forecast = try jsonObject(feed.respond(toTarget: "/data/2.5/forecast?q=Budapest&appid=KEY&units=metric", at: now).body)
        let (_, body) = try oneCall(feed, "\(Self.budapest)&units=metric", at: "2026-01-09T06:30Z")
        let current = try #require(body["current"] as? [String: Any])
        #expect(number(current, "temp") == number(weather, "main", "temp"))
        #expect(number(current, "temp") == 6.5)  // 0 → 12 °C over 12 h, at 06:30
        let hourly = try #require(body["hourly"] as? [[String: Any]])
        let byTime = Dictionary(uniqueKeysWithValues: hourly.map { (($0["dt"] as? Int) ?? 0, $0) })
        let list = try #require(forecast["list"] as? [[String: Any]])
        var compared = 0
        for entry in list {
            guard let dt = entry["dt"] as? Int, let hour = byTime[dt] else { continue }
            #expect(number(hour, "temp") == number(entry, "main", "temp"), "at \(dt)")
            compared += 1
        }
        #expect(compared == 15)  // 09:00 … 03:00 two days on, every 3 h within the 48 hours from 06:00
        #expect((hourly.first?["dt"] as? Int) == 1_767_938_400)  // the current hour, 06:00Z
        // Rain from noon: no pop before, pop 1 and a 1 h amount after.
        #expect(number(hourly[0], "pop") == 0)
        #expect(number(hourly[7], "pop") == 1)
        #expect(hourly[7]["rain"] != nil)
    }

    @Test("a day is its 24 local hours: minimum, maximum, the temperatures at 06, 12 and 18 h, the summed rain")
    func dailyAggregates() throws {
        let (_, body) = try oneCall(try rampFeed(), "\(Self.budapest)&units=metric", at: "2026-01-09T00:00Z")
        let today = try #require((body["daily"] as? [[String: Any]])?.first)
        // Local day 2026-01-09 in Budapest (UTC+1) runs from 2026-01-08T23:00Z; the ramp starts at 00:00Z.
        #expect(today["dt"] as? Int == 1_767_956_400)  // 12:00 local = 11:00Z
        #expect(number(today, "temp", "min") == 0)
        #expect(number(today, "temp", "morn") == 5)  // 06:00 local = 05:00Z: 5 °C
        #expect(number(today, "temp", "day") == 11)
        #expect(number(today, "temp", "eve") == 17)
        #expect(number(today, "temp", "max") == 22)  // 23:00 local = 22:00Z
        #expect(number(today, "temp", "night") == 23)  // 24:00 local
        #expect(number(today, "pop") == 1)
        #expect(today["rain"] is Double || today["rain"] is Int)
    }

    @Test("the dew point follows the Magnus formula", arguments: [(20.0, 50.0, 9.26), (0.0, 100.0, 0.0), (30.0, 80.0, 26.17)])
    func dewPoint(_ tempC: Double, _ humidity: Double, _ expected: Double) throws {
        let feed = FakeOpenWeatherMap(apiKeys: ["KEY"], requestsPerMinute: nil)
        try feed.addCity(CityGazetteer.city(named: "Budapest"), weather: CityWeather(base: .constant(WeatherSample(tempC: tempC, humidity: humidity))))
        let (_, body) = try oneCall(feed, "\(Self.budapest)&units=metric&exclude=minutely,hourly,daily", at: "2026-01-09T00:00Z")
        let current = try #require(body["current"] as? [String: Any])
        let value = try #require(number(current, "dew_point"))
        #expect(abs(value - expected) < 0.011)
    }

    @Test("exclude drops sections; an unknown section, a name instead of coordinates and a bad key are OWM's errors")
    func excludeAndErrors() throws {
        let feed = try rampFeed()
        let (status, body) = try oneCall(feed, "\(Self.budapest)&exclude=minutely,hourly,daily,alerts", at: "2026-01-09T00:00Z")
        #expect(status == 200)
        #expect(Set(body.keys) == ["lat", "lon", "timezone", "timezone_offset", "current"])
        #expect(number(try #require(body["current"] as? [String: Any]), "temp") == 273.15)  // standard units by default
        let (badExclude, message) = try oneCall(feed, "\(Self.budapest)&exclude=weekly", at: "2026-01-09T00:00Z")
        #expect(badExclude == 400)
        #expect(message["message"] as? String == "weekly is not a valid value for exclude")
        let (byName, nameBody) = try oneCall(feed, "q=Budapest", at: "2026-01-09T00:00Z")
        #expect(byName == 400)
        #expect(nameBody["message"] as? String == "Nothing to geocode")
        let unauthorized = feed.respond(toTarget: "/data/3.0/onecall?\(Self.budapest)&appid=WRONG", at: try utc("2026-01-09T00:00Z"))
        #expect(unauthorized.status == 401)
        let (far, _) = try oneCall(feed, "lat=0&lon=0", at: "2026-01-09T00:00Z")
        #expect(far == 404)
    }

    @Test("the same request gives the same bytes")
    func byteIdentical() throws {
        let target = "/data/3.0/onecall?\(Self.budapest)&appid=KEY&units=imperial"
        let a = try rampFeed().respond(toTarget: target, at: try utc("2026-01-09T07:45Z"))
        let b = try rampFeed().respond(toTarget: target, at: try utc("2026-01-09T07:45Z"))
        #expect(a.body == b.body)
        #expect(a.body.count > 10_000)
    }
}
