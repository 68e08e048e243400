import Foundation
import Simulation
import Testing
@testable import Weather

/// The hand-written current-weather writer and reader against the general machinery they stand in for:
/// the writer must give ``OrderedJSONEncoder``'s bytes, the reader `JSONDecoder`'s values (or give up).
struct OWMCurrentWeatherCompactJSONTests {

    /// What the reader makes of `text` (`nil`: it leaves the body to `JSONDecoder`).
    func read(_ text: String) -> OWMCurrentWeather? {
        Data(text.utf8).withUnsafeBytes { OWMCurrentWeather(compactJSON: $0) }
    }

    /// What `JSONDecoder` makes of `text` (`nil`: it throws).
    func decoded(_ text: String) -> OWMCurrentWeather? {
        try? JSONDecoder().decode(OWMCurrentWeather.self, from: Data(text.utf8))
    }

    @Test("WEATHER.md's example: the writer gives its bytes, the reader its value")
    func example() throws {
        let value = try #require(decoded(CompactJSONSamples.example))
        #expect(value.compactJSON() == Data(CompactJSONSamples.example.utf8))
        #expect(read(CompactJSONSamples.example) == value)
    }

    @Test("random bodies: the writer's bytes are the encoder's, and the reader gives JSONDecoder's value")
    func randomBodies() throws {
        var random = SplitMix64(seed: 2026)
        var readFast = 0
        for _ in 0..<2_000 {
            let value = Self.randomBody(&random)
            let encoded = try OrderedJSONEncoder().encode(value)
            let written = try #require(value.compactJSON())
            #expect(written == encoded, "\(String(decoding: encoded, as: UTF8.self))")
            let text = String(decoding: written, as: UTF8.self)
            let fromDecoder = try JSONDecoder().decode(OWMCurrentWeather.self, from: encoded)
            if let fast = read(text) {
                #expect(fast == fromDecoder, "\(text)")
                readFast += 1
            } else {
                // Only escapes make the reader give up on what the writer writes.
                #expect(text.contains("\\"), "\(text)")
            }
        }
        #expect(readFast > 300)  // most random texts need escapes
    }

