import Foundation
import SmartHome

/// openHAB's rule resource over bytes, for a server in front of the engine: `GET /rest/rules`,
/// `GET /rest/rules/{uid}`, `POST /rest/rules/{uid}/runnow`, `POST /rest/rules/{uid}/enable` (text
/// `true`/`false`). Rules are admin resources (SERVE.md): a user token gets 403, no token 401. An unknown
/// UID is 404 with an empty body, as `RuleResource`. Runs go through the engine like a `runRule` step, so
/// a server must call ``handle(_:)`` on the simulation task (through the kernel's `submit`).
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
        do {
            try policy.authorize(request.credentials, needs: .administrator)
            switch (segments.count, request.method) {
            case (2, .get):
                let body = "[" + engine.rules.map { dto($0) }.joined(separator: ",") + "]"
                return json(body)
            case (3, .get):
                guard let rule = engine.rules.first(where: { $0.uid == segments[2] }) else { return notFound() }
                return json(dto(rule))
            case (4, .post) where segments[3] == "runnow":
                guard engine.rules.contains(where: { $0.uid == segments[2] }) else { return notFound() }
                do { try await engine.runNow(segments[2], considerConditions: false, reason: "POST /rest/rules/\(segments[2])/runnow") } catch { return notFound() }
                return OpenHABResponse(status: 200)
            case (4, .post) where segments[3] == "enable":
                let text = String(decoding: request.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                guard text == "true" || text == "false" else {
                    return OpenHABResponse(status: 400)
                }
                do { try engine.setEnabled(segments[2], text == "true") } catch { return notFound() }
                return OpenHABResponse(status: 200)
            case (2, _), (3, _), (4, _) where ["runnow", "enable"].contains(segments.count == 4 ? segments[3] : ""):
                var refused = OpenHABRouter.failure(SmartHomeError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path)."))
                refused.headers["Allow"] = segments.count == 4 ? "POST" : "GET"
                return refused
            default:
                return notFound()
            }
        } catch {
            return OpenHABRouter.failure(error)
        }
    }

    private func dto(_ rule: Rule) -> String {
        rule.dtoJSON(enabled: engine.isEnabled(rule.uid) ?? false, editable: rule.isEditable && !rule.isBuiltIn)
    }

    private func json(_ body: String) -> OpenHABResponse {
        OpenHABResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    private func notFound() -> OpenHABResponse { OpenHABResponse(status: 404) }
}
