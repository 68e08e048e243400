import SocketTestSupport
import Foundation
import HTTPServer
import Serve
import Testing

/// openhab-core's PersistenceResource on the twin's persistence store: the service list and an Item's
/// history (`ItemHistoryDTO`) with openHAB's defaults, paging, boundary and binary-state replication.
@Suite("serve: REST persistence")
struct ServePersistenceTests {
    /// Epoch milliseconds of an ISO instant with its offset.
    static func millis(_ iso: String) -> Int {
        Int((ISO8601DateFormatter().date(from: iso)?.timeIntervalSince1970 ?? 0) * 1_000)
    }

    static func data(_ response: RawResponse) -> [(time: Int, state: String)] {
        ((jsonObject(response)["data"] as? [[String: Any]]) ?? []).map { ($0["time"] as? Int ?? -1, $0["state"] as? String ?? "?") }
    }

    /// With an openhabConf's `.persist` files, each is a service: listed, and `serviceId` reads its store (mapdb: the last state).
    @Test func theServicesOfPersistFilesAreListedAndQueriedByID() async throws {
        try await withTwin("conf-01-mqtt-home.json") { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                let services = try c.send("GET", "/rest/persistence", headers: admin)
                #expect(services.text == #"[{"id":"mapdb","label":"mapdb","type":"Modifiable"},{"id":"rrd4j","label":"rrd4j","type":"Modifiable"}]"#)
                #expect(try c.send("POST", "/twin/advance", body: "PT21H").status == 200)
                let query = "/rest/persistence/items/Hall_Temperature?starttime=2026-01-09T00:00:00.000%2B01:00&serviceId="
                // rrd4j: 18 at 07:00 and 20.5 at 09:00 (18.05 at 07:30 is under the 0.1 °C threshold filter; the hourly
                // cron adds nothing the filter takes, and no NULL).
                #expect(Self.data(try c.send("GET", query + "rrd4j")).map(\.state) == ["18", "20.5"])
                #expect(Self.data(try c.send("GET", query + "mapdb")).map(\.state) == ["20.5"])
                #expect(try c.send("GET", query + "influxdb").status == 400)
            }
        }
    }

    @Test func theServiceAndAnItemsHistoryAnswerAsOpenHAB() async throws {
        try await withTwin("dsl-persistence-01-door-temperature.json") { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                #expect(try c.send("GET", "/rest/persistence").status == 401)
                let services = try c.send("GET", "/rest/persistence", headers: admin)
                #expect(services.status == 200)
                #expect(services.text == #"[{"id":"twin","label":"Rental twin persistence","type":"Modifiable"}]"#)
                #expect(try c.send("POST", "/twin/advance", body: "PT10H").status == 200)
                // FrontDoor opened at 08:00 and closed at 08:02 (local, UTC+1): the CLOSED point is preceded by OPEN at its instant.
                let open = Self.millis("2026-01-09T08:00:00+01:00"), closed = Self.millis("2026-01-09T08:02:00+01:00")
                let door = try c.send("GET", "/rest/persistence/items/FrontDoor?starttime=2026-01-09T07:30:00.000%2B01:00&endtime=2026-01-09T09:00")
                #expect(door.status == 200)
                #expect(jsonObject(door)["name"] as? String == "FrontDoor")
                let points = Self.data(door)
                #expect(points.map(\.state) == ["OPEN", "OPEN", "CLOSED"], "\(door.text)")
                #expect(points.map(\.time) == [open, closed, closed], "\(door.text)")
                #expect(jsonObject(door)["datapoints"] as? String == "3")
                // Defaults: endtime now (10:00), starttime a local day before; ascending.
                let whole = Self.data(try c.send("GET", "/rest/persistence/items/FrontDoor"))
                #expect(whole.contains { $0.time == open && $0.state == "OPEN" } && whole.contains { $0.time == closed && $0.state == "CLOSED" })
                #expect(whole.allSatisfy { $0.time <= Self.millis("2026-01-09T10:00:00+01:00") && $0.time >= Self.millis("2026-01-08T10:00:00+01:00") })
                #expect(whole.map(\.time) == whole.map(\.time).sorted())
                let later = Self.data(try c.send("GET", "/rest/persistence/items/FrontDoor?endtime=2026-01-09T08:01"))
                #expect(later.last?.state == "OPEN" && later.allSatisfy { $0.time <= open + 60_000 }, "\(later)")
                // Paging (of the stored states, before replication): the second page of one is CLOSED after OPEN.
                let second = Self.data(try c.send("GET", "/rest/persistence/items/FrontDoor?starttime=2026-01-09T07:30&page=1&pagelength=1"))
                #expect(second.map(\.state) == ["CLOSED"], "\(second)")
                // Boundary: the state before the window at its start.
                let bounded = Self.data(try c.send("GET", "/rest/persistence/items/FrontDoor?starttime=2026-01-09T08:30&endtime=2026-01-09T09:30&boundary=true"))
                #expect(bounded.first?.state == "CLOSED" && bounded.first?.time == Self.millis("2026-01-09T08:30:00+01:00"), "\(bounded)")
                // A quantity loses its unit, as ItemHistoryDTO writes it.
                let temps = Self.data(try c.send("GET", "/rest/persistence/items/Room_Temp"))
                #expect(temps.allSatisfy { Double($0.state) != nil }, "\(temps)")
                // An unknown service, a bad time.
                let unknown = try c.send("GET", "/rest/persistence/items/FrontDoor?serviceId=nosuch")
                #expect(unknown.status == 400)
                #expect((jsonObject(unknown)["error"] as? [String: Any])?["message"] as? String == "Persistence service not queryable: nosuch")
                #expect(try c.send("GET", "/rest/persistence/items/FrontDoor?serviceId=rrd4j").status == 200)
                #expect(try c.send("GET", "/rest/persistence/items/FrontDoor?starttime=yesterday").status == 400)
                #expect(try c.send("GET", "/rest/persistence/items/FrontDoor?pagelength=-1").status == 400)
                // An Item nothing stored: no data points.
                let none = try c.send("GET", "/rest/persistence/items/Summary")
                #expect(none.status == 200 && jsonObject(none)["datapoints"] as? String == "0")
            }
        }
    }
}

