import Foundation
import Simulation
import Testing
@testable import Weather

/// The weather watcher's hourly path — request target parsing in the feed, the hand-written writers and
/// readers of the current-weather and error bodies, the client's prepared request — against the general
/// machinery it must agree with (`OrderedJSONEncoder`, `JSONDecoder`, `Double(String)`, `String(Int)`).
struct WatcherPathTests {

    // MARK: Feed request targets

    @Test("request targets: origin form, absolute URLs, fragments, empty pairs, form decoding")
    func requestTargets() {
        func parsed(_ target: String) -> (String, [String]) {
            let request = FeedRequest(target: target)
            return (request.path, request.parameters.map { "\($0.name)=\($0.value)" })
        }
        #expect(parsed("/data/2.5/weather?q=Budapest,HU&appid=KEY&units=metric")
            == ("/data/2.5/weather", ["q=Budapest,HU", "appid=KEY", "units=metric"]))
        #expect(parsed("https://api.openweathermap.org/data/2.5/weather?q=Budapest&appid=KEY")
            == ("/data/2.5/weather", ["q=Budapest", "appid=KEY"]))
        #expect(parsed("http://localhost:8080/owm/data/2.5/weather?id=1") == ("/owm/data/2.5/weather", ["id=1"]))
        #expect(parsed("https://host?q=x") == ("", ["q=x"]))
        #expect(parsed("https://host") == ("", []))
        #expect(parsed("/data/2.5/weather") == ("/data/2.5/weather", []))
        #expect(parsed("/p?a=1#frag&b=2") == ("/p", ["a=1"]))
        #expect(parsed("/p#?a=1") == ("/p", []))
        #expect(parsed("/p?&&a=1&&b&=c&d=") == ("/p", ["a=1", "b=", "=c", "d="]))
        #expect(parsed("/p?a=b=c") == ("/p", ["a=b=c"]))
        #expect(parsed("/p?q=New+York,US&k=a%2Bb%26c&bad=%zz&e=%C3%A9") == ("/p", ["q=New York,US", "k=a+b&c", "bad=%zz", "e=é"]))
        #expect(parsed("/p?q=Zürich,CH&q=Wien") == ("/p", ["q=Zürich,CH", "q=Wien"]))
        #expect(FeedRequest(target: "/p?q=Zürich,CH&q=Wien")["q"] == "Zürich,CH")
        #expect(parsed("") == ("", []))
        #expect(parsed("?") == ("", []))
        #expect(parsed("relative?x=1") == ("relative", ["x=1"]))
    }

    @Test("the feed finds a city by q= with blanks, case and a state part, byte for byte as before")
    func cityQueries() throws {
        let feed = try makeFeed(budapest: exampleSnowSample(), requestsPerMinute: nil)
        let at = try utc("2026-01-09T10:00Z")
        let reference = feed.respond(toTarget: "/data/2.5/weather?q=Budapest,HU&appid=KEY", at: at)
        #expect(reference.status == 200)
        for q in ["budapest", "BUDAPEST,hu", "%20Budapest%20,%20HU%20", "Budapest,Pest,HU", "Budapest,,hu"] {
            #expect(feed.respond(toTarget: "/data/2.5/weather?q=\(q)&appid=KEY", at: at) == reference, "\(q)")
        }
        for q in ["Budapest,AT", ",HU", "Buda", "Budapest,", "Budapest,HU,"] {
            #expect(feed.respond(toTarget: "/data/2.5/weather?q=\(q)&appid=KEY", at: at).status == 404, "\(q)")
        }
        #expect(feed.respond(toTarget: "/data/2.5/weather?q=%20&appid=KEY", at: at).status == 400)
    }

    // MARK: Writers

    @Test("integers are written as String(value) writes them, at the edges too")
    func integers() throws {
        let values: [Int] = [0, 1, -1, 9, 10, -10, 99, 100, 1_000_000, Int.max, Int.min, Int.max - 1, Int.min + 1, -1_234_567_890]
        for value in values {
            let body = OWMErrorBody(cod: .number(value), message: "m")
            #expect(body.compactJSON() == Data(#"{"cod":\#(value),"message":"m"}"#.utf8))
            #expect(try body.compactJSON() == OrderedJSONEncoder().encode(body))
        }
    }

    @Test("long bodies grow the writer's buffer and still give the encoder's bytes")
    func longBodies() throws {
        var value = try #require(try? JSONDecoder().decode(OWMCurrentWeather.self, from: Data(CompactJSONSamples.example.utf8)))
        for length in [0, 1, 100, 511, 512, 513, 5_000] {
            value.name = String(repeating: "a\"\\\u{01}é", count: length / 4) + String(repeating: "x", count: length % 4)
            let written = try #require(value.compactJSON())
            #expect(written == (try OrderedJSONEncoder().encode(value)))
            #expect(try JSONDecoder().decode(OWMCurrentWeather.self, from: written) == value)
        }
    }

    // MARK: Error bodies

    @Test("error bodies: the writer gives the encoder's bytes, the reader JSONDecoder's value")
    func errorBodies() throws {
        var bodies = FeedFault.allCases.map(\.body) + [OWMErrorBody.unknownPath, .nothingToGeocode]
        bodies += [OWMErrorBody(cod: .text("400"), message: "a \"b\" \\ c/d\n\u{01}é 日本"),
                   OWMErrorBody(cod: .text(""), message: ""), OWMErrorBody(cod: .number(-7), message: "x")]
        for body in bodies {
            let written = try #require(body.compactJSON())
            #expect(written == (try OrderedJSONEncoder().encode(body)))
            let read = written.withUnsafeBytes { OWMErrorBody(compactJSON: $0) }
            if String(decoding: written, as: UTF8.self).contains("\\") {
                #expect(read == nil)  // escapes are left to JSONDecoder
            } else {
                #expect(read == body)
            }
            #expect(try JSONDecoder().decode(OWMErrorBody.self, from: written) == body)
        }
    }

    @Test("error bodies in unusual shapes read as JSONDecoder reads them, or are left to it", arguments: [
        #" {"message" : "city not found", "cod" : "404", "extra": [1, {"a": null}]} "#,
        #"{"cod":429,"message":"limit"}"#,
        #"{"cod":"500","message":"Internal error","parameters":["q"]}"#,
        #"{"cod":401}"#, #"{"message":"x"}"#, #"{"cod":true,"message":"x"}"#, #"{"cod":1.5,"message":"x"}"#,
        #"{"cod":401,"message":"x","message":"y"}"#, #"{"cod":401,"message":"a\/b"}"#, #"{"cod":401,"message":"x"} x"#,
        "", "null", "[]", "Internal Server Error",
    ])
    func errorBodyShapes(_ text: String) {
        let bytes = Data(text.utf8)
        let slow = try? JSONDecoder().decode(OWMErrorBody.self, from: bytes)
        if let fast = bytes.withUnsafeBytes({ OWMErrorBody(compactJSON: $0) }) {
            #expect(fast == slow)
        }
    }

    @Test("the client quotes a fault's message whichever reader read it", arguments: FeedFault.allCases)
    func faultMessages(_ fault: FeedFault) async throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        try feed.setFault(fault, forCity: "Budapest")
        let client = OpenWeatherMapClient(baseURL: try #require(URL(string: "https://api.openweathermap.org")), apiKey: "KEY",
                                          transport: FakeFeedTransport(feed: feed, clock: { SimInstant(unixMilliseconds: 0) }))
        let error = await asyncWeatherError { _ = try await client.currentWeather(city: "Budapest", countryCode: "HU") }
        let body = fault.body
        let message = try #require(error?.message)
        #expect(message.contains("(HTTP \(fault.status): \"\(body.message)\")"), "\(message)")
        // The same error when JSONDecoder reads the body: with `/` escaped as `\/` the hand-written reader leaves it.
        let encoded = String(decoding: try OrderedJSONEncoder().encode(body), as: UTF8.self)
        let escaped = Data(encoded.replacingOccurrences(of: "/", with: #"\/"#).utf8)
        if encoded.contains("/") { #expect(escaped.withUnsafeBytes { OWMErrorBody(compactJSON: $0) } == nil) }
        let location = WeatherLocation.city("Budapest", countryCode: "HU")
        #expect(error == OpenWeatherMapClient.error(status: fault.status, body: escaped, location: location))
    }

    // MARK: Numbers

    @Test("doubles read by the reader equal Double(String) for every literal it accepts")
    func doubles() {
        var random = SplitMix64(seed: 11)
        var literals = ["0", "0.0", "1", "-1", "0.1", "0.2", "0.3", "19.04", "47.4979", "-3.2", "269.95", "1013",
                        "123456789012345", "1234567890123456", "0.000000000000001", "0.0000000000000001", "9007199254740993",
                        "1.7976931348623157", "-0.5", "100.25", "1e1", "1E-2", "2.5e-3", "1e22", "1e23", "4.35", "0.07"]
        for _ in 0..<20_000 {
            let digits = 1 + Int(random.next() % 17)
            var text = String((0..<digits).map { _ in Character(String(random.next() % 10)) })
            while text.count > 1, text.hasPrefix("0") { text.removeFirst() }
            if random.next() % 2 == 0, text.count > 1 {
                let at = text.index(text.startIndex, offsetBy: Int(random.next() % UInt64(text.count - 1)) + 1)
                text.insert(".", at: at)
                if text.hasPrefix("0"), !text.hasPrefix("0.") { continue }
            }
            literals.append(random.next() % 3 == 0 ? "-" + text : text)
        }
        var fast = 0
        for literal in literals {
            let read = Data(literal.utf8).withUnsafeBytes { bytes -> Double? in
                var reader = CompactJSONReader(bytes)
                guard let value = reader.readDouble(), reader.isAtEnd else { return nil }
                return value
            }
            guard let read else { continue }  // zeros with a sign and the like are left to JSONDecoder
            fast += 1
            #expect(read.bitPattern == Double(literal)?.bitPattern, "\(literal)")
        }
        #expect(fast > 15_000)
    }

    // MARK: Feed bodies

    @Test("the feed's current-weather bodies: encoder's bytes, JSONDecoder's values, for rain, snow, frost and heat",
          arguments: [
              (-23.456, WeatherCondition.snow, 2.345), (-0.004, .snow, 0.001), (0.004, .drizzle, 0.3), (3.456, .rain, 0.75),
              (-7.5, .clear, 0), (36.6, .clear, 0), (12.3456, .thunderstorm, 12.5), (-40, .fog, 0), (5, .clouds, 0),
          ] as [(Double, WeatherCondition, Double)])
    func feedBodies(_ tempC: Double, _ condition: WeatherCondition, _ precipitation: Double) throws {
        let sample = try WeatherSample(tempC: tempC, humidity: 91.5, condition: condition, windMps: 7.891, windDeg: 359,
                                       pressureHPa: 987.6, precipitationMmPerHour: precipitation)
        let feed = try makeFeed(budapest: sample, requestsPerMinute: nil)
        for units in OWMUnits.allCases {
            for hour in stride(from: 0, to: 24, by: 7) {
                let at = try utc("2026-06-21T00:00Z") + .hours(Int64(hour)) + .seconds(17)
                let response = feed.respond(toTarget: "/data/2.5/weather?q=Budapest,HU&appid=KEY&units=\(units.rawValue)", at: at)
                #expect(response.status == 200)
                let slow = try JSONDecoder().decode(OWMCurrentWeather.self, from: response.body)
                #expect(try OrderedJSONEncoder().encode(slow) == response.body)
                #expect(response.body.withUnsafeBytes { OWMCurrentWeather(compactJSON: $0) } == slow)
                #expect((slow.rain != nil || slow.snow != nil) == (NumberText.rounded(precipitation, decimals: 2) > 0))
            }
        }
    }

    // MARK: Prepared requests

    @Test("a prepared request has the URL the client builds, and sending it gives what currentWeather(for:) gives")
    func preparedRequests() async throws {
        let feed = try makeFeed(budapest: exampleSnowSample())
        let clock = TestClock(try utc("2026-01-09T10:15:30Z"))
        for units in OWMUnits.allCases {
            let client = OpenWeatherMapClient(baseURL: try #require(URL(string: "https://api.openweathermap.org/")), apiKey: "KEY",
                                              transport: FakeFeedTransport(feed: feed, clock: { clock.now }), units: units)
            for location in [WeatherLocation.city("Budapest", countryCode: "HU"), .city("New York", countryCode: nil), .cityID(3_054_643),
                             .coordinates(latitude: 47.5, longitude: 19.04)] {
                let request = try client.currentWeatherRequest(for: location)
                #expect(request.url == (try client.currentWeatherURL(for: location)))
                #expect(request.location == location && request.units == units)
                let viaRequest = await outcome { () throws(WeatherError) in try await client.currentWeather(request) }
                let direct = await outcome { () throws(WeatherError) in try await client.currentWeather(for: location) }
                #expect(viaRequest == direct)
                clock.set(clock.now + .minutes(61))
                // Sent again later: a new answer (nothing is kept).
                let later = await outcome { () throws(WeatherError) in try await client.currentWeather(request) }
                if case .success(let first) = viaRequest, case .success(let second) = later {
                    #expect(second.observedAt == first.observedAt + .minutes(61))
                }
            }
        }
    }

    /// What `body` returns or throws.
    private func outcome(_ body: () async throws(WeatherError) -> CurrentWeather) async -> Result<CurrentWeather, WeatherError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}

/// The typed path of a run (``FakeFeedTransport`` with `typed`): every answer the client makes of it is the one
/// it makes of the bytes — values, errors and the feed's request counting alike.
struct TypedFeedPathTests {
    /// What a client makes of one request: the weather, or the error's code and message.
    enum Outcome: Equatable {
        case weather(CurrentWeather)
        case error(WeatherError.Code, String)
    }

    func outcome(_ client: OpenWeatherMapClient, _ location: WeatherLocation) async -> Outcome {
        do {
            return .weather(try await client.currentWeather(for: location))
        } catch {
            return .error(error.code, error.message)
        }
    }

    @Test("typed and byte answers agree: hours of weather, unknown cities, a wrong key, faults and the rate limit")
    func typedAgreesWithBytes() async throws {
        let base = try #require(URL(string: "https://api.openweathermap.org"))
        let start = try utc("2026-01-09T00:00Z")
        var outcomes: [Bool: [Outcome]] = [:]
        var counts: [Bool: Int] = [:]
        for typed in [false, true] {
            let feed = FakeOpenWeatherMap(apiKeys: ["KEY"], requestsPerMinute: 5)
            try feed.addCity(CityGazetteer.city(named: "Budapest"),
                             weather: CityWeather(base: .diurnal(try DiurnalWeather(meanC: 0.5, amplitudeK: 6, minAtHour: 5, noiseK: 0.8, seed: 3,
                                                                                         city: "Budapest", calendar: budapestCalendar()))))
            let clock = TestClock(start)
            let transport = FakeFeedTransport(feed: feed, clock: { clock.now }, typed: typed)
            let client = OpenWeatherMapClient(baseURL: base, apiKey: "KEY", transport: transport)
            let wrongKey = OpenWeatherMapClient(baseURL: base, apiKey: "NOPE", transport: transport)
            var seen: [Outcome] = []
            for hour in 0..<200 {
                clock.set(start + .hours(Int64(hour)))
                if hour == 50 { try feed.setFault(.serverError, forCity: "Budapest") }
                if hour == 60 { try feed.setFault(nil, forCity: "Budapest") }
                seen.append(await outcome(client, .city("Budapest", countryCode: "HU")))
                if hour % 17 == 0 { seen.append(await outcome(client, .city("Atlantis", countryCode: nil))) }
                if hour % 23 == 0 { seen.append(await outcome(wrongKey, .city("Budapest", countryCode: nil))) }
                if hour == 100 {  // the sixth request of a minute is refused
                    for _ in 0..<6 { seen.append(await outcome(client, .cityID(3054643))) }
                }
            }
            outcomes[typed] = seen
            counts[typed] = feed.requestCount
        }
        #expect(outcomes[true] == outcomes[false])
        #expect(counts[true] == counts[false])
        let answers = outcomes[true] ?? []
        #expect(answers.contains { if case .weather = $0 { true } else { false } })
        for code: WeatherError.Code in [.server, .cityNotFound, .unauthorized, .rateLimited] {
            #expect(answers.contains(.error(code, answers.compactMap { if case .error(code, let m) = $0 { m } else { nil } }.first ?? "")),
                    "\(code)")
        }
    }

    @Test("a bytes-only transport, and the default, answer nothing typed")
    func bytesByDefault() async throws {
        let feed = try makeFeed(budapest: try exampleSnowSample())
        let url = try #require(URL(string: "https://api.openweathermap.org/data/2.5/weather?q=Budapest&appid=KEY&units=metric"))
        let plain = FakeFeedTransport(feed: feed, clock: { SimInstant(unixMilliseconds: 0) })
        #expect(try await plain.currentWeather(url) == nil)
        let typed = FakeFeedTransport(feed: feed, clock: { SimInstant(unixMilliseconds: 0) }, typed: true)
        guard case .current(let value)? = try await typed.currentWeather(url) else {
            Issue.record("the typed transport answered with bytes")
            return
        }
        let bytes = try await plain.get(url).body
        #expect(value == (try JSONDecoder().decode(OWMCurrentWeather.self, from: bytes)))
    }
}

