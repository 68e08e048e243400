import SocketTestSupport
import Foundation
import HTTPServer
import Serve
import Testing

/// Issue 30: the start-up resources openHAB clients probe, answered as a fresh openHAB does.
@Suite("serve: openHAB start-up resources")
struct ServeOpenHABExtrasTests {
    @Test func systemInfoNeedsTheAdminAndCountsVirtualUptime() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                #expect(try c.send("GET", "/rest/systeminfo").status == 401)
                let first = jsonObject(try c.send("GET", "/rest/systeminfo", headers: admin))["systemInfo"] as? [String: Any]
                #expect(first?["startLevel"] as? Int == 100 && first?["uptime"] as? Int == 60)
                #expect(try c.send("POST", "/twin/advance", body: "PT2M").status == 200)
                let later = jsonObject(try c.send("GET", "/rest/systeminfo", headers: admin))["systemInfo"] as? [String: Any]
                #expect(later?["uptime"] as? Int == 180)
                let uom = jsonObject(try c.send("GET", "/rest/systeminfo/uom", headers: admin))["uomInfo"] as? [String: Any]
                let dimensions = (uom?["dimensions"] as? [[String: String]]) ?? []
                #expect(dimensions.contains(["dimension": "Temperature", "systemUnit": "°C"]))
                #expect(dimensions.map { $0["dimension"] ?? "" } == dimensions.map { $0["dimension"] ?? "" }.sorted())
            }
        }
    }

    @Test func fixedResourcesAnswerAsAFreshOpenHAB() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                let uuid = try c.send("GET", "/rest/uuid")
                #expect(uuid.status == 200 && uuid.headers["Content-Type"] == "text/plain; charset=UTF-8")
                #expect(uuid.text.firstMatch(of: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/) != nil, "\(uuid.text)")
                #expect(try c.send("GET", "/rest/uuid").text == uuid.text)
                let tags = (try? JSONSerialization.jsonObject(with: Data(try c.send("GET", "/rest/tags").body))) as? [[String: Any]]
                #expect(tags?.compactMap { $0["uid"] as? String } == ["Location", "Equipment", "Point", "Property"])
                for path in ["/rest/transformations", "/rest/addons", "/rest/inbox"] {
                    #expect(try c.send("GET", path).status == 401, "\(path)")
                    let answer = try c.send("GET", path, headers: admin)
                    #expect(answer.status == 200 && answer.text == "[]", "\(path)")
                }
                for path in ["/rest/sitemaps", "/rest/ui/tiles", "/rest/ui/components/ui:page", "/rest/ui/components/system:sitemap"] {
                    #expect(try c.send("GET", path).text == "[]", "\(path)")
                }
                #expect(try c.send("POST", "/rest/uuid").status == 405)
                // Unknown paths: a JSON error body, not an empty 404.
                let unknown = try c.send("GET", "/rest/nothing/here")
                #expect(unknown.status == 404 && unknown.headers["Content-Type"] == "application/json")
                #expect((jsonObject(unknown)["error"] as? [String: Any])?["http-code"] as? Int == 404)
            }
        }
    }

    @Test func itemsTextIsUTF8AndQuantityItemsCarryUnitMetadata() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                let state = try c.send("GET", "/rest/items/kiez_heating_setpoint/state")
                #expect(state.headers["Content-Type"] == "text/plain; charset=UTF-8" && state.text.hasSuffix(" °C"), "\(state.text)")
                let namespaces = try c.send("GET", "/rest/items/kiez_heating_setpoint/metadata/namespaces")
                #expect(namespaces.status == 200 && namespaces.text == #"["unit"]"#, "\(namespaces.text)")
                let item = jsonObject(try c.send("GET", "/rest/items/kiez_heating_setpoint?metadata=unit"))
                #expect(((item["metadata"] as? [String: Any])?["unit"] as? [String: Any])?["value"] as? String == "°C")
                #expect(try c.send("GET", "/rest/items/kiez_nothing/metadata/namespaces").status == 404)
                // Metadata round trip: PUT a namespace, list it, DELETE it.
                #expect(try c.send("PUT", "/rest/items/kiez_heating_setpoint/metadata/habapp", headers: admin, body: #"{"value":"x"}"#).status == 201)
                #expect(try c.send("GET", "/rest/items/kiez_heating_setpoint/metadata/namespaces").text == #"["habapp","unit"]"#)
                #expect(try c.send("DELETE", "/rest/items/kiez_heating_setpoint/metadata/habapp", headers: admin).status == 200)
                #expect(try c.send("GET", "/rest/items/kiez_heating_setpoint/metadata/namespaces").text == #"["unit"]"#)
            }
        }
    }
}
