/// A response: a status, header fields and either a whole body or a stream of chunks.
///
/// The server owns the framing headers: it sets `Content-Length` (or `Transfer-Encoding:
/// chunked` for a stream) and `Connection` itself and drops any such fields given here.
public struct HTTPResponse: Sendable {
    /// How the body is delivered.
    public enum Body: Sendable {
        /// The whole body at once; the server sends its `Content-Length`.
        case bytes([UInt8])
        /// A body written chunk by chunk as the stream yields, until it finishes or the client
        /// goes away — in which case the server cancels its iteration, so the stream's
        /// `onTermination` handler runs with `.cancelled`.
        case stream(AsyncStream<[UInt8]>)
        /// A WebSocket: after the `101` head the connection speaks RFC 6455 frames for `session`
        /// (made by ``WebSocketHandshake/response(to:session:)``).
        case webSocket(WebSocketSession)
    }

    /// The status code, e.g. 200.
    public var status: Int
    /// The header fields, except the framing ones the server sets.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body

    /// Creates a response with a whole body.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// Creates a response whose body is UTF-8 text, with `Content-Type` defaulting to `text/plain; charset=utf-8`.
    public init(status: Int, headers: HTTPHeaders = [:], text: String) {
        var headers = headers
        if headers["Content-Type"] == nil { headers.add("Content-Type", "text/plain; charset=utf-8") }
        self.init(status: status, headers: headers, body: Array(text.utf8))
    }

    /// A Server-Sent Events response: `200`, `Content-Type: text/event-stream`,
    /// `Cache-Control: no-cache`, then every chunk of `events` as it comes.
    public static func eventStream(_ events: AsyncStream<[UInt8]>, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var fields = headers
        if fields["Content-Type"] == nil { fields.add("Content-Type", "text/event-stream") }
        if fields["Cache-Control"] == nil { fields.add("Cache-Control", "no-cache") }
        var response = HTTPResponse(status: 200, headers: fields)
        response.body = .stream(events)
        return response
    }

    /// The standard reason phrase of `status`, or `Status` for codes without one here.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 426: "Upgrade Required"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
