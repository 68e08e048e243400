import SocketTestSupport
import Foundation
import HTTPServer
import Serve
import Testing

/// Issue 30: `/rest/events/states`, Main UI's Item state tracker.
@Suite("serve: /rest/events/states")
struct ServeItemStatesTests {
    @Test func subscribeTrackAndHearChanges() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let frames = try EventClient(port: port, path: "/rest/events/states", topics: nil)
                #expect(try frames.head()?.headers["Content-Type"] == "text/event-stream")
                let ready = try frames.nextMessage()
                #expect(ready?.event == "ready" && ready?.data == "00000000-0000-4000-8000-000000000001")
                let c = try TwinClient(port: port)
                #expect(try c.send("POST", "/rest/events/states/nope", headers: ["Content-Type": "application/json"], body: "[]").status == 404)
                let id = ready?.data ?? ""
                #expect(try c.send("POST", "/rest/events/states/\(id)", headers: ["Content-Type": "application/json"],
                                   body: #"["kiez_heating_setpoint","kiez_heating_switch","nothing"]"#).status == 200)
                #expect(try frames.nextMessage()?.data
                        == #"{"kiez_heating_setpoint":{"state":"21 °C","numericState":21.0,"unit":"°C","type":"Quantity"},"kiez_heating_switch":{"state":"ON","type":"OnOff"}}"#)
                #expect(try c.send("POST", "/rest/items/kiez_heating_setpoint", headers: ["Content-Type": "text/plain"], body: "22.5").status == 200)
                #expect(try c.send("POST", "/twin/advance", body: "PT1M").status == 200)
                #expect(try frames.nextMessage()?.data == #"{"kiez_heating_setpoint":{"state":"22.5 °C","numericState":22.5,"unit":"°C","type":"Quantity"}}"#)
                #expect(try c.send("GET", "/rest/events/states/\(id)").status == 405)
            }
        }
    }
}

@Suite("serve: OPTIONS as openHAB without CORS")
struct ServeOptionsTests {
    @Test func optionsListsTheMethodsWithoutCORSFields() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                let items = try c.send("OPTIONS", "/rest/items/kiez_heating_setpoint", headers: ["Origin": "http://example.org"])
                #expect(items.status == 200 && items.headers["Allow"] == "GET,HEAD,PUT,POST,DELETE,OPTIONS")
                #expect(items.headers["Access-Control-Allow-Origin"] == nil && items.body.isEmpty)
                #expect(try c.send("OPTIONS", "/rest/uuid").headers["Allow"] == "GET,HEAD,OPTIONS")
                #expect(try c.send("OPTIONS", "/rest/nothing").status == 404)
            }
        }
    }
}
