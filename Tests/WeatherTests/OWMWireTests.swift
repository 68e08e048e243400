import Foundation
import Simulation
import Testing
import Weather

struct OWMWireTests {
    /// WEATHER.md's error table, byte for byte (500 as agreed: `Internal error`).
    static let errorBodies: [(FeedFault, String)] = [
        (.unauthorized, #"{"cod":401,"message":"Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#),
        (.cityNotFound, #"{"cod":"404","message":"city not found"}"#),
        (.rateLimited, #"{"cod":429,"message":"Your account is temporary blocked due to exceeding of requests limitation of your subscription type. Please choose the proper subscription https://openweathermap.org/price"}"#),
        (.serverError, #"{"cod":500,"message":"Internal error"}"#),
    ]

    @Test("error bodies encode byte for byte as the real service sends them", arguments: errorBodies)
    func errorBodyBytes(_ fault: FeedFault, _ expected: String) throws {
        #expect(try OrderedJSONEncoder().encodeToString(fault.body) == expected)
        #expect(try OrderedJSONEncoder().encode(fault.body) == Data(expected.utf8))
    }

    @Test("cod decodes as a number and as a string", arguments: [
        (#"{"cod":429,"message":"x"}"#, OWMCode.number(429)),
        (#"{"cod":"429","message":"x"}"#, OWMCode.text("429")),
        (#"{"cod":"404","message":"city not found"}"#, OWMCode.text("404")),
        (#"{"cod":401,"message":"Invalid API key."}"#, OWMCode.number(401)),
    ])
    func codEitherWay(_ json: String, _ expected: OWMCode) throws {
        let body = try JSONDecoder().decode(OWMErrorBody.self, from: Data(json.utf8))
        #expect(body.cod == expected)
        #expect(body.cod.value == expected.value)
        #expect(try OrderedJSONEncoder().encodeToString(body) == json)  // the form survives a round trip
    }

    @Test("cod that is neither number nor string does not decode")
    func codInvalid() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(OWMErrorBody.self, from: Data(#"{"cod":true,"message":"x"}"#.utf8))
        }
    }

    @Test("WEATHER.md's example decodes and re-encodes to the same bytes, keys in wire order")
    func exampleRoundTrip() throws {
        let example = #"{"coord":{"lon":19.04,"lat":47.5},"weather":[{"id":600,"main":"Snow","description":"light snow","icon":"13n"}],"base":"stations","main":{"temp":-3.2,"feels_like":-7.9,"temp_min":-3.2,"temp_max":-3.2,"pressure":1021,"humidity":80,"sea_level":1021,"grnd_level":1003},"visibility":10000,"wind":{"speed":3,"deg":200},"clouds":{"all":90},"snow":{"1h":0.3},"dt":1767913200,"sys":{"country":"HU","sunrise":1767939900,"sunset":1767971200},"timezone":3600,"id":3054643,"name":"Budapest","cod":200}"#
        let decoded = try JSONDecoder().decode(OWMCurrentWeather.self, from: Data(example.utf8))
        #expect(decoded.main.temp == -3.2)
        #expect(decoded.snow?.oneHour == 0.3)
        #expect(decoded.rain == nil)
        #expect(decoded.cod == .number(200))
        #expect(try OrderedJSONEncoder().encodeToString(decoded) == example)
    }

    @Test("encoding is deterministic and writes numbers locale-independently")
    func deterministic() throws {
        let main = OWMMain(temp: 269.95, feelsLike: -0.0, tempMin: 1e-5, tempMax: 1013, pressure: 1013, humidity: 80)
        let a = try OrderedJSONEncoder().encodeToString(main)
        let b = try OrderedJSONEncoder().encodeToString(main)
        #expect(a == b)
        #expect(a == #"{"temp":269.95,"feels_like":0,"temp_min":1e-05,"temp_max":1013,"pressure":1013,"humidity":80}"#)
    }

    @Test("strings are escaped, slashes are not")
    func escaping() throws {
        let body = OWMErrorBody(cod: .text("400"), message: "a \"b\" \\ c/d\n\u{01}é")
        #expect(try OrderedJSONEncoder().encodeToString(body) == #"{"cod":"400","message":"a \"b\" \\ c/d\n\u0001é"}"#)
        let back = try JSONDecoder().decode(OWMErrorBody.self, from: OrderedJSONEncoder().encode(body))
        #expect(back == body)
    }

    @Test("non-finite numbers are json.unencodable errors")
    func nonFinite() throws {
        let error = try #require(#expect(throws: SimulationError.self) { try OrderedJSONEncoder().encode(OWMWind(speed: .nan, deg: 0)) })
        #expect(error.code == .unencodable)
        #expect(error.message.hasPrefix("OWMWind could not be written as JSON"))
    }

    @Test("unit conversions are exact to two decimals")
    func units() {
        #expect(OWMUnits.standard.temperature(fromCelsius: -3.2) == 269.95)
        #expect(OWMUnits.imperial.temperature(fromCelsius: -3.2) == 26.24)
        #expect(OWMUnits.metric.temperature(fromCelsius: -3.2) == -3.2)
        #expect(OWMUnits.imperial.temperature(fromCelsius: 100) == 212)
        #expect(OWMUnits.standard.temperature(fromCelsius: 0) == 273.15)
        #expect(OWMUnits.imperial.windSpeed(fromMetersPerSecond: 3) == 6.71)
        #expect(OWMUnits.standard.celsius(fromTemperature: 269.95) == -3.2)
        #expect(OWMUnits.imperial.celsius(fromTemperature: 26.24) == -3.2)
        #expect(OWMUnits.imperial.celsius(fromTemperature: 212) == 100)
    }
}
