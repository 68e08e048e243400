import Foundation
import Rules
import ScenarioFormat
import Simulation
import SmartHome
import Weather

/// The twin's own URLs, answered in process for rules' HTTP actions (`sendHttpGetRequest` …) when the
/// scenario's `responses` do not script them:
///
/// - `http(s)://api.openweathermap.org/…`: the fake OpenWeatherMap the weather automations ask, on the
///   virtual clock (`/data/2.5/weather`, `/data/2.5/forecast`, `/data/3.0/onecall`; GET only). The rule's
///   `appid` stands for the twin's key (a user's rule carries the user's key, which the fake feed does not
///   know); a request without one is refused as OpenWeatherMap refuses it (401).
/// - `http://localhost|127.0.0.1|openhab|openhabian[:port]/rest/…`: the twin's openHAB REST API
///   (``OpenHABRouter``): `GET /rest/items/X/state`, `POST /rest/items/X` (a command), `PUT /rest/items/X/state`, …
///   as a local client with the twin's token.
enum TwinHTTP {
    static let weatherHosts: Set<String> = ["api.openweathermap.org"]
    static let openHABHosts: Set<String> = ["localhost", "127.0.0.1", "openhab", "openhabian", "[::1]", "::1"]

    static func responder(feed: FakeOpenWeatherMap, kernel: SimulationKernel, router: OpenHABRouter) -> TwinHTTPResponder {
        { method, url, body in
            guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = parts.host?.lowercased() else { return nil }
            if weatherHosts.contains(host) {
                guard method == "GET" else { return nil }
                var query = parts.queryItems ?? []
                for index in query.indices where ["appid", "APPID"].contains(query[index].name) && !(query[index].value ?? "").isEmpty {
                    query[index].value = World.weatherAPIKey
                }
                var target = URLComponents()
                target.percentEncodedPath = parts.percentEncodedPath
                if !query.isEmpty { target.queryItems = query }
                let response = feed.respond(toTarget: target.string ?? parts.percentEncodedPath, at: kernel.now)
                return (response.status, String(decoding: response.body, as: UTF8.self))
            }
            guard openHABHosts.contains(host), parts.percentEncodedPath.hasPrefix("/rest/"),
                  let verb = OpenHABRequest.Method(rawValue: method) else { return nil }
            var query: [String: String] = [:]
            for item in parts.queryItems ?? [] { query[item.name] = item.value ?? "" }
            let request = OpenHABRequest(verb, parts.path, query: query,
                                         headers: ["X-OPENHAB-TOKEN": World.openHABToken, "Content-Type": "text/plain"], body: Data(body.utf8))
            let response = await router.handle(request)
            return (response.status, response.bodyText)
        }
    }
}