/// A client fires a trigger channel's event through /twin/faults, as a scenario's "trigger" step does.
@Suite("serve: channel triggers")
struct ServeChannelTriggerTests {
    @Test func aTriggerFromTheClientRunsTheRulesThatListen() async throws {
        try await withTwin("19-openhab-transforms-sun-outbox.json") { server in
            let port = server.port
            try await blocking {
                let c = try TwinClient(port: port)
                #expect(try c.send("GET", "/rest/items/Hall_Light/state").text == "NULL")
                // The sunset's END event: no rule listens (the control).
                let end = try c.send("POST", "/twin/faults", body: #"{"trigger": {"channel": "astro:sun:home:set#event", "event": "END"}}"#)
                #expect(end.status == 200, "\(end.text)")
                #expect(try c.send("POST", "/twin/advance", body: "PT1M").status == 200)
                #expect(try c.send("GET", "/rest/items/Hall_Light/state").text == "NULL")
                let start = try c.send("POST", "/twin/faults", body: #"{"trigger": {"channel": "astro:sun:home:set#event", "event": "START"}}"#)
                #expect(start.status == 200, "\(start.text)")
                #expect(try c.send("POST", "/twin/advance", body: "PT1M").status == 200)
                #expect(try c.send("GET", "/rest/items/Hall_Light/state").text == "40")
                let bad = try c.send("POST", "/twin/faults", body: #"{"trigger": {"channel": "astro:sun", "event": "START"}}"#)
                #expect(bad.status == 400 && bad.text.contains("is not a channel UID"), "\(bad.text)")
            }
        }
    }
}
