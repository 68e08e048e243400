import Foundation
import HTTPServer
import Rules
import ScenarioFormat
import Scenarios
import Simulation
import SmartHome
import Twin
import Weather

/// Answers every request of `serve` (Docs/SERVE.md): openHAB's REST API and event stream, the fake
/// OpenWeatherMap (also as an HTTP proxy), the booking REST API, and the twin's own `/twin/…` control endpoints.
///
/// Every request that reads or changes the world runs on the simulation through the kernel's
/// `submit`, at the current virtual instant in the kernel's order, so a manual-clock run driven by
/// the same requests gives the same answers. Nothing here blocks the simulation: the bus hands
/// events to bounded per-client buffers.
///
/// | path | methods |
/// |---|---|
/// | `/rest/` | GET (the API root) |
/// | `/rest/items…`, `/rest/things…`, `/rest/links…` | as ``OpenHABRouter`` |
/// | `/rest/rules`, `/rest/rules/{uid}`, `…/runnow`, `…/enable` | as ``RuleRESTRouter`` (admin) |
/// | `/rest/events?topics=…` | GET (Server-Sent Events) |
/// | `/rest/events/states`, `/rest/events/states/{connectionId}` | GET (stream), POST (tracked Items), as ``ItemStateTrackers`` |
/// | `/rest/systeminfo`, `/rest/uuid`, `/rest/tags`, … | GET, as `extraResources` (a fresh openHAB's answers) |
/// | `/ws`, `/ws/events` | GET with `Upgrade: websocket` (openHAB's event WebSocket, ``EventWebSocket``) |
/// | `/data/2.5/weather`, `/data/2.5/forecast` (origin or absolute form) | GET |
/// | `/api/…` | as ``BookingAPIRoute/all`` (the booking API) |
/// | `/openapi.json` | GET (its OpenAPI 3.1 document) |
/// | `/twin/clock`, `/twin/result` | GET |
/// | `/twin/advance`, `/twin/faults` | POST |
///
/// The routes are one table, ``routes`` (the openHAB router's and the rule resource's rows among
/// them). Unknown paths get `404` (with openHAB's JSON error body under `/rest/`), known paths with
/// another method `405` with `Allow` from that table and a JSON error body; `OPTIONS` on a `/rest/`
/// path lists its methods. `HEAD` is answered as `GET` (the server sends the head only).
public final class ServeRouter: Sendable {
    /// The live scenario run being served.
    public let run: LiveScenarioRun
    /// How the clock moves: `paced` or `manual`.
    public let clock: SimulationKernel.LiveMode
    /// Who may do what on the openHAB API: the admin token, and the implicit user role for anonymous clients.
    public let policy: OpenHABAccessPolicy
    /// The bound on one SSE client's waiting messages.
    public let eventBufferLimit: Int
    /// The wall time between `alive` events.
    public let aliveInterval: Duration
    /// What has been served.
    public let counters: ServeCounters
    /// The `/ws` connections and their one bus subscription.
    let webSocketHub = EventWebSocketHub()
    /// The open `/rest/events/states` connections.
    let stateTrackers = ItemStateTrackers()
    /// The bounds on each `/ws` connection (its outbox holds ``eventBufferLimit`` messages whatever is set here).
    public let webSocketLimits: WebSocketLimits

    /// Creates a router over `run`.
    public init(run: LiveScenarioRun, clock: SimulationKernel.LiveMode, adminToken: String, eventBufferLimit: Int = 1_024,
                aliveInterval: Duration = .seconds(10), counters: ServeCounters = ServeCounters(),
                webSocketLimits: WebSocketLimits = WebSocketLimits()) {
        self.webSocketLimits = webSocketLimits
        self.run = run
        self.clock = clock
        self.policy = OpenHABAccessPolicy(tokens: [adminToken: .administrator])
        self.eventBufferLimit = eventBufferLimit
        self.aliveInterval = aliveInterval
        self.counters = counters
    }

    /// The world being served: the twin's façade.
    var world: World { run.world }

    /// Answers one request; never throws, every failure is an HTTP answer.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        counters.requestReceived()
        let path = request.path
        if path == "/ws" || path.hasPrefix("/ws/") { return await EventWebSocket.open(request, router: self) }
        if path.hasPrefix("/data/") { return await weather(request, method: request.method == "HEAD" ? "GET" : request.method) }
        return await route(request)
    }

    // MARK: openHAB

    func root(_ request: OpenHABRequest) -> HTTPResponse {
        let base = Self.baseURL(request)
        let links = ["items", "things", "links", "rules", "events"].map { "{\"type\":\"\($0)\",\"url\":\(JSONString.quoted("\(base)/rest/\($0)"))}" }
        let body = "{\"version\":\"8\",\"locale\":\"en_US\",\"measurementSystem\":\"SI\","
            + "\"runtimeInfo\":{\"version\":\"5.0.0\",\"buildString\":\"rental-twin\"},\"links\":[\(links.joined(separator: ","))]}"
        return Self.json(200, body)
    }

    /// `GET /rest/events?topics=…`: Server-Sent Events (the route needs the user role).
    func events(_ request: OpenHABRequest) async -> HTTPResponse {
        let filter: SSETopicFilter
        do { filter = try SSETopicFilter(request.query["topics"]) } catch { return Self.failure(error) }
        let stream = await EventStream.open(bus: world.eventBus, world: world, filter: filter, bufferLimit: eventBufferLimit,
                                            aliveInterval: aliveInterval, counters: counters)
        return .eventStream(stream)
    }

    // MARK: OpenWeatherMap

    private func weather(_ request: HTTPRequest, method: String) async -> HTTPResponse {
        guard method == "GET" else { return Self.methodNotAllowed(request, ["GET", "HEAD"]) }
        let target = request.path + (request.queryString.map { "?\($0)" } ?? "")
        let world = world
        let answer = await world.submit { world.weatherResponse(toTarget: target) }
        return HTTPResponse(status: answer.status, headers: ["Content-Type": "application/json; charset=utf-8"], body: Array(answer.body))
    }

    // MARK: Helpers

    /// `http://<Host>`: the root clients reached, for openHAB's `link` fields.
    static func baseURL(_ request: HTTPRequest) -> String {
        "http://\(request.headers["Host"] ?? request.absoluteHost ?? "localhost")"
    }

    /// `http://<Host>` of a routed request (whose `Host` is the absolute target's host when the request had no `Host`).
    static func baseURL(_ request: OpenHABRequest) -> String {
        "http://\(request.header("Host") ?? "localhost")"
    }

    /// The user name of `Authorization: Basic base64(user:password)`, if that is the header.
    static func basicUser(_ authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Basic "),
              let decoded = Data(base64Encoded: String(authorization.dropFirst(6))) else { return nil }
        let text = String(decoding: decoded, as: UTF8.self)
        let user = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return user.isEmpty ? nil : user
    }

    static func json(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }

    static func failure(_ error: ServeError) -> HTTPResponse {
        json(error.httpStatus, error.responseBody)
    }

    static func methodNotAllowed(_ request: HTTPRequest, _ allowed: [String]) -> HTTPResponse {
        var response = failure(ServeError(.methodNotAllowed, "\(request.method) is not allowed on \(request.path); use \(allowed.joined(separator: ", "))."))
        response.headers.set("Allow", RESTRouteTable<Handler>.allowHeader(allowed))
        return response
    }
}
