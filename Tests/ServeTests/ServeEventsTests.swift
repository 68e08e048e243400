import SocketTestSupport
import Foundation
import HTTPServer
@testable import Serve
import Testing
@_spi(TwinParts) import Twin

/// An SSE client: the head, then frames (`event: …` / `data: …`) as they come.
final class EventClient {
    let raw: RawClient
    private var pending = ""

    /// `path`: `/rest/events` (openHAB's event stream) or `/rest/events/states` (Main UI's state tracker).
    init(port: Int, path: String = "/rest/events", topics: String?, headers: [String: String] = [:]) throws {
        raw = try RawClient(port: port)
        let target = path + (topics.map { "?topics=\($0)" } ?? "")
        try raw.send(TwinClient.request("GET", target, port: port, headers: headers))
    }

    func head() throws -> RawResponse? { try raw.readHead() }

    /// The next frame without its `alive` events; nil when the stream ended.
    func nextMessage() throws -> (event: String, data: String)? {
        while true {
            while pending.range(of: "\n\n") == nil {
                guard let chunk = try raw.readChunk() else { return nil }
                pending += String(decoding: chunk, as: UTF8.self)
            }
            guard let end = pending.range(of: "\n\n") else { return nil }
            let frame = String(pending[..<end.lowerBound])
            pending = String(pending[end.upperBound...])
            var event = "", data = ""
            for line in frame.split(separator: "\n") {
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            if event != "alive" { return (event, data) }
        }
    }
}

@Suite("serve: Server-Sent Events")
struct ServeEventsTests {
    @Test func aThermostatsStateChangesArriveInOrderWithOpenHABsFraming() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let events = try EventClient(port: port, topics: "openhab/items/kiez_heating_*/statechanged")
                let head = try #require(try events.head())
                #expect(head.status == 200 && head.headers["Content-Type"] == "text/event-stream")
                let c = try TwinClient(port: port)
                #expect(try c.send("POST", "/rest/items/kiez_heating_setpoint", body: "23").status == 200)
                #expect(try c.send("POST", "/twin/advance", body: "PT6H").status == 200)
                #expect(try c.send("POST", "/rest/items/kiez_heating_setpoint", body: "19").status == 200)
                #expect(try c.send("POST", "/twin/advance", body: "PT1H").status == 200)
                var last: [String: String] = [:]  // topic → value
                var setpoints: [String] = []
                for _ in 0..<5_000 {
                    guard let message = try events.nextMessage() else { break }
                    #expect(message.event == "message")
                    let data = try #require(try JSONSerialization.jsonObject(with: Data(message.data.utf8)) as? [String: String])
                    let topic = try #require(data["topic"])
                    #expect(topic.hasPrefix("openhab/items/kiez_heating_") && topic.hasSuffix("/statechanged"))
                    #expect(data["type"] == "ItemStateChangedEvent")
                    let payload = try #require(try JSONSerialization.jsonObject(with: Data((data["payload"] ?? "").utf8)) as? [String: String])
                    // In bus order: every change starts from the value the previous one left.
                    if let previous = last[topic] { #expect(payload["oldValue"] == previous) }
                    last[topic] = payload["value"]
                    if topic == "openhab/items/kiez_heating_setpoint/statechanged" { setpoints.append(payload["value"] ?? "") }
                    if setpoints == ["23 °C", "19 °C"] { break }
                }
                #expect(setpoints == ["23 °C", "19 °C"])
                #expect(last["openhab/items/kiez_heating_temperature/statechanged"] != nil)
            }
        }
    }

    @Test func aBadTokenOrFilterIsRefusedAndAnonymousClientsMayListen() async throws {
        try await withTwin { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                #expect(try c.send("GET", "/rest/events?topics=openhab/items/(x)").status == 400)
                #expect(try c.send("GET", "/rest/events", headers: ["X-OPENHAB-TOKEN": "wrong"]).status == 401)
                #expect(try c.send("POST", "/rest/events").status == 405)
                let bearer = try EventClient(port: port, topics: nil, headers: ["Authorization": "Bearer \(adminToken)"])
                #expect(try bearer.head()?.status == 200)
            }
        }
    }

    @Test func aStreamNobodyReadsKeepsItsBufferAndEndsWhileTheSimulationGoesOn() async throws {
        try await withTwin { server in
            let world = server.live.world
            let counters = ServeCounters()
            let stream = await EventStream.open(bus: world.eventBus, world: world, filter: try SSETopicFilter("openhab/*"),
                                                bufferLimit: 4, aliveInterval: .seconds(3_600), counters: counters)
            try await world.kernel.advance(by: .days(1))  // hundreds of events; the stream is not read meanwhile
            var frames: [String] = []
            for await frame in stream { frames.append(String(decoding: frame, as: UTF8.self)) }
            #expect(frames.count == 4 && frames.allSatisfy { $0.hasPrefix("event: message\ndata: {\"topic\":\"openhab/") })
            #expect(counters.slowClientsDropped == 1 && counters.eventsStreamed == 4)
        }
    }

    @Test func aSocketClientThatNeverReadsDoesNotStallTheSimulation() async throws {
        try await withTwin(eventBufferLimit: 4) { server in
            let port = server.port
            try await blocking {
                let events = try EventClient(port: port, topics: "openhab/*")
                #expect(try events.head()?.status == 200)
                let c = try TwinClient(port: port)
                for _ in 0..<5 { #expect(try c.send("POST", "/twin/advance", body: "P1D").status == 200) }
                #expect(try c.send("GET", "/twin/clock").text.contains("\"local\":\"2026-11-25T00:00\""))
            }
        }
    }
}
