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
        // The hand-written writer (OrderedJSONEncoder's bytes); writing an integer and a string cannot fail,
        // the literal is only a formal fallback.
        FeedResponse(status: status, body: body.compactJSON() ?? Data(#"{"cod":500,"message":"Internal error"}"#.utf8))
    }

    /// The response for an injected fault.
    static func fault(_ fault: FeedFault) -> FeedResponse { .error(fault.status, fault.body) }
}
