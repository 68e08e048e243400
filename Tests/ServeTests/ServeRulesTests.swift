import SocketTestSupport
import Foundation
import Testing
@testable import Serve

/// `/rest/rules` through the socket: the scenario's rules (and the built-in watcher) as openHAB lists
/// them, admin only, run now inside the simulation, enable and disable.
@Suite("serve: rules")
struct ServeRulesTests {
    @Test func rulesAreListedRunAndDisabledOverHTTP() async throws {
        try await withTwin("15-heating-rules-weekday-schedule.json") { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                #expect(try c.send("GET", "/rest/rules").status == 401)
                let list = try c.send("GET", "/rest/rules", headers: admin)
                #expect(list.status == 200 && list.headers["Content-Type"] == "application/json")
                #expect(list.text.contains(#""uid":"heating-1","name":"Weekday morning comfort""#))
                #expect(list.text.contains(#""status":{"status":"IDLE","statusDetail":"NONE"},"editable":false,"#))
                let one = try c.send("GET", "/rest/rules/heating-4", headers: admin)
                #expect(one.status == 200 && one.text.contains(#""type":"script.ScriptAction""#))
                // Run "Guest arrives" now: the heating is switched ON inside the simulation.
                #expect(try c.send("POST", "/rest/rules/heating-4/runnow", headers: admin).status == 200)
                #expect(try c.send("GET", "/rest/items/flat_1_heating_switch/state").text == "ON")
                #expect(try c.send("POST", "/rest/rules/heating-4/enable", headers: admin, body: "false").status == 200)
                #expect(try c.send("GET", "/rest/rules/heating-4", headers: admin).text.contains(#""statusDetail":"DISABLED""#))
                #expect(try c.send("GET", "/rest/rules/nope", headers: admin).status == 404)
                let wrong = try c.send("DELETE", "/rest/rules/heating-4/runnow", headers: admin)
                #expect(wrong.status == 405 && wrong.headers["Allow"] == "POST")
            }
        }
    }
}
