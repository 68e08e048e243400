import SocketTestSupport
import Foundation
import HTTPServer
import Serve
import Testing

/// Issue 26 item 4: one `/twin/advance` is bounded, and stops when its task is cancelled.
@Suite("serve: bounded and cancellable advances")
struct ServeAdvanceBoundsTests {
    @Test func advancesPastTheEndPlusTheMarginAreRefusedAndTheClockStays() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                for body in ["P365000D", #"{"to": "9999-12-31T23:59"}"#, "P1000000000W", "P10DT1S"] {
                    let refused = try c.send("POST", "/twin/advance", body: body)
                    #expect(refused.status == 422, "\(body)")
                    #expect(jsonObject(refused)["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } == "serve.advanceTooFar", "\(body)")
                    #expect(refused.text.contains("2026-11-30T00:00"), "the limit is named: \(refused.text)")
                }
                // A duration whose seconds do not fit is a bad request, not a trap.
                #expect(try c.send("POST", "/twin/advance", body: "PT99999999999999999999.5S").status == 400)
                #expect(jsonObject(try c.send("GET", "/twin/clock"))["local"] as? String == "2026-11-20T00:00")
                // Up to the limit itself is allowed.
                #expect(jsonObject(try c.send("POST", "/twin/advance", body: #"{"to": "2026-11-30T00:00"}"#))["local"] as? String == "2026-11-30T00:00")
                #expect(try c.send("POST", "/twin/advance", body: "PT1S").status == 422)
            }
        }
    }

    @Test func aCancelledAdvanceStopsAndSaysWhere() async throws {
        try await withTwin { server in
            let router = server.router
            // The handler's task is cancelled before it looks: the advance must not move the clock at all.
            let response = await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await router.handle(HTTPRequest(method: "POST", target: "/twin/advance", headers: ["Host": "t"], body: Array("P2D".utf8)))
            }.value
            #expect(response.status == 503)
            guard case .bytes(let body) = response.body else {
                Issue.record("expected a whole body")
                return
            }
            let text = String(decoding: body, as: UTF8.self)
            #expect(text.contains("serve.advanceInterrupted") && text.contains("stopped at 2026-11-20T00:00"), "\(text)")
            let clock = await router.handle(HTTPRequest(method: "GET", target: "/twin/clock", headers: ["Host": "t"]))
            guard case .bytes(let clockBody) = clock.body else { return }
            #expect(String(decoding: clockBody, as: UTF8.self).contains(#""local":"2026-11-20T00:00""#))
        }
    }
}
