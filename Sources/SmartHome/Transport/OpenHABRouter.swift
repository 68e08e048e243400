import Foundation
import Simulation
import Synchronization

/// Serves openHAB's REST paths over an ``OpenHABRuntime``: bytes in, bytes out.
///
/// Each request is authorised from its own headers (`X-OPENHAB-TOKEN`, else
/// `Authorization: Bearer …`), answered by ``InProcessOpenHABAPI`` — the one place that knows
/// openHAB's validation and statuses — and written with the format layer's encoder
/// (``OpenHABJSON``). Errors get openHAB's status and body, plus the twin's
/// ``OpenHABResponse/errorCodeHeader`` and ``OpenHABResponse/errorMessageHeader`` so that the
/// twin's own client can rebuild the exact ``SmartHomeError``.
///
/// | method and path | answer |
/// |---|---|
/// | `GET /rest/things`, `GET /rest/things/{uid}`, `GET /rest/things/{uid}/status` | 200 JSON |
/// | `GET /rest/items`, `GET /rest/items/{name}` (`?metadata=` selector) | 200 JSON |
/// | `PUT /rest/items/{name}` (JSON ``ItemDTO``) | 201 created / 200 updated, JSON |
/// | `DELETE /rest/items/{name}` | 200 |
/// | `POST /rest/items/{name}` (text command) | 200 |
/// | `GET /rest/items/{name}/state` | 200 text |
/// | `PUT /rest/items/{name}/state` (text state) | 202 |
/// | `PUT`, `DELETE /rest/items/{name}/metadata/{namespace}` (JSON ``MetadataDTO``) | 201 added / 200 |
/// | `GET /rest/items/{name}/metadata/namespaces` | 200 JSON list of the Item's namespaces |
/// | `GET /rest/links` | 200 JSON |
/// | `PUT`, `DELETE /rest/links/{item}/{channelUID}` | 200 |
///
/// The table is ``routes``. Any other path is 404 and another method on a known path 405 with
/// `Allow` from the same table, both with an empty body.
/// An HTTP server sits in front of ``handle(_:)``; in a simulation the router is itself the
/// client's ``OpenHABTransport``.
public struct OpenHABRouter: OpenHABTransport {
    /// The runtime whose registries answer.
    public let runtime: OpenHABRuntime
    /// The server root used for Item `link` URLs, e.g. `http://localhost:8080`.
    public let baseURL: String
    /// Tokens and roles.
    public let policy: OpenHABAccessPolicy
    /// The API every request is answered by, with the request's credentials (``InProcessOpenHABAPI/with(credentials:)``).
    private let api: InProcessOpenHABAPI
    /// The route the last request took (shared by the router's copies).
    private let lastRoute = LastRoute()

    /// A router over `runtime`.
    /// - Parameters:
    ///   - runtime: the twin's openHAB.
    ///   - baseURL: the server root for `link` fields (no trailing slash).
    ///   - policy: which tokens the server knows; by default none, with the implicit user role.
    public init(runtime: OpenHABRuntime, baseURL: String = "http://localhost:8080",
                policy: OpenHABAccessPolicy = OpenHABAccessPolicy()) {
        self.runtime = runtime
        self.baseURL = baseURL
        self.policy = policy
        api = InProcessOpenHABAPI(runtime: runtime, baseURL: baseURL, policy: policy)
    }

