import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SmartHome

/// The openHAB REST client's transport over HTTP with `URLSession`: the booking services talk to a
/// remote openHAB — a real one, or the twin behind `rental-twin serve` — with no change to the services.
///
/// Not used in simulations (which must not touch the network); `serve`'s tests drive it over loopback.
public struct URLSessionOpenHABTransport: OpenHABTransport {
    /// The server root, e.g. `http://127.0.0.1:8080` (paths such as `/rest/items` are appended).
    public let baseURL: URL
    /// The session requests go through.
    public let session: URLSession
    /// How long to wait for an answer, seconds.
    public let timeoutSeconds: Double

    /// A transport to the openHAB at `baseURL`.
    public init(baseURL: URL, session: URLSession = .shared, timeoutSeconds: Double = 10) {
        self.baseURL = baseURL
        self.session = session
        self.timeoutSeconds = timeoutSeconds
    }

    /// Sends the request and returns openHAB's answer as it came (any status).
    /// - Throws: ``SmartHomeError`` `openhab.unreachable` when no HTTP answer comes back.
    public func send(_ request: OpenHABRequest) async throws(SmartHomeError) -> OpenHABResponse {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        let root = components?.path.hasSuffix("/") == true ? String(components?.path.dropLast() ?? "") : components?.path ?? ""
        components?.percentEncodedPath = root + request.path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? String($0) }
            .joined(separator: "/")
        if !request.query.isEmpty {
            components?.queryItems = request.query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        guard let url = components?.url else {
            throw SmartHomeError(.unreachable, "\(baseURL)\(request.path) is not a URL; check the openHAB base URL.")
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeoutSeconds)
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw SmartHomeError(.unreachable, "\(request.method.rawValue) \(url.absoluteString) got no answer: \(error.localizedDescription); check that openHAB runs there.")
        }
        guard let http = response as? HTTPURLResponse else {
            throw SmartHomeError(.unreachable, "the answer from \(url.absoluteString) is not an HTTP response; check the base URL's scheme.")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return OpenHABResponse(status: http.statusCode, headers: headers, body: data)
    }
}
