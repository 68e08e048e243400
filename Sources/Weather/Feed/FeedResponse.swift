import Simulation
import Foundation

/// What the fake feed answers: an HTTP status and a JSON body.
public struct FeedResponse: Sendable, Equatable {
    /// The HTTP status (200, 400, 401, 404, 429, 500).
    public let status: Int
    /// The JSON body, UTF-8.
    public let body: Data

    /// Creates a response.
    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }

    /// The body as text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// A response carrying one of OpenWeatherMap's error bodies.
    static func error(_ status: Int, _ body: OWMErrorBody) -> FeedResponse {
        // Encoding two plain fields cannot fail; the literal is only a formal fallback.
        let data = (try? OrderedJSONEncoder().encode(body)) ?? Data(#"{"cod":500,"message":"Internal error"}"#.utf8)
        return FeedResponse(status: status, body: data)
    }

    /// The response for an injected fault.
    static func fault(_ fault: FeedFault) -> FeedResponse { .error(fault.status, fault.body) }
}
