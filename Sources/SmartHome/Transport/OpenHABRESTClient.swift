import Foundation
import Simulation

/// The typed ``OpenHABAPI`` over an ``OpenHABTransport``: each call is encoded to an HTTP
/// request, sent, and its answer decoded — the client the booking services use.
///
/// Against the twin (an ``OpenHABRouter``, in-process or behind a server) an error comes back as
/// the exact ``SmartHomeError`` the router raised, read from its code and message headers.
/// Against a real openHAB, which sends no such headers, the error is inferred from the status
/// and the call (404 on an Item path is `item.notFound`, 400 on a command `command.invalid`, …)
/// with openHAB's own message when its body has one.
public struct OpenHABRESTClient: OpenHABAPI {
    /// Where requests go.
    public let transport: any OpenHABTransport
    /// The credentials sent with every request.
    public let credentials: OpenHABCredentials
    /// The header fields of every request, made once from ``credentials`` (a map built per request was a
    /// fifth of an automation's Item read).
    private let credentialHeaders: [String: String]

    /// A client sending `credentials` through `transport`.
    public init(transport: any OpenHABTransport, credentials: OpenHABCredentials = .anonymous) {
        self.transport = transport
        self.credentials = credentials
        var headers: [String: String] = [:]
        if let token = credentials.openHABToken { headers["X-OPENHAB-TOKEN"] = token }
        if let token = credentials.bearerToken { headers["Authorization"] = "Bearer \(token)" }
        credentialHeaders = headers
    }

    // MARK: OpenHABAPI

    public func getThings() async throws(SmartHomeError) -> RESTResponse<[EnrichedThingDTO]> {
        try await json(.get, ["things"], notFound: .thingNotFound)
    }

    public func getThing(_ uid: String) async throws(SmartHomeError) -> RESTResponse<EnrichedThingDTO> {
        try await json(.get, ["things", uid], notFound: .thingNotFound)
    }

    public func getThingStatus(_ uid: String) async throws(SmartHomeError) -> RESTResponse<ThingStatusInfo> {
        try await json(.get, ["things", uid, "status"], notFound: .thingNotFound)
    }

    public func getItems(metadata: String?) async throws(SmartHomeError) -> RESTResponse<[EnrichedItemDTO]> {
        try await json(.get, ["items"], query: Self.metadataQuery(metadata), notFound: .itemNotFound)
    }

    public func getItem(_ name: String, metadata: String?) async throws(SmartHomeError) -> RESTResponse<EnrichedItemDTO> {
        try await json(.get, ["items", name], query: Self.metadataQuery(metadata), notFound: .itemNotFound)
    }

    public func getItemState(_ name: String) async throws(SmartHomeError) -> RESTResponse<String> {
        let response = try await exchange(.get, ["items", name, "state"], notFound: .itemNotFound)
        return RESTResponse(try status(response), response.bodyText)
    }

    public func putItem(_ name: String, body: ItemDTO?) async throws(SmartHomeError) -> RESTResponse<EnrichedItemDTO> {
        try await json(.put, ["items", name], body: try encode(body), badRequest: .missingBody, notFound: .itemNotFound)
    }

