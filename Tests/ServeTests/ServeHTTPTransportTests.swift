import Foundation
import HTTPServer
import RemoteTransports
import Simulation
import SmartHome
import Testing
import Weather
@testable import Serve

/// The services' own clients over real HTTP (`URLSession`) against `serve`: what a deployment that runs
/// the booking services against a remote openHAB and OpenWeatherMap does.
@Suite("serve: the services' clients over HTTP")
struct ServeHTTPTransportTests {
    @Test func theOpenHABRESTClientWorksOverURLSession() async throws {
        try await withTwin { server in
            let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
            let client = OpenHABRESTClient(transport: URLSessionOpenHABTransport(baseURL: base, timeoutSeconds: 20),
                                           credentials: OpenHABCredentials(openHABToken: adminToken))
            let items = try await client.getItems()
            #expect(items.status == .ok && items.body.contains { $0.name == "kiez_heating_setpoint" })
            _ = try await client.sendCommand("kiez_heating_setpoint", "22.5")
            #expect(try await client.getItemState("kiez_heating_setpoint").body == "22.5 °C")
            do throws(SmartHomeError) {
                _ = try await client.getItem("nope")
                Issue.record("a missing Item answered")
            } catch {
                #expect(error.code == .itemNotFound && error.httpStatus == .notFound)
            }
            let things = try await client.getThings()
            #expect(things.body.contains { $0.uid == "twin:thermostat:kiez:heating" })
        }
    }

    @Test func theOpenWeatherMapClientWorksOverURLSession() async throws {
        try await withTwin { server in
            let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
            let client = OpenWeatherMapClient(baseURL: base, apiKey: "rental-twin-key", transport: URLSessionWeatherTransport(timeoutSeconds: 20))
            let current = try await client.currentWeather(city: "Berlin", countryCode: "DE")
            #expect(current.cityName == "Berlin" && current.tempC == 2)
        }
    }

    @Test func anUnreachableOpenHABIsACodedError() async throws {
        let client = OpenHABRESTClient(transport: URLSessionOpenHABTransport(baseURL: try #require(URL(string: "http://127.0.0.1:9")), timeoutSeconds: 5))
        do throws(SmartHomeError) {
            _ = try await client.getItems()
            Issue.record("port 9 answered")
        } catch {
            #expect(error.code == .unreachable && error.message.contains("got no answer"))
        }
    }

    /// The HTTP server's start-up error is one of the coded errors the command line prints by code.
    @Test func theHTTPServersErrorIsACodedError() {
        let error: any Error = HTTPServerError(.bindFailed, "Cannot listen on 127.0.0.1:80.")
        let coded = error as? any CodedError
        #expect(coded?.codeName == "http.bindFailed")
        #expect(coded?.description == "http.bindFailed: Cannot listen on 127.0.0.1:80.")
    }
}
