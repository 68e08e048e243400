import Foundation
import HTTPServer
import Rules
import SmartHome

/// Every route of `serve` in one ``RESTRouteTable`` — the same route type the openHAB router and the
/// rule resource declare theirs with, whose rows are taken over here — so the dispatch, the `405`'s
/// `Allow` and `OPTIONS` all read one list. Only `/ws` (a protocol upgrade) and `/data/…` (the
/// OpenWeatherMap feed, also reached as an HTTP proxy with absolute targets) are answered before it.
extension ServeRouter {
    /// What answers one route: the router and the request with its path parameters.
    typealias Handler = @Sendable (ServeRouter, OpenHABRequest) async -> HTTPResponse

    /// The table, in the order routes are tried.
    static let routes: RESTRouteTable<Handler> = {
        var routes: [RESTRoute<Handler>] = [
            .init(.get, "/rest") { router, request in router.root(request) },
            .init(.get, "/rest/events", role: .user) { router, request in await router.events(request) },
            .init(.get, "/rest/events/states", role: .user) { router, _ in await router.stateTrackers.open(router: router) },
            .init(.post, "/rest/events/states/{connectionId}", role: .user) { router, request in
                await router.stateTrackers.update(request[parameter: "connectionId"], body: Array(request.body), router: router)
            },
        ]
        // Items, Things and links: OpenHABRouter's rows, each answered by it on the simulation.
        routes += OpenHABRouter.routes.routes.map { route in
            route.map { handler in { router, request in await router.openHAB(request, handler) } }
        }
        // Rules: RuleRESTRouter's rows (their admin role is checked here like every route's).
        routes += RuleRESTRouter.routes.routes.map { route in
            route.map { handler in { router, request in await router.rules(request, handler) } }
        }
        routes += persistenceRoutes
        routes += extraResources.sorted { $0.key < $1.key }.map { path, resource in
            .init(.get, "/rest/" + path, role: resource.role) { router, _ in await resource.answer(router) }
        }
        routes.append(.init(.get, "/openapi.json") { _, request in json(200, OpenAPIDocument.json(serverURL: baseURL(request))) })
        routes += BookingAPIRoute.all.map { route in
            .init(route.method, route.path) { router, request in await BookingAPIRouter(run: router.run).answer(route, request) }
        }
        routes += twinRoutes
        return RESTRouteTable(routes)
    }()

    /// Answers `request` from ``routes``: its route (once the caller has the route's role), else `405`
    /// with `Allow`, else `404`; `OPTIONS` on a `/rest/` path lists the path's methods.
    func route(_ request: HTTPRequest) async -> HTTPResponse {
        let call = Self.openHABRequest(request)
        if request.method == "OPTIONS", request.path.hasPrefix("/rest/") { return options(call) }
        switch Self.routes.resolve(request.method, call) {
        case .route(let route, let routed):
            if let role = route.role, let refusal = authorize(request, needs: role) { return refusal }
            return await route.handler(self, routed)
        case .methodNotAllowed(let allowed):
            return Self.methodNotAllowed(request, allowed)
        case .notFound:
            return Self.notFound(request)
        }
    }

    /// `OPTIONS` on a `/rest/…` path: openHAB's JAX-RS answers `200` with the path's methods in
    /// `Allow` and no body; CORS is off by default, so no `Access-Control-*` fields.
    private func options(_ request: OpenHABRequest) -> HTTPResponse {
        let methods = Self.routes.allowedMethods(forPath: request.path)
        guard !methods.isEmpty else { return Self.unknownRESTPath(request.path) }
        return HTTPResponse(status: 200, headers: ["Allow": (methods + ["OPTIONS"]).joined(separator: ",")])
    }

    /// The `404` of a path no route has, with a hint of what the area serves.
    private static func notFound(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        if path.hasPrefix("/rest/") || path == "/rest" { return unknownRESTPath(path) }
        if path.hasPrefix("/api/") {
            return failure(ServeError(.notFound, "The booking API has no endpoint \(path); GET /openapi.json lists them all."))
        }
        if path.hasPrefix("/twin/") {
            return failure(ServeError(.notFound, "There is no twin control \(path); use /twin/clock, /twin/advance, /twin/faults or /twin/result."))
        }
        return failure(ServeError(.notFound, "There is nothing at \(path); the twin serves /rest/… (openHAB), /data/… (OpenWeatherMap), /api/… (booking, described by /openapi.json) and /twin/… (see SERVE.md)."))
    }

    /// The one request type of the routes: `request`'s path, query, body and headers (openHAB's
    /// Basic auth with the token as user name becomes `X-OPENHAB-TOKEN`). Its method is set by the
    /// table when a route matches (a method no route has stays `GET` here and is never read).
    static func openHABRequest(_ request: HTTPRequest) -> OpenHABRequest {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name] = field.value }
        if headers["X-OPENHAB-TOKEN"] == nil, let token = basicUser(request.headers["Authorization"]) {
            headers["X-OPENHAB-TOKEN"] = token
        }
        if request.headers["Host"] == nil, let host = request.absoluteHost { headers["Host"] = host }
        return OpenHABRequest(.get, request.path, query: request.query, headers: headers, body: Data(request.body))
    }

    /// An openHAB route, answered by ``OpenHABRouter`` on the simulation.
    private func openHAB(_ request: OpenHABRequest, _ handler: @escaping OpenHABRouter.Handler) async -> HTTPResponse {
        let router = world.openHABRouter(baseURL: Self.baseURL(request), policy: policy)
        var response = Self.response(await world.submit { await router.answer(request, handler) })
        if response.status == 405 {  // a resource's own 405 (an Item that is not managed) names the path's methods too
            response.headers.set("Allow", RESTRouteTable<Handler>.allowHeader(Self.routes.allowedMethods(forPath: request.path)))
        }
        return response
    }

    /// A rule route, answered by ``RuleRESTRouter`` on the simulation (a run now happens inside it, like any request).
    private func rules(_ request: OpenHABRequest, _ handler: @escaping RuleRESTRouter.Handler) async -> HTTPResponse {
        let rules = world.ruleRouter(policy: policy)
        return Self.response(await world.submit { await handler(rules, request) })
    }

    /// An openHAB answer on the socket, its headers in name order.
    private static func response(_ answer: OpenHABResponse) -> HTTPResponse {
        var response = HTTPResponse(status: answer.status, body: Array(answer.body))
        for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) { response.headers.add(name, value) }
        return response
    }
}
