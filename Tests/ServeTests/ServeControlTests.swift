import SocketTestSupport
import Foundation
import HTTPServer
import Serve
import Testing

/// `/twin/clock`, `/twin/advance`, `/twin/faults`, `/twin/result`.
@Suite("serve: twin control")
struct ServeControlTests {
    @Test func theClockMovesOnlyWhenToldAndTheResultFollows() async throws {
        let final = try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                let clock = jsonObject(try c.send("GET", "/twin/clock"))
                #expect(clock["local"] as? String == "2026-11-20T00:00" && clock["mode"] as? String == "manual")
                let first = jsonObject(try c.send("GET", "/twin/result"))
                #expect(first["verdict"] as? String == "pending" && (first["pending"] as? [Any])?.count == 8)
                #expect(jsonObject(try c.send("POST", "/twin/advance", body: "PT1H30M"))["local"] as? String == "2026-11-20T01:30")
                #expect(jsonObject(try c.send("POST", "/twin/advance", body: #"{"to": "2026-11-21T12:00"}"#))["local"] as? String == "2026-11-21T12:00")
                let middle = jsonObject(try c.send("GET", "/twin/result"))
                #expect(middle["expectationsChecked"] as? Int == 3 && (middle["pending"] as? [Any])?.count == 5)
                // Refusals: malformed, in the past, not a duration.
                #expect(try c.send("POST", "/twin/advance", body: "soon").status == 400)
                #expect(try c.send("POST", "/twin/advance", body: #"{"to": "2026-11-20T00:00"}"#).status == 409)
                #expect(try c.send("POST", "/twin/advance", body: #"{"at": 1}"#).status == 400)
                #expect(try c.send("GET", "/twin/advance").headers["Allow"] == "POST")
                #expect(try c.send("GET", "/twin/nothing").status == 404)
                // Faults as the timeline's thing steps.
                #expect(try c.send("POST", "/twin/faults", body: #"{"thing": {"thing": "kiez/heating", "status": "OFFLINE"}}"#).status == 200)
                let things = try c.send("GET", "/rest/things/twin:thermostat:kiez:heating", headers: admin)
                #expect(things.text.contains(#""status":"OFFLINE""#))
                #expect(try c.send("POST", "/twin/faults", body: #"{"thing": {"thing": "kiez/heating", "status": "ONLINE"}}"#).status == 200)
                #expect(try c.send("POST", "/twin/faults", body: #"{"thing": {"thing": "kiez/sauna", "status": "ONLINE"}}"#).status == 422)
                #expect(try c.send("POST", "/twin/faults", body: #"{"thing": {"thing": "kiez/heating", "status": "BROKEN"}}"#).status == 400)
                #expect(try c.send("POST", "/twin/faults", body: "[]").status == 400)
                #expect(try c.send("POST", "/twin/advance", body: "P2D").status == 200)
                let last = jsonObject(try c.send("GET", "/twin/result"))
                #expect(last["endReached"] as? Bool == true && (last["pending"] as? [Any])?.isEmpty == true)
                #expect(last["verdict"] as? String == "pass")
            }
        }
        #expect(final.endReached && final.result.passed)
    }

    @Test func aPacedClockRefusesAdvanceAndMovesByItself() async throws {
        try await withTwin(clock: .paced(speed: 3_600)) { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                let refused = try c.send("POST", "/twin/advance", body: "PT1H")
                #expect(refused.status == 409 && refused.text.contains("serve.clockConflict"))
                #expect(jsonObject(try c.send("GET", "/twin/clock"))["mode"] as? String == "paced")
            }
        }
    }
}