/// The feed reads each request target once (``FakeOpenWeatherMap`` remembers what it asks): what it remembers
/// never outlives a change of the cities, and any number of targets is answered.
struct FeedPreparedTargetTests {
    @Test("a city added after a 404 is found by the same target; hundreds of targets are all answered")
    func rememberedTargetsFollowTheCities() throws {
        let feed = FakeOpenWeatherMap(apiKeys: ["KEY"], requestsPerMinute: nil)
        try feed.addCity(CityGazetteer.city(named: "Budapest"), weather: CityWeather(base: .constant(WeatherSample(tempC: 1))))
        let vienna = "/data/2.5/weather?q=Vienna&appid=KEY&units=metric"
        let at = SimInstant(unixMilliseconds: 0)
        #expect(feed.respond(toTarget: vienna, at: at).status == 404)
        #expect(feed.respond(toTarget: vienna, at: at).status == 404)
        try feed.addCity(CityGazetteer.city(named: "Vienna"), weather: CityWeather(base: .constant(WeatherSample(tempC: 5))))
        #expect(feed.respond(toTarget: vienna, at: at).status == 200)
        for i in 0..<600 {
            let target = "/data/2.5/weather?q=Budapest&appid=KEY&units=metric&n=\(i)"
            #expect(feed.respond(toTarget: target, at: at).status == 200)
        }
        #expect(feed.respond(toTarget: "/data/2.5/weather?q=Budapest&appid=NOPE", at: at).status == 401)
        #expect(feed.respond(toTarget: vienna, at: at).status == 200)
        #expect(feed.requestCount == 605)
    }
}
