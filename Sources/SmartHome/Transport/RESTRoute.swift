/// One REST endpoint: method, path pattern, role and handler — the one routing shape of the twin's
/// servers (openHAB's Items, Things and links in ``OpenHABRouter``, the rule resource, and every
/// route of `serve`). A ``RESTRouteTable`` of them answers which route a request reaches, and the
/// `Allow` list of a path from the same rows, so a `405` can never disagree with the dispatch.
public struct RESTRoute<Handler: Sendable>: Sendable {
    /// The method; a `GET` route also answers `HEAD` (the server sends the head only), as JAX-RS does.
    public let method: OpenHABRequest.Method
    /// The path pattern, e.g. `/rest/items/{itemname}/state`: a `{name}` segment matches any one
    /// non-empty decoded segment and is handed to the handler as ``OpenHABRequest/parameters``.
    public let path: String
    /// The role the caller needs, checked before the handler runs; `nil` when the route is open or
    /// its handler authorises itself (openHAB's Item resource decides per call).
    public let role: OpenHABAccessPolicy.Role?
    /// What answers the request.
    public let handler: Handler
    /// `path`'s segments: a literal's UTF-8, or `nil` for a `{name}` parameter (with its name).
    private let pattern: [(literal: [UInt8]?, name: String)]
    /// How many of ``pattern``'s segments are parameters.
    private let parameterCount: Int

    /// A route.
    public init(_ method: OpenHABRequest.Method, _ path: String, role: OpenHABAccessPolicy.Role? = nil, _ handler: Handler) {
        self.method = method
        self.path = path
        self.role = role
        self.handler = handler
        pattern = path.split(separator: "/").map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}")
                ? (nil, String(segment.dropFirst().dropLast())) : (Array(segment.utf8), "")
        }
        parameterCount = pattern.count { $0.literal == nil }
    }

    /// The same route with another handler (a server wrapping a library's routes in its own).
    public func map<Other: Sendable>(_ transform: (Handler) -> Other) -> RESTRoute<Other> {
        RESTRoute<Other>(method, path, role: role, transform(handler))
    }

    /// Whether `segments` (a request path's, none empty) fit the pattern: each literal equal to its decoded segment.
    func fits(_ segments: PathSegments) -> Bool {
        guard pattern.count == segments.count else { return false }
        for i in pattern.indices {
            if let literal = pattern[i].literal, !segments.segment(i, is: literal) { return false }
        }
        return true
    }

    /// The path parameters of `segments`, which ``fits(_:)`` the pattern: each `{name}` with its decoded segment.
    func parameters(_ segments: PathSegments) -> [OpenHABRequest.PathParameter] {
        var parameters: [OpenHABRequest.PathParameter] = []
        guard parameterCount > 0 else { return parameters }
        parameters.reserveCapacity(parameterCount)
        for i in pattern.indices where pattern[i].literal == nil {
            parameters.append(OpenHABRequest.PathParameter(name: pattern[i].name, value: segments.text(i)))
        }
        return parameters
    }
}

/// The routes of one server, tried in order: the first route whose method and pattern fit answers.
public struct RESTRouteTable<Handler: Sendable>: Sendable {
    /// Every route, in the order they are tried (and their methods listed in `Allow`).
    public let routes: [RESTRoute<Handler>]

    /// A table of `routes`.
    public init(_ routes: [RESTRoute<Handler>]) { self.routes = routes }

    /// Where a request lands.
    public enum Resolution: Sendable {
        /// The route that answers, and the request with its path parameters set.
        case route(RESTRoute<Handler>, OpenHABRequest)
        /// The path exists, not with this method: `Allow` lists these.
        case methodNotAllowed(allowed: [String])
        /// No route has this path.
        case notFound
    }

    /// The route for `method` (any token, `HEAD` counting as `GET`) and `request`'s path.
    /// - Parameters:
    ///   - method: the request's method as sent (`PATCH`, `OPTIONS`, … find no route).
    ///   - request: the request; its ``OpenHABRequest/method`` is ignored.
    public func resolve(_ method: String, _ request: OpenHABRequest) -> Resolution {
        resolve(OpenHABRequest.Method(rawValue: method == "HEAD" ? "GET" : method), request)
    }

    /// The route for `request`'s own ``OpenHABRequest/method`` and path (an in-process request: no method
    /// token to read).
    public func resolve(_ request: OpenHABRequest) -> Resolution {
        resolve(request.method, request)
    }

    private func resolve(_ verb: OpenHABRequest.Method?, _ request: OpenHABRequest) -> Resolution {
        // Matched on the path's bytes: only the answering route's parameters become text.
        OpenHABPath.withSegments(of: request.path) { segments in
            if let verb, let (index, parameters) = match(verb, segments) {
                var routed = request
                routed.method = verb
                routed.parameters = parameters
                return .route(routes[index], routed)
            }
            let allowed = allowedMethods(segments)
            return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
        }
    }

    /// The index in ``routes`` of the route that answers `request`'s own method and path, and its path parameters;
    /// `nil` when none does (``resolve(_:)`` then says why).
    func match(_ request: OpenHABRequest) -> (index: Int, parameters: [OpenHABRequest.PathParameter])? {
        OpenHABPath.withSegments(of: request.path) { match(request.method, $0) }
    }

    private func match(_ verb: OpenHABRequest.Method, _ segments: PathSegments) -> (index: Int, parameters: [OpenHABRequest.PathParameter])? {
        // By index: a route is copied (its strings and handler retained) only when it answers.
        for index in routes.indices where routes[index].method == verb && routes[index].fits(segments) {
            return (index, routes[index].parameters(segments))
        }
        return nil
    }

    /// The methods some route serves at `path` (percent-encoded, as on the wire), `GET` followed by
    /// `HEAD`, in table order; empty for a path no route has.
    public func allowedMethods(forPath path: String) -> [String] {
        OpenHABPath.withSegments(of: path) { allowedMethods($0) }
    }

    private func allowedMethods(_ segments: PathSegments) -> [String] {
        var methods: [String] = []
        for route in routes where route.fits(segments) {
            for name in route.method == .get ? ["GET", "HEAD"] : [route.method.rawValue] where !methods.contains(name) {
                methods.append(name)
            }
        }
        return methods
    }

    /// The `Allow` header of a `405`: the methods joined by `", "`.
    public static func allowHeader(_ allowed: [String]) -> String { allowed.joined(separator: ", ") }
}