    @Test("numbers: the writer's digits without a String are DecimalText.json's, for decimals of 0–6 places and any double")
    func numbersAsDecimalTextWritesThem() throws {
        var random = SplitMix64(seed: 40)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 0.0001, -0.0001, 0.00005, 1e-5, 999_999_999.9999, 1e9 - 0.5, 1e9, -1e9, 1e15,
                                1e16, 2.675, 0.1 + 0.2, 1.0 / 3, .ulpOfOne, .leastNormalMagnitude, .greatestFiniteMagnitude, 47.4979, 19.0402]
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: 0..<1, using: &random) * [1, 10, 100, 1_000, 1e6, 1e9, 2e9][Int(random.next() % 7)]
            let places = Int(random.next() % 7)
            let scale = (0..<places).reduce(1.0) { power, _ in power * 10 }
            let rounded = (magnitude * scale).rounded() / scale
            values.append(random.next() % 2 == 0 ? rounded : -rounded)
            values.append(Double(bitPattern: random.next()))
        }
        for value in values {
            var writer = CompactJSONWriter()
            writer.number(value)
            let written = writer.data().map { String(decoding: $0, as: UTF8.self) }
            #expect(written == DecimalText.json(value), "\(value.bitPattern)")
        }
    }

    @Test("readBack, the typed path's value, is what JSONDecoder reads from the written bytes (-0 included)")
    func readBackIsTheDecodedValue() throws {
        var random = SplitMix64(seed: 36)
        var negativeZeros = 0
        for _ in 0..<2_000 {
            var value = Self.randomBody(&random)
            if random.next() % 5 == 0 { value.main.temp = pickNonFinite(&random) }
            let bytes = value.compactJSON()
            #expect((value.readBack == nil) == (bytes == nil))
            guard let bytes, let back = value.readBack else { continue }
            let decoded = try JSONDecoder().decode(OWMCurrentWeather.self, from: bytes)
            #expect(back == decoded, "\(String(decoding: bytes, as: UTF8.self))")
            // Equal doubles may still differ in sign: compare -0's sign where == cannot see it.
            #expect(back.main.temp.sign == decoded.main.temp.sign && back.wind.speed.sign == decoded.wind.speed.sign)
            if value.main.temp == 0, value.main.temp.sign == .minus { negativeZeros += 1 }
            #expect(back.compactJSON() == bytes)  // reading back changes no byte
        }
        #expect(negativeZeros > 10)
    }

    private func pickNonFinite(_ random: inout SplitMix64) -> Double {
        [Double.nan, .infinity, -.infinity][Int(random.next() % 3)]
    }

    @Test("a non-finite number makes no body, as the encoder refuses one")
    func nonFinite() throws {
        var value = try #require(decoded(CompactJSONSamples.example))
        value.wind.speed = .infinity
        #expect(value.compactJSON() == nil)
        #expect(throws: SimulationError.self) { try OrderedJSONEncoder().encode(value) }
    }

    @Test("whitespace, key order, unknown keys and null optionals read as JSONDecoder reads them")
    func tolerantLikeJSONDecoder() throws {
        let bodies = CompactJSONSamples.tolerated
        for body in bodies {
            let expected = try #require(decoded(body), "\(body)")
            #expect(read(body) == expected, "\(body)")
        }
    }

    @Test("the reader leaves to JSONDecoder what it does not settle", arguments: CompactJSONSamples.refused)
    func givesUp(_ body: String) {
        #expect(body != CompactJSONSamples.example)  // the replacement took place
        #expect(read(body) == nil)
    }

    @Test("damaged bodies: whenever the reader accepts one, JSONDecoder decodes the same value")
    func neverDisagrees() throws {
        var random = SplitMix64(seed: 7)
        let sources = ([CompactJSONSamples.example] + CompactJSONSamples.tolerated).map { Array($0.utf8) }
        let replacements = Array(#"{}[],:"\-+.eE0159 nultrfa"#.utf8) + [0x0A, 0x00, 0xC3, 0xFF]
        var accepted = 0
        for _ in 0..<10_000 {
            var bytes = sources[Int(random.next() % UInt64(sources.count))]
            for _ in 0...(random.next() % 3) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[at] = replacements[Int(random.next() % UInt64(replacements.count))]
                case 1: bytes.remove(at: at)
                default: bytes.insert(replacements[Int(random.next() % UInt64(replacements.count))], at: at)
                }
            }
            guard let fast = bytes.withUnsafeBytes({ OWMCurrentWeather(compactJSON: $0) }) else { continue }
            accepted += 1
            let body = String(decoding: bytes, as: UTF8.self)
            let slow = try? JSONDecoder().decode(OWMCurrentWeather.self, from: Data(bytes))
            #expect(slow == fast, "\(body)")
        }
        #expect(accepted > 100)
    }

    @Test("a body read against the one before it: the value is the one read afresh, and JSONDecoder's")
    func readAgainstTheEarlierBody() throws {
        var random = SplitMix64(seed: 4040)
        let sources = ([CompactJSONSamples.example] + CompactJSONSamples.tolerated).map { Array($0.utf8) }
        let replacements = Array(#"{}[],:"\-+.eE0159 nultrfa"#.utf8) + [0x0A, 0x00, 0xC3, 0xFF]
        var accepted = 0
        for _ in 0..<10_000 {
            let source = sources[Int(random.next() % UInt64(sources.count))]
            let earlier = try #require(OWMCurrentWeather.read(Data(source), after: nil))
            var bytes = source
            for _ in 0...(random.next() % 3) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[at] = replacements[Int(random.next() % UInt64(replacements.count))]
                case 1: bytes.remove(at: at)
                default: bytes.insert(replacements[Int(random.next() % UInt64(replacements.count))], at: at)
                }
            }
            let afresh = bytes.withUnsafeBytes { OWMCurrentWeather(compactJSON: $0) }
            let against = OWMCurrentWeather.read(Data(bytes), after: earlier)
            #expect(against?.value == afresh, "\(String(decoding: bytes, as: UTF8.self))")
            guard let against else { continue }
            accepted += 1
            #expect(against.value == (try? JSONDecoder().decode(OWMCurrentWeather.self, from: Data(bytes))))
        }
        #expect(accepted > 100)
    }

    @Test("a member the same as the earlier body's is still checked against repeats, and a changed one is read")
    func earlierMembersStillChecked() throws {
        let earlier = try #require(OWMCurrentWeather.read(Data(CompactJSONSamples.example.utf8), after: nil))
        let repeated = CompactJSONSamples.replacing(#""base":"stations","#, with: #""base":"stations","coord":{"lon":1,"lat":2},"#)
        #expect(OWMCurrentWeather.read(Data(repeated.utf8), after: earlier) == nil)
        let warmer = CompactJSONSamples.replacing(#""temp":-3.2,"#, with: #""temp":4.5,"#)
        #expect(OWMCurrentWeather.read(Data(warmer.utf8), after: earlier)?.value.main.temp == 4.5)
        // A number followed by another byte than before is read again (`1021` and `10210` share their first bytes).
        let longer = CompactJSONSamples.replacing(#""timezone":3600,"#, with: #""timezone":36000,"#)
        #expect(OWMCurrentWeather.read(Data(longer.utf8), after: earlier)?.value.timezone == 36_000)
    }

    @Test("the feed's bodies are written by hand and read back by hand, in every unit system", arguments: OWMUnits.allCases)
    func feedBodies(_ units: OWMUnits) throws {
        let feed = try makeFeed(budapest: WeatherSample(tempC: 3.456, humidity: 55.5, condition: .rain, windMps: 4.321,
                                                        windDeg: 270, pressureHPa: 1003.7, precipitationMmPerHour: 0.75))
        for hour in stride(from: 0, to: 48, by: 5) {
            let at = try utc("2026-01-09T00:00Z") + .hours(Int64(hour))
            let body = feed.respond(toTarget: "/data/2.5/weather?q=Budapest,HU&appid=KEY&units=\(units.rawValue)", at: at).body
            let slow = try JSONDecoder().decode(OWMCurrentWeather.self, from: body)
            #expect(try OrderedJSONEncoder().encode(slow) == body)
            #expect(body.withUnsafeBytes { OWMCurrentWeather(compactJSON: $0) } == slow)
        }
    }

    // MARK: Random bodies

    static func randomBody(_ random: inout SplitMix64) -> OWMCurrentWeather {
        func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
        func chance() -> Bool { random.next() % 2 == 0 }
        func number() -> Double {
            let unit = Double(random.next() % 1_000_000) / 1_000_000
            switch random.next() % 8 {
            case 0: return NumberText.rounded(unit * 100 - 50, decimals: 2)
            case 1: return (unit * 2_000).rounded() - 1_000
            case 2: return unit * 1e-5
            case 3: return (unit - 0.5) * 1e20
            case 4: return -0.0
            case 5: return NumberText.rounded(unit * 400, decimals: 4)
            case 6: return unit * 3 - 1
            default: return pick([269.95, 0.1, 1e15, 1e16, 123456789.125, 2.5e-300])
            }
        }
        func integer() -> Int { Int(Int64(bitPattern: random.next()) >> Int64(random.next() % 64)) }
        func text() -> String {
            pick(["Budapest", "", "light snow", "São Paulo", "Kraków", "a \"b\" \\ c/d", "tab\there", "line\nbreak", "\u{01}\u{1F}\u{7F}",
                  "日本", "🌧 rain", "13n"])
        }
        let entries = (0..<Int(random.next() % 3)).map { _ in
            OWMWeatherEntry(id: integer(), main: text(), description: text(), icon: text())
        }
        func precipitation() -> OWMPrecipitation? {
            chance() ? nil : OWMPrecipitation(oneHour: chance() ? number() : nil, threeHours: chance() ? number() : nil)
        }
        return OWMCurrentWeather(
            coord: OWMCoordinates(lon: number(), lat: number()),
            weather: entries,
            base: chance() ? "stations" : text(),
            main: OWMMain(temp: number(), feelsLike: number(), tempMin: number(), tempMax: number(), pressure: integer(),
                          humidity: integer(), seaLevel: chance() ? integer() : nil, grndLevel: chance() ? integer() : nil,
                          tempKf: chance() ? number() : nil),
            visibility: chance() ? integer() : nil,
            wind: OWMWind(speed: number(), deg: integer(), gust: chance() ? number() : nil),
            clouds: OWMClouds(all: integer()),
            rain: precipitation(), snow: precipitation(),
            dt: Int64(integer()),
            sys: OWMSys(country: chance() ? text() : nil, sunrise: Int64(integer()), sunset: Int64(integer())),
            timezone: integer(), id: integer(), name: text(),
            cod: chance() ? .number(integer()) : .text(text()))
    }
}

/// Bodies for the reader's tests.
enum CompactJSONSamples {
    static let example = #"{"coord":{"lon":19.04,"lat":47.5},"weather":[{"id":600,"main":"Snow","description":"light snow","icon":"13n"}],"base":"stations","main":{"temp":-3.2,"feels_like":-7.9,"temp_min":-3.2,"temp_max":-3.2,"pressure":1021,"humidity":80,"sea_level":1021,"grnd_level":1003},"visibility":10000,"wind":{"speed":3,"deg":200},"clouds":{"all":90},"snow":{"1h":0.3},"dt":1767913200,"sys":{"country":"HU","sunrise":1767939900,"sunset":1767971200},"timezone":3600,"id":3054643,"name":"Budapest","cod":200}"#

    /// The example with `old` replaced by `new` (which must occur).
    static func replacing(_ old: String, with new: String) -> String {
        example.replacingOccurrences(of: old, with: new)
    }

    /// Bodies in unusual but valid shapes the reader must read as `JSONDecoder` does.
    static let tolerated: [String] = [
            """
             { "name" : "Budapest" , "cod" : "200", "id":3054643, "timezone":-3600,
               "sys":{"sunset":1767971200,"sunrise":1767939900,"country":null,"type":2,"id":2009313},
               "dt":1767913200, "snow":null, "rain":{"1h":1.25,"3h":null}, "clouds":{"all":0},
               "wind":{"deg":0,"speed":0.5,"gust":1e1}, "visibility":null,
               "main":{"humidity":0,"pressure":990,"temp_max":1e-05,"temp_min":-40,"feels_like":-0.5,"temp":12.75,"temp_kf":-2.5E+2},
               "base":"stations", "weather":[], "coord":{"lat":-33.8688,"lon":151.2093,"extra":[1,2.5e-3,{"a":[true,false,null]},"é"]},
               "unknown":{"nested":{"deeper":[[],{}]}} }\t\r\n
            """,
            // Distinct keys of one shape (length and end bytes), and more keys than a shape has bits.
            CompactJSONSamples.replacing(#""base":"stations""#, with: #""base":"stations","bxse":1,"bASE":2"#),
            CompactJSONSamples.replacing(#""base":"stations""#,
                                         with: #""base":"stations""# + (0..<100).map { #","k\#($0)":\#($0)"# }.joined()),
            #"{"coord":{"lon":0,"lat":0},"weather":[{"id":1,"main":"Zürich","description":"","icon":"01d","x":1},{"id":-2,"main":"a","description":"b","icon":"c"}],"base":"","main":{"temp":1,"feels_like":2,"temp_min":3,"temp_max":4,"pressure":5,"humidity":6},"wind":{"speed":7,"deg":8},"clouds":{"all":9},"dt":-10,"sys":{"sunrise":0,"sunset":0},"timezone":0,"id":0,"name":"Kraków","cod":404}"#,
    ]

    /// Bodies the reader must leave to `JSONDecoder`.
    static let refused: [String] = [
        #"{"cod":200}"#,  // fields missing
        #"[]"#, "", "null",
        CompactJSONSamples.example + "x",  // trailing garbage
        CompactJSONSamples.replacing(#""pressure":1021"#, with: #""pressure":1021.5"#),  // fraction in an integer
        CompactJSONSamples.replacing(#""pressure":1021"#, with: #""pressure":1e3"#),
        CompactJSONSamples.replacing(#""pressure":1021"#, with: #""pressure":-0"#),
        CompactJSONSamples.replacing(#""pressure":1021"#, with: #""pressure":99999999999999999999"#),
        CompactJSONSamples.replacing(#""temp":-3.2"#, with: #""temp":1e999"#),
        CompactJSONSamples.replacing(#""temp":-3.2"#, with: #""temp":-0.0"#),
        CompactJSONSamples.replacing(#""temp":-3.2"#, with: #""temp":"-3.2""#),
        CompactJSONSamples.replacing(#""temp":-3.2"#, with: #""temp":01"#),
        CompactJSONSamples.replacing(#""temp":-3.2"#, with: #""temp":null"#),
        CompactJSONSamples.replacing(#""name":"Budapest""#, with: #""name":"Buda\/pest""#),  // an escape
        CompactJSONSamples.replacing(#""base":"stations""#, with: #""base":"stations","base":"x""#),  // a repeated key
        // Repeated keys further apart, nested, unknown, and of the same length and end bytes as another key.
        CompactJSONSamples.replacing(#""cod":200"#, with: #""cod":200,"coord":{"lon":1,"lat":2}"#),
        CompactJSONSamples.replacing(#""lat":47.5"#, with: #""lat":47.5,"lon":19.04"#),
        CompactJSONSamples.replacing(#""base":"stations""#, with: #""base":"stations","xy":1,"main2":0,"xy":1"#),
        CompactJSONSamples.replacing(#""base":"stations""#, with: #""base":"stations","":1,"":2"#),
        CompactJSONSamples.replacing(#""base":"stations""#, with: #""base":"stations","bxse":1,"bxse":1"#),
        CompactJSONSamples.replacing(#""base":"stations""#, with: #""base":"stations","b\u00e9":1"#),
        CompactJSONSamples.replacing(#""cod":200"#, with: #""cod":true"#),
        CompactJSONSamples.replacing(#""cod":200"#, with: #""cod":200.0"#),
        CompactJSONSamples.replacing(#"{"1h":0.3}"#, with: #"{"1h":0.3,}"#),  // a trailing comma
        CompactJSONSamples.replacing(#""base":"stations""#, with: #""base":"stations","deep":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"#),
    ]
}
