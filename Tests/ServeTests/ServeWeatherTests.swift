import SocketTestSupport
import Foundation
import HTTPServer
import Serve
import Testing

/// The fake OpenWeatherMap through the socket, origin form and proxy form.
@Suite("serve: OpenWeatherMap")
struct ServeWeatherTests {
    static let key = "rental-twin-key"

    @Test func currentWeatherAndForecastAreAtTheTwinsVirtualTime() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                #expect(try c.send("POST", "/twin/advance", body: #"{"to": "2026-11-20T10:00"}"#).status == 200)
                let clock = jsonObject(try c.send("GET", "/twin/clock"))
                let nowSeconds = try #require(clock["unixMillis"] as? Int) / 1_000
                let current = try c.send("GET", "/data/2.5/weather?q=Berlin&appid=\(Self.key)&units=metric")
                #expect(current.status == 200)
                let body = jsonObject(current)
                #expect(body["dt"] as? Int == nowSeconds && body["name"] as? String == "Berlin")
                #expect((body["main"] as? [String: Any])?["temp"] as? Double == 2)
                let forecast = jsonObject(try c.send("GET", "/data/2.5/forecast?q=Berlin,DE&APPID=\(Self.key)&cnt=3&lang=de"))
                let list = try #require(forecast["list"] as? [[String: Any]])
                #expect(list.count == 3 && (list.first?["dt"] as? Int ?? 0) > nowSeconds)
            }
        }
    }

    @Test func aClientThatHardCodesOpenWeatherMapReachesTheFeedAsThroughAProxy() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                let proxied = try c.send("GET", "http://api.openweathermap.org/data/2.5/weather?q=Berlin&appid=\(Self.key)")
                #expect(proxied.status == 200 && jsonObject(proxied)["dt"] as? Int == 1_795_129_200)  // the scenario's start
                #expect(((jsonObject(proxied)["main"] as? [String: Any])?["temp"] as? Double) == 275.15)  // standard units: Kelvin
                let forecast = try c.send("GET", "http://api.openweathermap.org/data/2.5/forecast?q=Berlin&appid=\(Self.key)&units=metric")
                #expect(forecast.status == 200 && (jsonObject(forecast)["list"] as? [Any])?.count == 40)
            }
        }
    }

    @Test func errorsHaveOpenWeatherMapsBodies() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                let unauthorized = try c.send("GET", "/data/2.5/weather?q=Berlin&appid=wrong")
                #expect(unauthorized.status == 401 && unauthorized.text.hasPrefix(#"{"cod":401,"message":"Invalid API key."#))
                let unknown = try c.send("GET", "/data/2.5/weather?q=Atlantis&appid=\(Self.key)")
                #expect(unknown.status == 404 && unknown.text == #"{"cod":"404","message":"city not found"}"#)
                let nowhere = try c.send("GET", "/data/2.5/weather?appid=\(Self.key)")
                #expect(nowhere.status == 400 && nowhere.text.contains("Nothing to geocode"))
                #expect(try c.send("GET", "/data/2.5/onecall?lat=52.5&lon=13.4&appid=\(Self.key)").status == 404)
                let oneCall = try c.send("GET", "/data/3.0/onecall?lat=52.5&lon=13.4&appid=\(Self.key)&units=metric&exclude=minutely,hourly")
                #expect(oneCall.status == 200 && oneCall.text.contains(#""timezone":"Europe/Berlin""#) && oneCall.text.contains(#""current":{"dt":1795129200,"#))
                #expect(((jsonObject(oneCall)["current"] as? [String: Any])?["temp"] as? Double) == 2)
                let post = try c.send("POST", "/data/2.5/weather?q=Berlin&appid=\(Self.key)")
                #expect(post.status == 405 && post.headers["Allow"] == "GET, HEAD")
                // A feed fault from /twin/faults, then cleared.
                #expect(try c.send("POST", "/twin/faults", body: #"{"feed": {"city": "Berlin", "error": 500}}"#).status == 200)
                #expect(try c.send("GET", "/data/2.5/weather?q=Berlin&appid=\(Self.key)").status == 500)
                #expect(try c.send("POST", "/twin/faults", body: #"{"feed": {"city": "Berlin", "error": null}}"#).status == 200)
                #expect(try c.send("GET", "/data/2.5/weather?q=Berlin&appid=\(Self.key)").status == 200)
            }
        }
    }
}
