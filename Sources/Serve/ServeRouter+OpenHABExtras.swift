import Foundation
import HTTPServer
import Simulation
import SmartHome

/// The openHAB REST resources a fresh openHAB answers and clients probe at start-up (HABApp,
/// python-openhab-rest-client, Main UI), beyond the Items, Things, links and rules the twin models.
///
/// Each answers what a fresh openHAB with nothing configured answers, with openHAB's roles
/// (`@RolesAllowed` of its resource class): system information, the units of the twin's
/// dimensions, the instance UUID, the semantic tag roots, and empty lists for transformations,
/// persistence services, sitemaps, UI components and tiles, add-ons, services, the inbox and the
/// type registries. Any other `/rest/…` path is a `404` with openHAB's JSON error body.
extension ServeRouter {
    /// One extra resource: the role it needs and how to answer `GET`.
    struct ExtraResource: Sendable {
        /// The role openHAB's resource requires.
        var role: OpenHABAccessPolicy.Role
        /// The answer.
        var answer: @Sendable (ServeRouter) async -> HTTPResponse
    }

    /// Fixed answers, by path without `/rest/`: each a `GET` route of ``routes`` with its role.
    static let extraResources: [String: ExtraResource] = {
        let empty = ExtraResource(role: .user) { _ in json(200, "[]") }
        let emptyAdmin = ExtraResource(role: .administrator) { _ in json(200, "[]") }
        var resources: [String: ExtraResource] = [
            // SystemInfoResource (admin)
            "systeminfo": ExtraResource(role: .administrator) { router in json(200, await router.systemInfo()) },
            "systeminfo/uom": ExtraResource(role: .administrator) { _ in json(200, uomInfo()) },
            // UUIDResource (user): text/plain
            "uuid": ExtraResource(role: .user) { router in
                HTTPResponse(status: 200, headers: ["Content-Type": plainText], body: Array(router.instanceUUID.utf8))
            },
            // TagResource (user): the semantic tag classes a fresh openHAB has at their roots.
            "tags": ExtraResource(role: .user) { _ in json(200, semanticRoots) },
            // TransformationResource (admin): no transformation is configured.
            "transformations": emptyAdmin,
            "transformations/services": emptyAdmin,
            // SitemapResource (user), UIResource (user), IconSetResource, ThingTypeResource (user), templates and module types.
            "sitemaps": empty, "ui/tiles": empty, "iconsets": empty, "thing-types": empty, "templates": empty, "module-types": empty,
            // Admin-only registries of a fresh openHAB with no add-on installed.
            "addons": emptyAdmin, "addons/services": emptyAdmin, "addons/types": emptyAdmin, "addons/suggestions": emptyAdmin,
            "services": emptyAdmin, "config-descriptions": emptyAdmin, "inbox": emptyAdmin, "channel-types": emptyAdmin,
            "profile-types": emptyAdmin, "discovery": emptyAdmin,
        ]
        // UIResource: every component namespace is empty (ui:page, ui:widget, system:sitemap, …).
        for namespace in ["ui:page", "ui:widget", "ui:blocks", "ui:model", "system:sitemap"] {
            resources["ui/components/\(namespace)"] = empty
        }
        return resources
    }()

    /// `text/plain; charset=UTF-8`, as openHAB's JAX-RS writes plain text.
    static let plainText = "text/plain; charset=UTF-8"

    /// openHAB's `401`/`403` answer when the request's credentials lack `role`, else `nil`.
    func authorize(_ request: HTTPRequest, needs role: OpenHABAccessPolicy.Role) -> HTTPResponse? {
        do throws(SmartHomeError) {
            try policy.authorize(Self.credentials(request), needs: role)
            return nil
        } catch {
            return HTTPResponse(status: error.httpStatus.rawValue, headers: ["Content-Type": "application/json"],
                                body: Array((error.responseBody ?? "").utf8))
        }
    }