    public func deleteItem(_ name: String) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try await empty(.delete, ["items", name], notFound: .itemNotRemovable)
    }

    public func putMetadata(_ name: String, namespace: String, body: MetadataDTO?) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try await empty(.put, ["items", name, "metadata", namespace], body: try encode(body), badRequest: .missingBody,
                        notFound: .metadataNotFound)
    }

    public func deleteMetadata(_ name: String, namespace: String) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try await empty(.delete, ["items", name, "metadata", namespace], notFound: .metadataNotFound)
    }

    public func sendCommand(_ name: String, _ command: String) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try await empty(.post, ["items", name], body: Data(command.utf8), contentType: "text/plain",
                        badRequest: .invalidCommand, notFound: .itemNotFound)
    }

    public func updateState(_ name: String, _ state: String) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try await empty(.put, ["items", name, "state"], body: Data(state.utf8), contentType: "text/plain",
                        badRequest: .invalidState, notFound: .itemNotFound)
    }

    public func getLinks() async throws(SmartHomeError) -> RESTResponse<[ItemChannelLinkDTO]> {
        try await json(.get, ["links"], notFound: .linkNotFound)
    }

    public func putLink(itemName: String, channelUID: String,
                        body: ItemChannelLinkDTO?) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try await empty(.put, ["links", itemName, channelUID], body: try encode(body), badRequest: .invalidLink, notFound: .linkNotFound)
    }

    public func deleteLink(itemName: String, channelUID: String) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        try await empty(.delete, ["links", itemName, channelUID], badRequest: .invalidLink, notFound: .linkNotFound)
    }

    // MARK: Exchanges

    /// Sends one request and returns a 2xx answer; any other status becomes the error it stands for.
    private func exchange(_ method: OpenHABRequest.Method, _ segments: [String], query: [String: String] = [:], body: Data? = nil,
                          contentType: String = "application/json", badRequest: SmartHomeError.Code = .invalidBody,
                          notFound: SmartHomeError.Code) async throws(SmartHomeError) -> OpenHABResponse {
        var path = "/rest"
        path.reserveCapacity(segments.reduce(5) { $0 + 1 + $1.utf8.count })
        for segment in segments {
            path.append("/")
            path.append(OpenHABPath.encode(segment))
        }
        var headers = credentialHeaders
        if body != nil { headers["Content-Type"] = contentType }
        let request = OpenHABRequest(method, path, query: query, headers: headers, body: body ?? Data())
        let response = try await transport.send(request)
        guard response.isSuccess else { throw Self.error(of: response, to: request, badRequest: badRequest, notFound: notFound) }
        return response
    }

    private func json<T: Decodable & Sendable>(_ method: OpenHABRequest.Method, _ segments: [String], query: [String: String] = [:],
                                                body: Data? = nil, badRequest: SmartHomeError.Code = .invalidBody,
                                                notFound: SmartHomeError.Code) async throws(SmartHomeError) -> RESTResponse<T> {
        let response = try await exchange(method, segments, query: query, body: body, badRequest: badRequest, notFound: notFound)
        do {
            return RESTResponse(try status(response), try OpenHABJSON.decode(T.self, from: response.body))
        } catch let error as SmartHomeError {
            throw error
        } catch {
            throw SmartHomeError(.invalidResponse,
                                 "openHAB's answer to \(method.rawValue) /rest/\(segments.joined(separator: "/")) is not the JSON of a \(T.self).")
        }
    }

    private func empty(_ method: OpenHABRequest.Method, _ segments: [String], body: Data? = nil,
                       contentType: String = "application/json", badRequest: SmartHomeError.Code = .invalidBody,
                       notFound: SmartHomeError.Code) async throws(SmartHomeError) -> RESTResponse<NoContent> {
        let response = try await exchange(method, segments, body: body, contentType: contentType,
                                          badRequest: badRequest, notFound: notFound)
        return RESTResponse(try status(response), NoContent())
    }

    private static func metadataQuery(_ selector: String?) -> [String: String] {
        selector.map { ["metadata": $0] } ?? [:]
    }

    private func encode<T: Encodable>(_ body: T?) throws(SmartHomeError) -> Data? {
        guard let body else { return nil }
        do {
            return try OpenHABJSON.encode(body)
        } catch {
            throw SmartHomeError(.invalidBody, "The request body could not be written as JSON: \(error.message)")
        }
    }

    private func status(_ response: OpenHABResponse) throws(SmartHomeError) -> HTTPStatus {
        guard let status = HTTPStatus(rawValue: response.status) else {
            throw SmartHomeError(.invalidResponse, "openHAB answered with status \(response.status), which the twin does not expect.")
        }
        return status
    }

    /// The error a non-2xx answer stands for: the twin's own, from its headers, else inferred.
    static func error(of response: OpenHABResponse, to request: OpenHABRequest,
                      badRequest: SmartHomeError.Code, notFound: SmartHomeError.Code) -> SmartHomeError {
        if let codeText = response.header(OpenHABResponse.errorCodeHeader), let code = SmartHomeError.Code(rawValue: codeText) {
            let message = response.header(OpenHABResponse.errorMessageHeader).map(OpenHABPath.headerText) ?? ""
            return SmartHomeError(code, message)
        }
        let bodyMessage = (try? OpenHABJSON.decode(ErrorBody.self, from: response.body))?.error.message
        let message = bodyMessage ?? "openHAB answered \(response.status) to \(request.method.rawValue) \(request.path)."
        switch response.status {
        case 400: return SmartHomeError(badRequest, message)
        case 401: return SmartHomeError(.unauthorized, message)
        case 403: return SmartHomeError(.forbidden, message)
        case 404: return SmartHomeError(notFound, message)
        case 405: return SmartHomeError(.itemNotManaged, message)
        case 409: return SmartHomeError(.duplicateThing, message)
        default: return SmartHomeError(.invalidResponse, message)
        }
    }

    /// openHAB's error body, `{"error":{"message":…,"http-code":…}}`.
    private struct ErrorBody: Decodable {
        struct Detail: Decodable { let message: String }
        let error: Detail
    }
}
