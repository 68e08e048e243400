import Foundation
import Simulation
import Testing
import Weather

struct FakeOpenWeatherMapTests {
    /// WEATHER.md's example response (its key set is the contract).
    static let documentedExample = #"""
    {"coord":{"lon":19.04,"lat":47.5},"weather":[{"id":600,"main":"Snow","description":"light snow","icon":"13n"}],
     "base":"stations","main":{"temp":-3.2,"feels_like":-7.9,"temp_min":-3.2,"temp_max":-3.2,"pressure":1021,
     "humidity":80,"sea_level":1021,"grnd_level":1003},"visibility":10000,"wind":{"speed":3.0,"deg":200},
     "clouds":{"all":90},"snow":{"1h":0.3},"dt":1767913200,"sys":{"country":"HU","sunrise":1767939900,
     "sunset":1767971200},"timezone":3600,"id":3054643,"name":"Budapest","cod":200}
    """#

    /// 2026-01-09 00:00 in Budapest, the example's `dt`.
    static let exampleInstant = SimInstant(unixSeconds: 1_767_913_200)

    @Test("current weather has WEATHER.md's field set in every unit system", arguments: OWMUnits.allCases)
    func fieldSet(_ units: OWMUnits) throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        let response = feed.respond(toTarget: "/data/2.5/weather?q=Budapest,HU&appid=KEY&units=\(units.rawValue)",
                                    at: Self.exampleInstant)
        #expect(response.status == 200)
        #expect(try keyPaths(ofJSON: response.body) == keyPaths(ofJSON: Data(Self.documentedExample.utf8)))
    }

    @Test("temperatures and wind are in the requested units; standard is the default", arguments: [
        ("&units=standard", 269.95, 3.0),
        ("", 269.95, 3.0),
        ("&units=kelvinish", 269.95, 3.0),
        ("&units=metric", -3.2, 3.0),
        ("&units=imperial", 26.24, 6.71),
    ])
    func units(_ parameter: String, _ temp: Double, _ wind: Double) throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        let response = feed.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=KEY\(parameter)", at: Self.exampleInstant)
        let object = try jsonObject(response.body)
        #expect(number(object, "main", "temp") == temp)
        #expect(number(object, "main", "temp_min") == temp)
        #expect(number(object, "main", "temp_max") == temp)
        #expect(number(object, "wind", "speed") == wind)
    }

    @Test("dt is the simulated time and timezone the offset then")
    func simulatedTime() throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        for (instant, offset) in [(Self.exampleInstant, 3_600.0), (try utc("2026-07-15T10:00:00Z") + .milliseconds(750), 7_200.0)] {
            let object = try jsonObject(feed.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=KEY", at: instant).body)
            #expect(number(object, "dt") == Double(instant.unixSeconds))
            #expect(number(object, "timezone") == offset)
        }
    }

    @Test("derived fields are plausible: pressure, visibility, snow, night icon, sunrise and sunset")
    func derivedFields() throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        let data = feed.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=KEY&units=metric", at: Self.exampleInstant).body
        let wire = try JSONDecoder().decode(OWMCurrentWeather.self, from: data)
        #expect(wire.weather == [OWMWeatherEntry(id: 600, main: "Snow", description: "light snow", icon: "13n")])
        #expect(wire.main.pressure == 1021 && wire.main.seaLevel == 1021)
        #expect(wire.main.grndLevel.map { (1_000...1_010).contains($0) } == true)  // 150 m above sea level
        #expect(wire.main.feelsLike < -6 && wire.main.feelsLike > -9)  // wind chill at 3 m/s
        #expect(wire.visibility == 10_000 && wire.clouds.all == 90)
        #expect(wire.snow == OWMPrecipitation(oneHour: 0.3) && wire.rain == nil)
        #expect(wire.id == 3_054_643 && wire.name == "Budapest" && wire.sys.country == "HU")
        // Sunrise about 07:30 and sunset about 16:10 local (CET) on 9 January.
        #expect(abs(wire.sys.sunrise - 1_767_939_900) < 15 * 60)
        #expect(abs(wire.sys.sunset - 1_767_971_200) < 15 * 60)
        let noon = feed.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=KEY", at: try utc("2026-01-09T11:00Z")).body
        #expect(try JSONDecoder().decode(OWMCurrentWeather.self, from: noon).weather.first?.icon == "13d")
    }

    @Test("rain appears only with precipitation")
    func precipitationBlocks() throws {
        let dry = try makeFeed(budapest: WeatherSample(tempC: 10, condition: .clouds))
        let dryKeys = try keyPaths(ofJSON: dry.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=KEY", at: .epoch).body)
        #expect(!dryKeys.contains("rain") && !dryKeys.contains("snow"))
        let wet = try makeFeed(budapest: WeatherSample(tempC: 10, condition: .rain, precipitationMmPerHour: 1.25))
        let wetObject = try jsonObject(wet.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=KEY", at: .epoch).body)
        #expect(number(wetObject, "rain", "1h") == 1.25)
        #expect(wetObject["snow"] == nil)
    }

    @Test("the same request gives the same bytes")
    func byteIdentical() throws {
        let a = try makeFeed(budapest: exampleSnowSample()), b = try makeFeed(budapest: exampleSnowSample())
        let target = "/data/2.5/weather?q=Budapest&appid=KEY&units=metric"
        let first = a.respond(toTarget: target, at: Self.exampleInstant)
        #expect(first == b.respond(toTarget: target, at: Self.exampleInstant))
        #expect(first.bodyText.hasPrefix(#"{"coord":{"lon":19.0399,"lat":47.498},"weather":[{"id":600,"main":"Snow","description":"light snow","icon":"13n"}],"base":"stations","main":{"temp":-3.2,"#))
        #expect(first.bodyText.hasSuffix(#""timezone":3600,"id":3054643,"name":"Budapest","cod":200}"#))
    }

    @Test("cities are found by name, name and country, id, and nearby coordinates", arguments: [
        ("q=Budapest", 200), ("q=budapest,hu", 200), ("q=BUDAPEST,Budapest,HU", 200), ("q=Budapest,AT", 404),
        ("q=Szeged", 404), ("q=", 400), ("id=3054643", 200), ("id=1", 404), ("id=abc", 400),
        ("lat=47.5&lon=19.04", 200), ("lat=47.2&lon=19.3", 200), ("lat=0&lon=0", 404), ("lat=95&lon=0", 400), ("", 400),
    ])
    func locations(_ location: String, _ status: Int) throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        let response = feed.respond(toTarget: "/data/2.5/weather?\(location)&appid=KEY", at: Self.exampleInstant)
        #expect(response.status == status, "\(location): \(response.bodyText)")
        if status == 200 { #expect(try jsonObject(response.body)["name"] as? String == "Budapest") }
        if status == 404 { #expect(response.bodyText == #"{"cod":"404","message":"city not found"}"#) }
    }

    @Test("missing or unknown API keys get the 401 body; unknown paths the 404 body")
    func keysAndPaths() throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        let expected = #"{"cod":401,"message":"Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#
        for target in ["/data/2.5/weather?q=Budapest", "/data/2.5/weather?q=Budapest&appid=NOPE", "/data/2.5/forecast?q=Budapest"] {
            let response = feed.respond(toTarget: target, at: .epoch)
            #expect(response.status == 401 && response.bodyText == expected)
        }
        let unknown = feed.respond(toTarget: "/data/2.5/onecall?lat=47.5&lon=19.04&appid=KEY", at: .epoch)  // retired by OWM
        #expect(unknown.status == 404 && unknown.bodyText == #"{"cod":"404","message":"Internal error"}"#)
        let absolute = feed.respond(to: try #require(URL(string: "https://api.openweathermap.org/data/2.5/weather?q=Budapest&appid=KEY")), at: .epoch)
        #expect(absolute.status == 200)
    }

    /// pyowm sends the key as `APPID`; OpenWeatherMap takes either spelling.
    @Test("the API key is accepted as appid or APPID", arguments: ["appid", "APPID"])
    func keyParameterSpelling(_ name: String) throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        #expect(feed.respond(toTarget: "/data/2.5/weather?q=Budapest&\(name)=KEY", at: .epoch).status == 200)
        #expect(feed.respond(toTarget: "/data/2.5/forecast?q=Budapest&\(name)=KEY", at: .epoch).status == 200)
        #expect(feed.respond(toTarget: "/data/2.5/weather?q=Budapest&\(name)=NOPE", at: .epoch).status == 401)
    }

    @Test("injected errors answer with the real bodies until cleared", arguments: OWMWireTests.errorBodies)
    func injectedErrors(_ fault: FeedFault, _ body: String) throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        try feed.setFault(fault, forCity: "Budapest")
        #expect(feed.fault(forCity: "budapest,HU") == fault)
        let failed = feed.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=KEY", at: .epoch)
        #expect(failed.status == fault.status)
        #expect(failed.bodyText == body)
        #expect(failed.body == Data(body.utf8))
        #expect(feed.respond(toTarget: "/data/2.5/forecast?id=3054643&appid=KEY", at: .epoch).status == fault.status)
        #expect(feed.respond(toTarget: "/data/2.5/weather?q=Vienna&appid=KEY", at: .epoch).status == 200)
        try feed.setFault(nil, forCity: "Budapest")
        #expect(feed.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=KEY", at: .epoch).status == 200)
    }

    @Test("configuring an unknown city is weather.cityNotFound")
    func unknownCityConfiguration() throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        let error = try #require(weatherError { try feed.setFault(.serverError, forCity: "Szeged") })
        #expect(error.code == .cityNotFound)
        #expect(error.message.contains("Szeged") && error.message.contains("Budapest,HU, Vienna,AT"))
        let duplicate = try #require(weatherError {
            try feed.addCity(CityGazetteer.city(named: "Budapest"), weather: CityWeather(base: .constant(exampleSnowSample())))
        })
        #expect(duplicate.code == .invalidSource)
    }

    @Test("the request limit works per key in simulated minutes")
    func rateLimit() throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        feed.addAPIKey("OTHER")
        let minute = try utc("2026-01-09T10:00Z")
        let target = "/data/2.5/weather?q=Budapest&appid=KEY"
        for i in 0..<60 {
            #expect(feed.respond(toTarget: target, at: minute + .milliseconds(Int64(i) * 990)).status == 200)
        }
        let refused = feed.respond(toTarget: target, at: minute + .seconds(59))
        #expect(refused.status == 429)
        #expect(refused.bodyText == OWMWireTests.errorBodies[2].1)
        #expect(feed.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=OTHER", at: minute + .seconds(59)).status == 200)
        #expect(feed.respond(toTarget: target, at: minute + .seconds(60)).status == 200)
        #expect(feed.requestCount == 63)
        feed.setRequestsPerMinute(nil)
        for _ in 0..<100 { #expect(feed.respond(toTarget: target, at: minute + .seconds(61)).status == 200) }
    }

    @Test("the forecast has 40 steps 3 h apart from the next 3-hour UTC boundary")
    func forecast() throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        let now = try utc("2026-01-09T10:30Z")
        let data = feed.respond(toTarget: "/data/2.5/forecast?q=Budapest,HU&appid=KEY&units=metric", at: now).body
        let wire = try JSONDecoder().decode(OWMForecastResponse.self, from: data)
        #expect(wire.cod == .text("200") && wire.cnt == 40 && wire.list.count == 40)
        #expect(wire.list.first?.dtTxt == "2026-01-09 12:00:00")
        #expect(wire.list.first?.dt == (try utc("2026-01-09T12:00Z")).unixSeconds)
        #expect(wire.list.last?.dtTxt == "2026-01-14 09:00:00")
        for (a, b) in zip(wire.list, wire.list.dropFirst()) { #expect(b.dt - a.dt == 10_800) }
        let pattern = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
        for entry in wire.list {
            #expect(entry.dtTxt.wholeMatch(of: pattern) != nil)
            #expect(entry.main.temp == -3.2 && entry.main.tempKf == 0)
            #expect(entry.snow == OWMPrecipitation(threeHours: 0.9))
            #expect(entry.sys.pod == (entry.weather.first?.icon.hasSuffix("d") == true ? "d" : "n"))
            // Every forecast entry carries a gust, 1.4 times the mean wind, rounded as the speed is.
            #expect(entry.wind.gust == (entry.wind.speed * 1.4 * 100).rounded() / 100)
        }
        #expect(wire.city.name == "Budapest" && wire.city.id == 3_054_643 && wire.city.timezone == 3_600)
        #expect(wire.city.population == 1_741_041)
        let keys = try keyPaths(ofJSON: data)
        for key in ["cod", "message", "cnt", "list[].dt", "list[].main.temp", "list[].weather[].icon", "list[].clouds.all",
                    "list[].wind.speed", "list[].wind.gust", "list[].visibility", "list[].pop", "list[].sys.pod", "list[].dt_txt",
                    "city.id", "city.name", "city.coord.lat", "city.country", "city.population", "city.timezone",
                    "city.sunrise", "city.sunset"] {
            #expect(keys.contains(key), "forecast lacks \(key)")
        }
        #expect(try jsonObject(feed.respond(toTarget: "/data/2.5/forecast?q=Budapest&appid=KEY&cnt=5", at: now).body)["cnt"] as? Int == 5)
        // Exactly on a boundary, the first step is the next one.
        let onBoundary = feed.respond(toTarget: "/data/2.5/forecast?q=Budapest&appid=KEY", at: try utc("2026-01-09T12:00Z")).body
        #expect(try JSONDecoder().decode(OWMForecastResponse.self, from: onBoundary).list.first?.dtTxt == "2026-01-09 15:00:00")
    }

    @Test("the forecast follows the base source; an override in force persists, later ones are unknown")
    func forecastOverrides() throws {
        let feed = try makeFeed(budapest: WeatherSample(tempC: 0))
        try feed.addOverride(WeatherOverride(from: try utc("2026-01-09T06:00Z"), sample: try WeatherSample(tempC: 10)), forCity: "Budapest")
        try feed.addOverride(WeatherOverride(from: try utc("2026-01-10T06:00Z"), sample: try WeatherSample(tempC: 20)), forCity: "Budapest")
        func temps(at now: SimInstant) throws -> [Double] {
            let data = feed.respond(toTarget: "/data/2.5/forecast?q=Budapest&appid=KEY&units=metric", at: now).body
            return try JSONDecoder().decode(OWMForecastResponse.self, from: data).list.map(\.main.temp)
        }
        #expect(try temps(at: utc("2026-01-09T00:00Z")) == Array(repeating: 0, count: 40))
        #expect(try temps(at: utc("2026-01-09T07:00Z")) == Array(repeating: 10, count: 40))
        let current = try jsonObject(feed.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=KEY&units=metric",
                                                  at: utc("2026-01-10T07:00Z")).body)
        #expect(number(current, "main", "temp") == 20)
    }

    @Test("names with spaces arrive percent- or plus-encoded; polar days and nights have no sunrise")
    func spacesAndPolarCities() throws {
        let feed = FakeOpenWeatherMap(apiKeys: ["KEY"])
        try feed.addCity(CityGazetteer.city(named: "New York"), weather: CityWeather(base: .constant(WeatherSample(tempC: 1))))
        let tromso = try CityInfo(name: "Tromsø", countryCode: "no", owmID: 3_133_880, latitude: 69.6496, longitude: 18.957,
                                  calendar: LocalCalendar(identifier: "Europe/Oslo"))
        #expect(tromso.countryCode == "NO")
        try feed.addCity(tromso, weather: CityWeather(base: .constant(WeatherSample(tempC: -8))))
        for q in ["New%20York,US", "New+York,us", "new york"] {
            #expect(feed.respond(toTarget: "/data/2.5/weather?q=\(q)&appid=KEY", at: .epoch).status == 200, "\(q)")
        }
        let winter = try JSONDecoder().decode(OWMCurrentWeather.self, from: feed.respond(
            toTarget: "/data/2.5/weather?q=Troms%C3%B8&appid=KEY", at: utc("2026-12-21T11:00Z")).body)
        #expect(winter.sys.sunrise == 0 && winter.sys.sunset == 0 && winter.weather.first?.icon == "01n")
        let summer = try JSONDecoder().decode(OWMCurrentWeather.self, from: feed.respond(
            toTarget: "/data/2.5/weather?q=Troms%C3%B8&appid=KEY", at: utc("2026-06-21T23:00Z")).body)
        #expect(summer.sys.sunrise == 0 && summer.sys.sunset == 0 && summer.weather.first?.icon == "01d")
        let bad = try #require(weatherError {
            _ = try CityInfo(name: "X", countryCode: "XYZ", owmID: 1, latitude: 0, longitude: 0, calendar: .utc)
        })
        #expect(bad.code == .invalidSource && bad.message.contains("XYZ"))
    }

    @Test("the gazetteer knows cities by name and country")
    func gazetteer() throws {
        let budapest = try CityGazetteer.city(named: "budapest", country: "Hungary")
        #expect(budapest.owmID == 3_054_643 && budapest.countryCode == "HU" && budapest.calendar.identifier == "Europe/Budapest")
        #expect(try CityGazetteer.city(named: "Budapest", country: "hu") == budapest)
        let error = try #require(weatherError { _ = try CityGazetteer.city(named: "Atlantis") })
        #expect(error.code == .invalidSource && error.message.contains("Atlantis"))
        #expect(CityGazetteer.entries.map(\.name) == CityGazetteer.entries.map(\.name).sorted())
    }
}
