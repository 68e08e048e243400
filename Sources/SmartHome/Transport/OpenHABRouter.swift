import Foundation
import Simulation

/// Serves openHAB's REST paths (OPENHAB.md) over an ``OpenHABRuntime``: bytes in, bytes out.
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
/// Any other path is 404 and another method on a known path 405, both with an empty body.
/// An HTTP server sits in front of ``handle(_:)``; in a simulation the router is itself the
/// client's ``OpenHABTransport``.
public struct OpenHABRouter: OpenHABTransport {
    /// The runtime whose registries answer.
    public let runtime: OpenHABRuntime
    /// The server root used for Item `link` URLs, e.g. `http://localhost:8080`.
    public let baseURL: String
    /// Tokens and roles.
    public let policy: OpenHABAccessPolicy

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
    }

    /// Answers one request; never throws — every failure is an HTTP answer.
    public func handle(_ request: OpenHABRequest) async -> OpenHABResponse {
        let api = InProcessOpenHABAPI(runtime: runtime, baseURL: baseURL, policy: policy, credentials: request.credentials)
        do {
            return try await route(request, api)
        } catch {
            return Self.failure(error)
        }
    }

    /// ``handle(_:)``, as the in-process transport: never fails at the transport level.
    public func send(_ request: OpenHABRequest) async throws(SmartHomeError) -> OpenHABResponse {
        await handle(request)
    }

    // MARK: Routing

    private func route(_ request: OpenHABRequest, _ api: InProcessOpenHABAPI) async throws(SmartHomeError) -> OpenHABResponse {
        let segments = OpenHABPath.segments(of: request.path)
        guard let allowed = Self.allowedMethods(segments) else { throw Self.unknownPath(request) }
        let method = request.method
        guard allowed.contains(method) else {
            throw SmartHomeError(.methodNotAllowed,
                                 "\(method.rawValue) is not allowed on \(request.path); use \(allowed.map(\.rawValue).joined(separator: ", ")).")
        }
        switch (segments[1], segments.count) {
        case ("things", 2):
            return try Self.json(try await api.getThings())
        case ("things", 3):
            return try Self.json(try await api.getThing(segments[2]))
        case ("things", 4) where segments[3] == "status":
            return try Self.json(try await api.getThingStatus(segments[2]))
        case ("items", 2):
            return try Self.json(try await api.getItems(metadata: request.query["metadata"]))
        case ("items", 3):
            let name = segments[2]
            switch method {
            case .get: return try Self.json(try await api.getItem(name, metadata: request.query["metadata"]))
            case .put: return try Self.json(try await api.putItem(name, body: try Self.decodeBody(ItemDTO.self, request)))
            case .post: return Self.empty(try await api.sendCommand(name, Self.text(request)))
            case .delete: return Self.empty(try await api.deleteItem(name))
            }
        case ("items", 4) where segments[3] == "state":
            if method == .get {
                let state = try await api.getItemState(segments[2])
                return OpenHABResponse(status: state.status.rawValue, headers: Self.plainTextHeaders, body: Data(state.body.utf8))
            }
            return Self.empty(try await api.updateState(segments[2], Self.text(request)))
        case ("items", 5) where segments[3] == "metadata" && segments[4] == "namespaces" && method == .get:
            return try Self.json(try await api.getItemNamespaces(segments[2]))
        case ("items", 5) where segments[3] == "metadata":
            if method == .put {
                let body = try Self.decodeBody(MetadataDTO.self, request)
                return Self.empty(try await api.putMetadata(segments[2], namespace: segments[4], body: body))
            }
            return Self.empty(try await api.deleteMetadata(segments[2], namespace: segments[4]))
        case ("links", 2):
            return try Self.json(try await api.getLinks())
        case ("links", 4):
            if method == .put {
                let body = try Self.decodeBody(ItemChannelLinkDTO.self, request)
                return Self.empty(try await api.putLink(itemName: segments[2], channelUID: segments[3], body: body))
            }
            return Self.empty(try await api.deleteLink(itemName: segments[2], channelUID: segments[3]))
        default:
            throw Self.unknownPath(request)
        }
    }

    /// The methods the router answers on `path` (percent-encoded, as on the wire), or `nil` for a
    /// path it does not serve: what a `405`'s `Allow` header lists.
    public static func allowedMethods(forPath path: String) -> [OpenHABRequest.Method]? {
        allowedMethods(OpenHABPath.segments(of: path))
    }

    private static func allowedMethods(_ segments: [String]) -> [OpenHABRequest.Method]? {
        guard segments.count >= 2, segments[0] == "rest" else { return nil }
        switch (segments[1], segments.count) {
        case ("things", 2), ("things", 3), ("items", 2), ("links", 2): return [.get]
        case ("things", 4) where segments[3] == "status": return [.get]
        case ("items", 3): return [.get, .put, .post, .delete]
        case ("items", 4) where segments[3] == "state": return [.get, .put]
        case ("items", 5) where segments[3] == "metadata" && segments[4] == "namespaces": return [.get, .put, .delete]
        case ("items", 5) where segments[3] == "metadata", ("links", 4): return [.put, .delete]
        default: return nil
        }
    }

    // MARK: Reading and writing

    /// The answers' header sets, made once (a dictionary per answer was a share of an Item read's cost).
    private static let plainTextHeaders = ["Content-Type": "text/plain; charset=UTF-8"]  // JAX-RS names the charset; clients decode by it
    private static let jsonHeaders = ["Content-Type": "application/json"]

    private static func unknownPath(_ request: OpenHABRequest) -> SmartHomeError {
        SmartHomeError(.pathNotFound, "There is no REST resource \(request.path); see OPENHAB.md for the paths the twin serves.")
    }

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
