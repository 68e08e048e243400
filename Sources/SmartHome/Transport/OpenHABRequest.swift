import Foundation

/// One HTTP request to openHAB's REST API, as bytes: method, path, query, headers, body.
///
/// The openHAB seam carries these, like the weather seam carries URLs and bodies: in a
/// simulation an ``OpenHABRouter`` answers them in-process; behind an HTTP server the same
/// router answers them from a socket. `path` is percent-encoded as on the wire
/// (`/rest/items/flat_1_heating_switch`, `/rest/links/x/twin%3Alock%3Aflat-1%3Alock%3Alock` or
/// with the colons left as they are).
public struct OpenHABRequest: Sendable, Hashable {
    /// The HTTP method.
    public var method: Method
    /// The percent-encoded path, starting with `/rest/`.
    public var path: String
    /// Query parameters, decoded.
    public var query: [String: String]
    /// Header fields; names are matched ignoring case (``header(_:)``).
    public var headers: [String: String]
    /// The body (empty for none).
    public var body: Data
    /// The path parameters of the route that matched (``RESTRouteTable/resolve(_:_:)``), e.g.
    /// `itemname` for `/rest/items/{itemname}`; empty until a route matched.
    /// In the pattern's order (a list, not a dictionary: a request has one or two, and a look-up hashes nothing).
    public var parameters: [PathParameter] = []

    /// One path parameter: the pattern's `{name}` and the decoded segment it matched.
    public struct PathParameter: Sendable, Hashable {
        /// The name in the pattern, e.g. `itemname`.
        public let name: String
        /// The decoded segment.
        public let value: String

        /// A parameter.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The methods the REST API answers.
    public enum Method: String, Sendable, Hashable {
        /// `GET`
        case get = "GET"
        /// `PUT`
        case put = "PUT"
        /// `POST`
        case post = "POST"
        /// `DELETE`
        case delete = "DELETE"
    }

    /// Creates a request.
    public init(_ method: Method, _ path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// A path parameter of the matched route (empty when the route has none of that name).
    public subscript(parameter name: String) -> String {
        for parameter in parameters where parameter.name == name { return parameter.value }
        return ""
    }

    /// The value of header `name`, compared ignoring ASCII case (`x-openhab-token` finds `X-OPENHAB-TOKEN`).
    public func header(_ name: String) -> String? {
        if let exact = headers[name] { return exact }
        return headers.first { OpenHABPath.equalIgnoringASCIICase($0.key, name) }?.value
    }

    /// The credentials openHAB reads from the headers: `X-OPENHAB-TOKEN`, else `Authorization: Bearer …`.
    public var credentials: OpenHABCredentials {
        var bearer: String?
        if let authorization = header("Authorization"), authorization.hasPrefix("Bearer ") {
            bearer = String(authorization.dropFirst("Bearer ".count))
        }
        return OpenHABCredentials(openHABToken: header("X-OPENHAB-TOKEN"), bearerToken: bearer)
    }
}
