import SocketTestSupport
import Foundation
import HTTPServer
import Serve
import Testing

/// openHAB's REST API through the socket: every status of OPENHAB.md's table, auth, 404/405.
@Suite("serve: openHAB REST")
struct ServeOpenHABTests {
    @Test func everyRESTStatusOfOpenHABGoesThroughTheSocket() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                let root = try c.send("GET", "/rest/")
                #expect(root.status == 200 && root.text.contains("\"measurementSystem\":\"SI\""))
                // Items
                let items = try c.send("GET", "/rest/items")
                #expect(items.status == 200 && items.text.contains("\"name\":\"kiez_heating_setpoint\""))
                let item = try c.send("GET", "/rest/items/kiez_heating_setpoint")
                #expect(item.status == 200)
                #expect(jsonObject(item)["link"] as? String == "http://127.0.0.1:\(port)/rest/items/kiez_heating_setpoint")
                let missing = try c.send("GET", "/rest/items/nope")
                #expect(missing.status == 404 && missing.text == #"{"error":{"message":"Item nope does not exist!","http-code":404}}"#)
                // Commands and states
                #expect(try c.send("POST", "/rest/items/kiez_heating_setpoint", headers: ["Content-Type": "text/plain"], body: "22.5").status == 200)
                #expect(try c.send("GET", "/rest/items/kiez_heating_setpoint/state").text == "22.5 °C")
                #expect(try c.send("POST", "/rest/items/kiez_heating_switch", body: "on").status == 400)
                #expect(try c.send("POST", "/rest/items/nope", body: "ON").status == 404)
                #expect(try c.send("PUT", "/rest/items/kiez_heating_switch/state", body: "OFF").status == 202)
                #expect(try c.send("PUT", "/rest/items/kiez_heating_switch/state", body: "maybe").status == 400)
                // Managed Items: admin only
                let dto = #"{"type":"Switch","name":"porch_light","label":"Porch"}"#
                #expect(try c.send("PUT", "/rest/items/porch_light", body: dto).status == 401)
                #expect(try c.send("PUT", "/rest/items/porch_light", headers: ["X-OPENHAB-TOKEN": "wrong"], body: dto).status == 401)
                #expect(try c.send("PUT", "/rest/items/porch_light", headers: admin, body: dto).status == 201)
                #expect(try c.send("PUT", "/rest/items/porch_light", headers: ["Authorization": "Bearer \(adminToken)"], body: dto).status == 200)
                #expect(try c.send("PUT", "/rest/items/porch_light", headers: admin, body: "").status == 400)
                let basic = "Basic " + Data("\(adminToken):".utf8).base64EncodedString()
                #expect(try c.send("DELETE", "/rest/items/porch_light", headers: ["Authorization": basic]).status == 200)
                let gone = try c.send("DELETE", "/rest/items/porch_light", headers: admin)
                #expect(gone.status == 404 && gone.body.isEmpty)
                // Things and links
                let things = try c.send("GET", "/rest/things", headers: admin)
                #expect(things.status == 200 && things.text.contains("\"UID\":\"twin:thermostat:kiez:heating\""))
                #expect(try c.send("GET", "/rest/things/twin:thermostat:kiez:heating", headers: admin).status == 200)
                #expect(try c.send("GET", "/rest/links").status == 401)
                #expect(try c.send("GET", "/rest/links", headers: admin).status == 200)
                let channel = "twin:thermostat:kiez:heating:setpoint"
                let link = #"{"itemName":"kiez_heating_setpoint","channelUID":"\#(channel)","configuration":{}}"#
                #expect(try c.send("DELETE", "/rest/links/kiez_heating_setpoint/\(channel)", headers: admin).status == 200)
                let unlinked = try c.send("DELETE", "/rest/links/kiez_heating_setpoint/\(channel)", headers: admin)
                #expect(unlinked.status == 404 && unlinked.text.contains("does not exist!"))
                #expect(try c.send("PUT", "/rest/links/kiez_heating_setpoint/\(channel)", headers: admin, body: link).status == 200)
                #expect(try c.send("PUT", "/rest/links/nope/\(channel)", headers: admin, body: link).status == 400)
                // Wrong methods and paths
                let wrong = try c.send("POST", "/rest/items")
                #expect(wrong.status == 405 && wrong.headers["Allow"] == "GET, HEAD")
                let patch = try c.send("PATCH", "/rest/items/kiez_heating_setpoint")
                #expect(patch.status == 405 && patch.headers["Allow"] == "GET, HEAD, PUT, POST, DELETE")
                #expect(try c.send("GET", "/rest/nothing").status == 404)
                #expect(try c.send("GET", "/nothing").status == 404)
                let head = try c.send("HEAD", "/rest/items/kiez_heating_setpoint")
                #expect(head.status == 200 && head.body.isEmpty)
            }
        }
    }
}