    /// The credentials openHAB reads: `X-OPENHAB-TOKEN`, `Authorization: Bearer …`, Basic with the
    /// token as user name, or (for WebSocket clients that cannot set headers) `?accessToken=`.
    static func credentials(_ request: HTTPRequest) -> OpenHABCredentials {
        var token = request.headers["X-OPENHAB-TOKEN"]
        if token == nil, let authorization = request.headers["Authorization"] {
            token = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : basicUser(authorization)
        }
        if token == nil { token = request.query["accessToken"] }
        return OpenHABCredentials(openHABToken: token)
    }

    /// The uptime the twin reports at the scenario's start: its openHAB has loaded everything before it
    /// answers, so it says it is past the first minute a real openHAB spends loading configuration. Clients
    /// that wait for that minute (HABApp sleeps while the uptime is under 60 s) start at once, also on
    /// `--clock manual`, where virtual time stands still until advanced.
    static let settledUptimeSeconds: Int64 = 60

    /// openHAB's JSON error body for a path no resource serves.
    static func unknownRESTPath(_ path: String) -> HTTPResponse {
        json(404, ServeError.body(code: ServeError.Code.notFound.rawValue, message: "HTTP 404 Not Found: there is no REST resource \(path)", status: 404))
    }

    /// `SystemInfoBean`: start level 100 (the twin is up once it answers), uptime in virtual
    /// seconds since the scenario's start plus ``settledUptimeSeconds``. The twin has no JVM: folders are
    /// openHAB's Linux package defaults, the memory figures 0 and one processor — fixed, so answers repeat.
    func systemInfo() async -> String {
        let start = run.scenario.start
        let world = world
        let uptime = await world.submit { Self.settledUptimeSeconds + max(0, (world.now - start).milliseconds / 1_000) }
        return "{\"systemInfo\":{\"configFolder\":\"/etc/openhab\",\"userdataFolder\":\"/var/lib/openhab\",\"logFolder\":\"/var/log/openhab\","
            + "\"osName\":\"Linux\",\"osVersion\":\"rental-twin\",\"osArchitecture\":\"virtual\",\"availableProcessors\":1,"
            + "\"freeMemory\":0,\"totalMemory\":0,\"uptime\":\(uptime),\"startLevel\":100}}"
    }

    /// `UoMInfoBean`: the twin's dimensions and their system units, sorted by dimension.
    static func uomInfo() -> String {
        let dimensions = Dimension.allCases.sorted { $0.rawValue < $1.rawValue }.map {
            "{\"dimension\":\(JSONString.quoted($0.rawValue)),\"systemUnit\":\(JSONString.quoted($0.defaultUnit.symbol))}"
        }
        return "{\"uomInfo\":{\"dimensions\":[\(dimensions.joined(separator: ","))]}}"
    }

    /// The root semantic tag classes of openHAB's default tags (`EnrichedSemanticTagDTO`).
    static let semanticRoots: String = ["Location", "Equipment", "Point", "Property"].map {
        "{\"uid\":\"\($0)\",\"name\":\"\($0)\",\"label\":\"\",\"description\":\"\",\"synonyms\":[],\"editable\":false,\"defaultTag\":true}"
    }.joined(separator: ",").wrappedInBrackets

    /// A UUID derived from the scenario's name (openHAB's `InstanceUUID`, stable across restarts as openHAB's is).
    var instanceUUID: String {
        let high = StableHash.fnv1a64("rental-twin uuid 1 " + run.scenario.name)
        let low = StableHash.fnv1a64("rental-twin uuid 2 " + run.scenario.name)
        var hex = Array((String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)))
        hex[12] = "4"  // version 4 layout
        let text = String(hex)
        let parts = [text.prefix(8), text.dropFirst(8).prefix(4), text.dropFirst(12).prefix(4), text.dropFirst(16).prefix(4), text.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}

private extension String {
    var wrappedInBrackets: String { "[" + self + "]" }
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