    /// Answers one request; never throws — every failure is an HTTP answer.
    public func handle(_ request: OpenHABRequest) async -> OpenHABResponse {
        // A client asks the same few paths again and again (an automation reads one Item every hour): a request with the
        // last one's method and path takes its route without the table (the route depends on nothing else).
        if let (index, parameters) = lastRoute.route(for: request) ?? lastRoute.remember(request, Self.routes.match(request)) {
            var routed = request
            routed.parameters = parameters
            return await answer(routed, Self.routes.routes[index].handler)
        }
        // No route answers: the table says why (the same table, so `.route` cannot come back; answered as one all the same).
        switch Self.routes.resolve(request) {
        case .route(let route, let routed):
            return await answer(routed, route.handler)
        case .methodNotAllowed(let allowed):
            return Self.refusal(SmartHomeError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path); use \(allowed.joined(separator: ", "))."),
                                allowed: allowed)
        case .notFound:
            return Self.refusal(SmartHomeError(.pathNotFound, "There is no REST resource \(request.path)."), allowed: [])
        }
    }

    /// ``handle(_:)``, as the in-process transport: never fails at the transport level.
    public func send(_ request: OpenHABRequest) async throws(SmartHomeError) -> OpenHABResponse {
        await handle(request)
    }

    /// Runs a matched route's handler with an API authorised by the request's own credentials.
    /// - Parameters:
    ///   - request: the request, with the route's ``OpenHABRequest/parameters``.
    ///   - handler: the route's handler.
    public func answer(_ request: OpenHABRequest, _ handler: Handler) async -> OpenHABResponse {
        let api = api.with(credentials: request.credentials)
        do {
            return try await handler(api, request)
        } catch let error as SmartHomeError {
            return Self.failure(error)
        } catch {
            return Self.failure(SmartHomeError(.serverFailed, "\(error)"))  // the handlers throw only SmartHomeError
        }
    }

    /// The `404` or `405` of a path or method no route serves: openHAB's status, the twin's error
    /// headers and, on a `405`, `Allow` from the route table.
    public static func refusal(_ error: SmartHomeError, allowed: [String]) -> OpenHABResponse {
        var response = failure(error)
        if !allowed.isEmpty { response.headers["Allow"] = RESTRouteTable<Handler>.allowHeader(allowed) }
        return response
    }

    // MARK: Routes

    /// What answers one of openHAB's paths: the API (authorised per call, so the routes name no role) and the request.
    public typealias Handler = @Sendable (InProcessOpenHABAPI, OpenHABRequest) async throws -> OpenHABResponse

    /// openHAB's Thing, Item and link resources (`ThingResource`, `ItemResource`, `ItemChannelLinkResource`).
    /// `GET …/metadata/namespaces` comes before `…/metadata/{namespace}`, which also matches it for `PUT`/`DELETE`.
    public static let routes = RESTRouteTable<Handler>([
        .init(.get, "/rest/things") { api, _ in try json(try await api.getThings()) },
        .init(.get, "/rest/things/{thingUID}") { api, r in try json(try await api.getThing(r[parameter: "thingUID"])) },
        .init(.get, "/rest/things/{thingUID}/status") { api, r in
            try json(try await api.getThingStatus(r[parameter: "thingUID"]))
        },
        .init(.get, "/rest/items") { api, r in try json(try await api.getItems(metadata: r.query["metadata"])) },
        .init(.get, "/rest/items/{itemname}") { api, r in
            try json(try await api.getItem(r[parameter: "itemname"], metadata: r.query["metadata"]))
        },
        .init(.put, "/rest/items/{itemname}") { api, r in
            try json(try await api.putItem(r[parameter: "itemname"], body: try decodeBody(ItemDTO.self, r)))
        },
        .init(.post, "/rest/items/{itemname}") { api, r in empty(try await api.sendCommand(r[parameter: "itemname"], text(r))) },
        .init(.delete, "/rest/items/{itemname}") { api, r in empty(try await api.deleteItem(r[parameter: "itemname"])) },
        .init(.get, "/rest/items/{itemname}/state") { api, r in
            let state = try await api.getItemState(r[parameter: "itemname"])
            return OpenHABResponse(status: state.status.rawValue, headers: plainTextHeaders, body: Data(state.body.utf8))
        },
        .init(.put, "/rest/items/{itemname}/state") { api, r in empty(try await api.updateState(r[parameter: "itemname"], text(r))) },
        .init(.get, "/rest/items/{itemname}/metadata/namespaces") { api, r in
            try json(try await api.getItemNamespaces(r[parameter: "itemname"]))
        },
        .init(.put, "/rest/items/{itemname}/metadata/{namespace}") { api, r in
            let body = try decodeBody(MetadataDTO.self, r)
            return empty(try await api.putMetadata(r[parameter: "itemname"], namespace: r[parameter: "namespace"], body: body))
        },
        .init(.delete, "/rest/items/{itemname}/metadata/{namespace}") { api, r in
            empty(try await api.deleteMetadata(r[parameter: "itemname"], namespace: r[parameter: "namespace"]))
        },
        .init(.get, "/rest/links") { api, _ in try json(try await api.getLinks()) },
        .init(.put, "/rest/links/{itemName}/{channelUID}") { api, r in
            let body = try decodeBody(ItemChannelLinkDTO.self, r)
            return empty(try await api.putLink(itemName: r[parameter: "itemName"], channelUID: r[parameter: "channelUID"], body: body))
        },
        .init(.delete, "/rest/links/{itemName}/{channelUID}") { api, r in
            empty(try await api.deleteLink(itemName: r[parameter: "itemName"], channelUID: r[parameter: "channelUID"]))
        },
    ])

    /// The methods the router answers on `path` (percent-encoded, as on the wire), or `nil` for a
    /// path it does not serve (``routes``' `Allow` list without `HEAD`).
    public static func allowedMethods(forPath path: String) -> [OpenHABRequest.Method]? {
        let allowed = routes.allowedMethods(forPath: path).compactMap(OpenHABRequest.Method.init(rawValue:))
        return allowed.isEmpty ? nil : allowed
    }

    // MARK: Reading and writing

    /// The answers' header sets, made once (a dictionary per answer was a share of an Item read's cost).
    private static let plainTextHeaders = ["Content-Type": "text/plain; charset=UTF-8"]  // JAX-RS names the charset; clients decode by it
    private static let jsonHeaders = ["Content-Type": "application/json"]

    /// The body as text (a command or state).
    private static func text(_ request: OpenHABRequest) -> String { String(decoding: request.body, as: UTF8.self) }

    /// A JSON body, or `nil` when there is none (the resource then answers its own missing-body error).
    private static func decodeBody<T: Decodable>(_ type: T.Type, _ request: OpenHABRequest) throws(SmartHomeError) -> T? {
        guard !request.body.isEmpty else { return nil }
        do {
            return try OpenHABJSON.decode(type, from: request.body)
        } catch {
            throw SmartHomeError(.invalidBody, "The body of \(request.method.rawValue) \(request.path) is not the JSON of a \(T.self).")
        }
    }

    private static func json<T: Encodable>(_ response: RESTResponse<T>) throws(SmartHomeError) -> OpenHABResponse {
        do {
            return OpenHABResponse(status: response.status.rawValue, headers: Self.jsonHeaders, body: try OpenHABJSON.encode(response.body))
        } catch {
            throw SmartHomeError(.serverFailed, "The answer could not be written as JSON: \(error.message)")
        }
    }

    private static func empty(_ response: RESTResponse<NoContent>) -> OpenHABResponse {
        OpenHABResponse(status: response.status.rawValue)
    }

    /// openHAB's status and body for `error`, with the twin's code and message headers.
    public static func failure(_ error: SmartHomeError) -> OpenHABResponse {
        var headers = [OpenHABResponse.errorCodeHeader: error.codeName,
                       OpenHABResponse.errorMessageHeader: OpenHABPath.headerValue(error.message)]
        var body = Data()
        if let text = error.responseBody {
            headers["Content-Type"] = "application/json"
            body = Data(text.utf8)
        }
        return OpenHABResponse(status: error.httpStatus.rawValue, headers: headers, body: body)
    }
}

extension OpenHABRouter {
    /// The method, path and route of the last request a router resolved, and the route's path parameters.
    final class LastRoute: Sendable {
        private struct Resolved {
            let method: OpenHABRequest.Method
            let path: String
            /// The route's index in ``OpenHABRouter/routes``.
            let index: Int
            let parameters: [OpenHABRequest.PathParameter]
        }

        private let last = Mutex<Resolved?>(nil)

        /// The route index and parameters of `request` if it has the last resolved request's method and path.
        func route(for request: OpenHABRequest) -> (Int, [OpenHABRequest.PathParameter])? {
            last.withLock { last in
                guard let last, last.method == request.method, last.path == request.path else { return nil }
                return (last.index, last.parameters)
            }
        }

        /// Remembers the route `request` resolved to, if any: the route.
        func remember(_ request: OpenHABRequest,
                      _ route: (index: Int, parameters: [OpenHABRequest.PathParameter])?) -> (Int, [OpenHABRequest.PathParameter])? {
            guard let route else { return nil }
            last.withLock { $0 = Resolved(method: request.method, path: request.path, index: route.index, parameters: route.parameters) }
            return route
        }
    }
}
