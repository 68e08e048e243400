import Foundation
import SmartHome

/// openHAB's rule resource over bytes, for a server in front of the engine: `GET /rest/rules`,
/// `GET /rest/rules/{uid}`, `POST /rest/rules/{uid}/runnow`, `POST /rest/rules/{uid}/enable` (text
/// `true`/`false`), declared in ``routes``. Rules are admin resources: a user token gets 403, no token 401
/// (after the path and method matched, as JAX-RS resolves a resource before its roles). An unknown
/// UID is 404 with an empty body, as `RuleResource`; a path or method no route has is the openHAB
/// router's 404 or 405 (``OpenHABRouter/refusal(_:allowed:)``). Runs go through the engine like a
/// `runRule` step, so a server must call ``handle(_:)`` or a route's handler on the simulation task
/// (through the kernel's `submit`).
public struct RuleRESTRouter: Sendable {
    /// The engine that answers.
    public let engine: RuleEngine
    /// Tokens and roles (the openHAB router's).
    public let policy: OpenHABAccessPolicy
    /// A router over `engine`.
    public init(engine: RuleEngine, policy: OpenHABAccessPolicy) {
        self.engine = engine
        self.policy = policy
    }

    /// The answer to a `/rest/rules…` request, or `nil` when the path is another resource's.
    public func handle(_ request: OpenHABRequest) async -> OpenHABResponse? {
        let segments = OpenHABPath.segments(of: request.path)
        guard segments.count >= 2, segments[0] == "rest", segments[1] == "rules" else { return nil }
        switch Self.routes.resolve(request.method.rawValue, request) {
        case .route(let route, let routed):
            do throws(SmartHomeError) {
                if let role = route.role { try policy.authorize(request.credentials, needs: role) }
            } catch {
                return OpenHABRouter.failure(error)
            }
            return await route.handler(self, routed)
        case .methodNotAllowed(let allowed):
            return OpenHABRouter.refusal(SmartHomeError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path)."), allowed: allowed)
        case .notFound:
            return OpenHABRouter.refusal(SmartHomeError(.pathNotFound, "There is no REST resource \(request.path)."), allowed: [])
        }
    }

    /// What answers one of the rule paths, once the caller's role was checked.
    public typealias Handler = @Sendable (RuleRESTRouter, OpenHABRequest) async -> OpenHABResponse

    /// `RuleResource`'s paths the twin serves, all for administrators. An unknown UID is `404` with an empty body.
    public static let routes = RESTRouteTable<Handler>([
        .init(.get, "/rest/rules", role: .administrator) { router, _ in
            router.json("[" + router.engine.rules.map { router.dto($0) }.joined(separator: ",") + "]")
        },
        .init(.get, "/rest/rules/{ruleUID}", role: .administrator) { router, request in
            guard let rule = router.engine.rules.first(where: { $0.uid == request[parameter: "ruleUID"] }) else { return notFound() }
            return router.json(router.dto(rule))
        },
        .init(.post, "/rest/rules/{ruleUID}/runnow", role: .administrator) { router, request in
            let uid = request[parameter: "ruleUID"]
            guard router.engine.rules.contains(where: { $0.uid == uid }) else { return notFound() }
            do { try await router.engine.runNow(uid, considerConditions: false, reason: "POST /rest/rules/\(uid)/runnow") } catch { return notFound() }
            return OpenHABResponse(status: 200)
        },
        .init(.post, "/rest/rules/{ruleUID}/enable", role: .administrator) { router, request in
            let text = String(decoding: request.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            guard text == "true" || text == "false" else { return OpenHABResponse(status: 400) }
            do { try router.engine.setEnabled(request[parameter: "ruleUID"], text == "true") } catch { return notFound() }
            return OpenHABResponse(status: 200)
        },
    ])

    private func dto(_ rule: Rule) -> String {
        rule.dtoJSON(enabled: engine.isEnabled(rule.uid) ?? false, editable: rule.isEditable && !rule.isBuiltIn)
    }

    private func json(_ body: String) -> OpenHABResponse {
        OpenHABResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    private static func notFound() -> OpenHABResponse { OpenHABResponse(status: 404) }
}
