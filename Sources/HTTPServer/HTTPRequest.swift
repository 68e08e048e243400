/// One parsed HTTP request: its line, its headers and its whole body.
///
/// The path is kept raw (percent escapes left as sent) so a router can split on `/` before
/// decoding segments; the query is given both raw and as a decoded dictionary.
public struct HTTPRequest: Sendable {
    /// The method as sent, e.g. `GET` (methods are case-sensitive).
    public var method: String
    /// The request target exactly as sent: `/path?query`, `http://host/path?query` or `*`.
    public var target: String
    /// The path of the target, not percent-decoded; `/` for an absolute-form target without one.
    public var path: String
    /// The query after `?`, raw, or `nil` when the target has none.
    public var queryString: String?
    /// The query's parameters, names and values percent- and `+`-decoded; the first of repeated names wins.
    public var query: [String: String]
    /// The authority (`host[:port]`) of an absolute-form target, as a proxy client sends it; else `nil`.
    public var absoluteHost: String?
    /// The protocol version of the request line.
    public var version: HTTPVersion
    /// The header fields in the order sent.
    public var headers: HTTPHeaders
    /// The body after `Content-Length` or chunked decoding; empty when there is none.
    public var body: [UInt8]

    /// Creates a request; `path`, `queryString` and `query` are derived from `target`.
    public init(method: String, target: String, version: HTTPVersion = .http11, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        let parts = Self.split(target: target)
        absoluteHost = parts.host
        path = parts.path
        queryString = parts.query
        query = parts.query.map(Self.parseQuery) ?? [:]
    }

    /// The host the client addressed: the absolute-form authority, else the `Host` header.
    public var host: String? { absoluteHost ?? headers["Host"] }

    /// Whether the connection stays open after this request: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool {
        if version >= .http11 { return !headers.contains(token: "close", in: "Connection") }
        return headers.contains(token: "keep-alive", in: "Connection")
    }

    /// The body as UTF-8 text (invalid bytes replaced).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Splits `http://host/path?query` or `/path?query` into its parts.
    static func split(target: String) -> (host: String?, path: String, query: String?) {
        var rest = Substring(target)
        var host: String?
        for scheme in ["http://", "https://"] where rest.utf8.count >= scheme.utf8.count
            && HTTPHeaders.sameName(rest.prefix(scheme.count), scheme) {
            rest = rest.dropFirst(scheme.count)
            let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            host = String(rest[..<end])
            rest = rest[end...]
            break
        }
        let questionMark = rest.firstIndex(of: "?")
        var path = String(rest[..<(questionMark ?? rest.endIndex)])
        if host != nil && path.isEmpty { path = "/" }
        return (host, path, questionMark.map { String(rest[rest.index(after: $0)...]) })
    }
}
