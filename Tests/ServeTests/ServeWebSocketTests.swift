import SocketTestSupport
import Foundation
import HTTPServer
import Serve
import Testing

/// Issue 30: openHAB's `/ws` event WebSocket, and hostile WebSocket clients.
@Suite("serve: the /ws event WebSocket")
struct ServeWebSocketTests {
    static func json(_ text: String?) -> [String: Any] {
        (text.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]) ?? [:]
    }

    static func message(_ type: String, _ topic: String, _ payload: String, eventId: String? = nil) -> String {
        var object: [String: String] = ["type": type, "topic": topic, "payload": payload]
        if let eventId { object["eventId"] = eventId }
        return String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func theHandshakeHeartbeatFiltersACommandAndItsEvents() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let ws = try WebSocketTestClient(port: port, path: "/ws?accessToken=\(adminToken)")
                #expect(ws.handshake?.status == 101)
                #expect(ws.handshake?.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
                #expect(ws.handshake?.headers["Upgrade"] == "websocket" && ws.handshake?.headers["Connection"] == "Upgrade")
                try ws.sendText(Self.message("WebSocketEvent", "openhab/websocket/heartbeat", "PING", eventId: "1"))
                let pong = Self.json(try ws.readText())
                #expect(pong["topic"] as? String == "openhab/websocket/heartbeat" && pong["payload"] as? String == "PONG" && pong["eventId"] as? String == "1")
                // Only ItemStateChangedEvents of the setpoint from now on.
                try ws.sendText(Self.message("WebSocketEvent", "openhab/websocket/filter/type", #"["ItemStateChangedEvent"]"#, eventId: "2"))
                #expect(Self.json(try ws.readText())["topic"] as? String == "openhab/websocket/filter/type")
                try ws.sendText(Self.message("WebSocketEvent", "openhab/websocket/filter/topic", #"["openhab/items/kiez_heating_setpoint/*"]"#, eventId: "3"))
                #expect(Self.json(try ws.readText())["payload"] as? String == #"["openhab/items/kiez_heating_setpoint/*"]"#)
                // A command in: success for its eventId, then the change out.
                try ws.sendText(Self.message("ItemCommandEvent", "openhab/items/kiez_heating_setpoint/command", #"{"type":"Quantity","value":"23.5 °C"}"#, eventId: "4"))
                var seen: [[String: Any]] = []
                while seen.count < 2, let text = try ws.readText() { seen.append(Self.json(text)) }
                #expect(seen.contains { $0["topic"] as? String == "openhab/websocket/response/success" && $0["eventId"] as? String == "4" }, "\(seen)")
                let change = seen.first { $0["type"] as? String == "ItemStateChangedEvent" }
                #expect(change?["topic"] as? String == "openhab/items/kiez_heating_setpoint/statechanged")
                #expect(Self.json(change?["payload"] as? String)["value"] as? String == "23.5 °C")
                // Refusals answer response/failed and keep the connection.
                try ws.sendText(Self.message("ItemCommandEvent", "openhab/items/kiez_heating_setpoint/command", #"{"type":"OnOff","value":"ON"}"#, eventId: "5"))
                let failed = Self.json(try ws.readText())
                #expect(failed["topic"] as? String == "openhab/websocket/response/failed" && failed["eventId"] as? String == "5", "\(failed)")
                #expect((failed["payload"] as? String)?.contains("Incompatible datatype") == true)
                try ws.sendText(Self.message("ItemCommandEvent", "openhab/items/nothing_here/command", #"{"type":"OnOff","value":"ON"}"#, eventId: "6"))
                #expect((Self.json(try ws.readText())["payload"] as? String)?.contains("Could not find item 'nothing_here'") == true)
                try ws.sendText("not json")
                #expect(Self.json(try ws.readText())["topic"] as? String == "openhab/websocket/response/failed")
                // The REST side sees the command's effect.
                let c = try TwinClient(port: port)
                #expect(try c.send("GET", "/rest/items/kiez_heating_setpoint/state").text == "23.5 °C")
                // A polite close is echoed.
                try ws.send(WebSocketTestClient.frame(opcode: 8, [0x03, 0xE8]))
                #expect(try ws.readCloseCode() == 1000)
            }
        }
    }

    @Test func handshakesThatAreRefused() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                #expect(try WebSocketTestClient(port: port, path: "/ws?accessToken=wrong").handshake?.status == 401)
                #expect(try WebSocketTestClient(port: port, path: "/ws/nowhere").handshake?.status == 404)
                #expect(try TwinClient(port: port).send("GET", "/ws").status == 400)  // no Upgrade
                #expect(try TwinClient(port: port).send("GET", "/ws", headers: ["Upgrade": "websocket", "Connection": "Upgrade",
                                                                               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "8"]).status == 426)
                // The token may ride in Sec-WebSocket-Protocol, as Main UI sends it.
                let encoded = Data(adminToken.utf8).base64EncodedString()
                let ui = try WebSocketTestClient(port: port, path: "/ws", headers: ["Sec-WebSocket-Protocol": "org.openhab.ws.accessToken.base64.\(encoded), org.openhab.ws.protocol.default"])
                #expect(ui.handshake?.status == 101 && ui.handshake?.headers["Sec-WebSocket-Protocol"] == "org.openhab.ws.protocol.default")
                // Anonymous clients have the user role, as on openHAB with implicit user role.
                #expect(try WebSocketTestClient(port: port, path: "/ws").handshake?.status == 101)
            }
        }
    }

    /// Each hostile client ends with its close code; the server serves the next request.
    static let hostile: [(String, [UInt8], UInt16)] = [
        ("oversize frame", WebSocketTestClient.frame(opcode: 1, [UInt8](repeating: 0x61, count: 70_000)), 1009),
        ("unmasked client frame", WebSocketTestClient.frame(opcode: 1, Array("{}".utf8), masked: false), 1002),
        ("bad UTF-8 in a text frame", WebSocketTestClient.frame(opcode: 1, [0x7B, 0xC3, 0x28, 0x7D]), 1007),
        ("fragment storm", WebSocketTestClient.frame(opcode: 1, [0x61], fin: false)
            + Array(repeating: WebSocketTestClient.frame(opcode: 0, [], fin: false), count: 2_000).flatMap { $0 }, 1008),
        ("reserved opcode", WebSocketTestClient.frame(opcode: 3, []), 1002),
        ("a continuation first", WebSocketTestClient.frame(opcode: 0, [0x61]), 1002),
        ("a binary message", WebSocketTestClient.frame(opcode: 2, [1, 2, 3]), 1003),
    ]

    @Test("hostile frames end their connection with the right close code", arguments: 0..<hostile.count)
    func hostileFrames(index: Int) async throws {
        let (what, bytes, code) = Self.hostile[index]
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let ws = try WebSocketTestClient(port: port, path: "/ws")
                #expect(ws.handshake?.status == 101)
                try? ws.send(bytes)  // the server may close before reading all of it
                #expect(try ws.readCloseCode() == code, "\(what)")
                let c = try TwinClient(port: port)
                #expect(try c.send("GET", "/twin/clock").status == 200, "\(what)")
            }
        }
    }

    @Test func updatesInAndThingEventsOut() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let ws = try WebSocketTestClient(port: port, path: "/ws?accessToken=\(adminToken)")
                try ws.sendText(Self.message("WebSocketEvent", "openhab/websocket/filter/topic",
                                             #"["openhab/things/**", "openhab/items/kiez_heating_setpoint/statechanged"]"#))
                #expect(Self.json(try ws.readText())["topic"] as? String == "openhab/websocket/filter/topic")
                // An update in (no eventId: no success reply), its change out.
                try ws.sendText(Self.message("ItemStateEvent", "openhab/items/kiez_heating_setpoint/state", #"{"type":"Quantity","value":"19 °C"}"#))
                let change = Self.json(try ws.readText())
                #expect(change["type"] as? String == "ItemStateChangedEvent")
                #expect(Self.json(change["payload"] as? String)["value"] as? String == "19 °C")
                // A Thing going OFFLINE is a ThingStatusInfoChangedEvent out.
                let c = try TwinClient(port: port)
                #expect(try c.send("POST", "/twin/faults", body: #"{"thing": {"thing": "kiez/heating", "status": "OFFLINE"}}"#).status == 200)
                var types: [String] = []
                while !types.contains("ThingStatusInfoChangedEvent"), let text = try ws.readText() {
                    types.append(Self.json(text)["type"] as? String ?? "")
                }
                #expect(types.contains("ThingStatusInfoChangedEvent"))
            }
        }
    }

    /// Apart from the exchange above, so that a slow machine cannot run into the short idle timeout mid-exchange.
    @Test func silencePastTheIdleTimeoutCloses1001() async throws {
        try await withTwin(webSocketLimits: WebSocketLimits(idleTimeout: .seconds(1))) { server in
            let port = server.port
            try await blocking {
                let ws = try WebSocketTestClient(port: port, path: "/ws?accessToken=\(adminToken)")
                #expect(ws.handshake?.status == 101)
                // Silence in both directions past the idle timeout: 1001.
                #expect(try ws.readCloseCode() == 1001)
            }
        }
    }

    @Test func stoppingTheServerClosesWebSocketsWith1001() async throws {
        try await withTwin { server in
            let port = server.port
            let code = try await blocking { () -> UInt16? in
                let open = try WebSocketTestClient(port: port, path: "/ws")
                #expect(open.handshake?.status == 101)
                server.stop()
                return try open.readCloseCode()
            }
            #expect(code == 1001)
        }
    }

    @Test func aReaderThatNeverReadsIsDroppedAndTheSimulationGoesOn() async throws {
        let limits = HTTPServerLimits(writeTimeout: .milliseconds(500))
        // How many days it takes until the client is dropped depends on the socket buffers and on how busy
        // the machine is, so advance a day at a time until it happens — at most 10 days (about 11,000
        // events), the furthest one advance may go past example 07's end.
        try await withTwin(limits: limits, eventBufferLimit: 8) { server in
            let port = server.port
            try await blocking {
                let idle = try WebSocketTestClient(port: port, path: "/ws")
                #expect(idle.handshake?.status == 101)
                var size: Int32 = 4_096
                setsockopt(idle.raw.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
                let c = try TwinClient(port: port)
                var days = 0
                while days < 10, server.counters.slowClientsDropped == 0 {
                    #expect(try c.send("POST", "/twin/advance", body: "P1D").status == 200)
                    days += 1
                }
                // The simulation went on while the reader did not: the clock is where the advances took it.
                #expect(try c.send("GET", "/twin/clock").text.contains(#""local":"2026-11-\#(20 + days)T00:00""#))
            }
            #expect(server.counters.slowClientsDropped >= 1)
        }
    }
}
