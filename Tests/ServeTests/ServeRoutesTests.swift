import SocketTestSupport
import Foundation
import HTTPServer
@testable import Serve
import Rules
import SmartHome
import Testing

/// Issue 27: every route of `serve` is a row of one table, and its `405`, `Allow` and `OPTIONS` come from that table.
@Suite("serve: one route table")
struct ServeRoutesTests {
    /// A concrete path for a pattern: each `{name}` becomes `x`.
    static func sample(_ pattern: String) -> String {
        "/" + pattern.split(separator: "/").map { $0.hasPrefix("{") ? "x" : String($0) }.joined(separator: "/")
    }

    @Test("the table holds the openHAB router's and the rule resource's rows, the booking API's and the twin's")
    func tableTakesOverEveryRouter() {
        let rows = Set(ServeRouter.routes.routes.map { "\($0.method.rawValue) \($0.path)" })
        for route in OpenHABRouter.routes.routes { #expect(rows.contains("\(route.method.rawValue) \(route.path)")) }
        for route in RuleRESTRouter.routes.routes { #expect(rows.contains("\(route.method.rawValue) \(route.path)")) }
        for route in BookingAPIRoute.all { #expect(rows.contains("\(route.method.rawValue) \(route.path)")) }
        for path in ["/twin/clock", "/twin/result", "/twin/advance", "/twin/faults", "/openapi.json", "/rest", "/rest/events", "/rest/uuid"] {
            #expect(ServeRouter.routes.routes.contains { $0.path == path }, "\(path)")
        }
        // The rule rows keep their role: the table checks it before their handler runs.
        #expect(ServeRouter.routes.routes.filter { $0.path.hasPrefix("/rest/rules") }.allSatisfy { $0.role == .administrator })
    }

    @Test("every path answers PATCH with 405, the table's Allow and a JSON error body")
    func everyPathRefusesAnotherMethodFromTheTable() async throws {
        let paths = Array(Set(ServeRouter.routes.routes.map { Self.sample($0.path) })).sorted()
        #expect(paths.count > 40)
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                for path in paths {
                    let answer = try c.send("PATCH", path, headers: admin)
                    let allowed = ServeRouter.routes.allowedMethods(forPath: path)
                    #expect(answer.status == 405 && answer.headers["Allow"] == allowed.joined(separator: ", "), "\(path): \(answer.status)")
                    let error = jsonObject(answer)["error"] as? [String: Any]
                    #expect(error?["code"] as? String == "serve.methodNotAllowed" && error?["http-code"] as? Int == 405, "\(path)")
                }
            }
        }
    }

    @Test("rules: 405 before the role (as JAX-RS), OPTIONS from the table, an unknown sub-path is openHAB's JSON 404")
    func rulePathsFollowTheTable() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                // A user token on a wrong method: the method is refused first.
                let wrong = try c.send("DELETE", "/rest/rules/heating-4/runnow", headers: ["X-OPENHAB-TOKEN": "unknown"])
                #expect(wrong.status == 405 && wrong.headers["Allow"] == "POST")
                #expect(try c.send("GET", "/rest/rules").status == 401)
                let options = try c.send("OPTIONS", "/rest/rules/heating-4")
                #expect(options.status == 200 && options.headers["Allow"] == "GET,HEAD,OPTIONS")
                let unknown = try c.send("GET", "/rest/rules/heating-4/runnow/more", headers: admin)
                #expect(unknown.status == 404 && (jsonObject(unknown)["error"] as? [String: Any])?["http-code"] as? Int == 404)
            }
        }
    }
}
