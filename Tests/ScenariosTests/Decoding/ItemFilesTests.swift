import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import SmartHome
import Testing
@_spi(TwinParts) import Twin

/// `itemFiles` and `itemBindings`: the user's `.items` files loaded, checked and bound to the twin's devices.
@Suite("Scenario .items files and bindings")
struct ItemFilesTests {
    struct Setup {
        var files: [String: [UInt8]] = [:]
        var itemFiles = #"["home.items"]"#
        var bindings = "{}"
        var items = "[]"
        var rules = "[]"
        var persistence: String? = nil
        var timeline = ""
        var expect = ""

        mutating func file(_ name: String, _ text: String) { files[name] = Array(text.utf8) }

        func text() -> String {
            """
            {
              "version": 1, "name": "Items", "seed": 1, "timeZone": "Europe/Budapest",
              "start": "2026-01-09T00:00", "end": "2026-01-10T00:00",
              "weather": { "Budapest": { "constantC": -2 } },
              "users": [ { "id": "host", "name": "Hanna Host" } ],
              "listings": [ {
                "id": "flat-1", "owner": "host", "name": "Flat", "city": "Budapest", "country": "Hungary", "capacity": 3,
                "thermal": { "uaWPerK": 80, "capacitanceKWhPerK": 2.3, "initialC": 16 },
                "devices": [ { "id": "heating", "type": "heating", "powerW": 2000, "setpointC": 21 }, { "id": "door", "type": "lock" } ]
              } ],
              "items": \(items),
              "itemFiles": \(itemFiles),
              "itemBindings": \(bindings),
              "rules": \(rules),\(persistence.map { "\n  \"persistence\": \($0)," } ?? "")
              "timeline": [\(timeline)],
              "expect": [\(expect)]
            }
            """
        }

        func load() throws(ScenarioError) -> Scenario {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("items-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: directory) } // everything is read while decoding
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (name, bytes) in files {
                _ = FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data(bytes))
            }
            let path = "\(directory)/scenario.json"
            _ = FileManager.default.createFile(atPath: path, contents: Data(text().utf8))
            return try ScenarioDecoder.load(path: path)
        }

        func problems() -> [String] {
            do {
                _ = try load()
                return []
            } catch {
                return error.issues.map(\.description)
            }
        }
    }

    @Test func boundAndLinkedItemsDriveTheDevicesAndUnboundOnesAreVirtual() async throws {
        var s = Setup()
        s.file("home.items", """
            Group:Switch:OR(ON,OFF) gHeat "Any heat"
            Switch Heat "Heating" (gHeat) { channel="twin:thermostat:flat-1:heating:switch" }
            Number:Temperature Bath_Setpoint "Bath [%.1f °C]"
            Number:Temperature Room "Room [%.1f °C]"
            Switch Helper
            """)
        s.bindings = #"{ "Bath_Setpoint": "flat-1/heating/setpoint", "Room": "flat-1/heating/temperature" }"#
        s.timeline = """
            { "at": "2026-01-09T08:00", "command": { "item": "Heat", "value": "ON" } },
            { "at": "2026-01-09T08:00", "command": { "item": "Bath_Setpoint", "value": "24" } },
            { "at": "2026-01-09T08:00", "command": { "item": "Helper", "value": "ON" } }
            """
        s.expect = """
            { "at": "2026-01-09T07:00", "item": "Bath_Setpoint", "state": "21 °C" },
            { "at": "2026-01-09T07:00", "item": "gHeat", "state": "OFF" },
            { "at": "2026-01-09T08:00", "item": "flat-1/heating/switch", "state": "ON" },
            { "at": "2026-01-09T08:00", "item": "flat-1/heating/setpoint", "state": "24 °C" },
            { "at": "2026-01-09T08:00", "item": "gHeat", "state": "ON" },
            { "at": "2026-01-09T08:00", "item": "Helper", "state": "ON" },
            { "at": "2026-01-09T20:00", "item": "Room", "between": [15, 16] },
            { "at": "2026-01-09T20:00", "item": "flat-1/heating/temperature", "between": [15, 16] }
            """
        let result = try await ScenarioRunner.run(try s.load())
        #expect(result.failures.isEmpty, "\(result.failures)")
    }

    @Test func aRuleFileRunsAgainstTheFilesItems() async throws {
        var s = Setup()
        s.file("home.items", "Switch Guest_Present\nNumber:Temperature Target { channel=\"twin:thermostat:flat-1:heating:setpoint\" }\n")
        s.file("a.rules", """
            rule "arrive"
            when
                Item Guest_Present changed to ON
            then
                Target.sendCommand(23)
            end
            """)
        s.rules = #"["a.rules"]"#
        s.timeline = #"{ "at": "2026-01-09T10:00", "update": { "item": "Guest_Present", "state": "ON" } }"#
        s.expect = #"{ "at": "2026-01-09T10:00", "item": "flat-1/heating/setpoint", "state": "23 °C" }"#
        let result = try await ScenarioRunner.run(try s.load())
        #expect(result.failures.isEmpty, "\(result.failures)")
        // Without the .items file the rule names an Item that does not exist.
        s.itemFiles = "[]"
        #expect(s.problems().contains { $0.contains("Guest_Present") })
    }

    /// openHAB loads what it only warns about: an Item declared in two files (its ItemRegistry keeps the first)
    /// and a state pattern whose unit it does not know (display only). The twin loads them too, and says so.
    @Test func whatOpenHABOnlyWarnsAboutLoadsWithALocatedNotice() throws {
        var s = Setup()
        s.file("home.items", "Switch Porch \"Porch light\"\nNumber:Power Price \"Price [%.2f ct/kWh]\"\n")
        s.file("more.items", "Switch Other\nSwitch Porch \"Porch again\"\n")
        s.itemFiles = #"["home.items", "more.items"]"#
        let scenario = try s.load()
        #expect(scenario.items.filter { $0.name == "Porch" }.map(\.label) == ["Porch light"])
        #expect(scenario.items.contains { $0.name == "Other" } && scenario.items.contains { $0.name == "Price" })
        #expect(scenario.notices.count == 2, "\(scenario.notices)")
        #expect(scenario.notices.contains { $0.contains("home.items:2: column 1: items.unknownUnit") && $0.contains("ct/kWh") })
        #expect(scenario.notices.contains { $0.contains("more.items:2: column 1: items.duplicate") && $0.contains("openHAB keeps the first") })
        // The scenario's own "items" are the scenario's: a file declaring one of them again is still refused.
        s.items = #"[{ "name": "Porch", "type": "Switch" }]"#
        #expect(s.problems().contains { $0.contains("home.items:1: column 1: items.duplicate") })
    }

    @Test func everyProblemIsLocatedInItsFile() {
        var s = Setup()
        s.file("home.items", "Swtich A\nNumber:Volumen B\nSwitch C (gNope)\nSwitch Flat\n")
        s.file("more.items", "Switch Flat\n")
        s.itemFiles = #"["home.items", "more.items", "missing.items", "notes.txt"]"#
        let problems = s.problems()
        #expect(problems.contains { $0.contains("home.items:1: column 1: items.unknownType") && $0.contains("did you mean \"Switch\"?") })
        #expect(problems.contains { $0.contains("home.items:2: column 8: items.unknownDimension") && $0.contains("Volume") })
        #expect(!problems.contains { $0.contains("home.items:3") }, "a Group no file declares is ignored, as openHAB does")
        #expect(!problems.contains { $0.contains("more.items") }, "an Item declared again in another file is a notice, as openHAB warns")
        #expect(problems.contains { $0.contains("missing.items") && $0.contains("no such file") })
        #expect(problems.contains { $0.contains("notes.txt") && $0.contains("not an .items file") })
    }

    @Test func bindingsAreChecked() {
        var s = Setup()
        s.file("home.items", """
            Switch Lamp
            Number:Power Wrong
            Group gG
            Number:Temperature T { channel="twin:thermostat:flat-1:heating:setpiont" }
            """)
        s.bindings = #"{ "Lamp": "flat-1/heating/switch", "Nope": "flat-1/heating/switch", "Wrong": "flat-1/heating/setpoint", "gG": "flat-1/door/lock", "T": "flat-1/heating/swich" }"#
        let problems = s.problems()
        #expect(!problems.contains { $0.contains("itemBindings.Lamp") }, "\(problems)")
        #expect(problems.contains { $0.contains("itemBindings.Nope") })
        #expect(problems.contains { $0.contains("itemBindings.Wrong") && $0.contains("Temperature") })
        #expect(problems.contains { $0.contains("itemBindings.gG") && $0.contains("Group") })
        #expect(problems.contains { $0.contains("itemBindings.T") && $0.contains("did you mean \"flat-1/heating/switch\"") })
        #expect(problems.contains { $0.contains("home.items:4: column 24: items.unknownChannel") && $0.contains("did you mean \"twin:thermostat:flat-1:heating:setpoint\"") })
    }

    @Test func aFileItemMayNotTakeADevicesNameOrAnItemsName() {
        var s = Setup()
        s.file("home.items", "Switch Helper\n")
        s.items = #"[{ "name": "Helper", "type": "Switch" }]"#
        #expect(s.problems().contains { $0.contains("home.items:1: column 1: items.duplicate") && $0.contains("Helper") })
        s.items = "[]"
        s.file("home.items", "Switch flat_1_heating_switch\n")
        let problems = s.problems()
        #expect(problems.contains { $0.contains("home.items:1: column 1: items.duplicate") && $0.contains("flat_1_heating_switch") }, "\(problems)")
    }

    @Test func invalidUTF8AndNULAreLocatedErrors() {
        var s = Setup()
        s.files["home.items"] = Array("Switch A\nSwitch B \"x".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        #expect(s.problems().contains { $0.contains("home.items:2: column 12: items.encoding") }, "\(s.problems())")
        s.files["home.items"] = Array("Switch A\u{0}\n".utf8)
        #expect(s.problems().contains { $0.contains("home.items:1: column 9: items.syntax") && $0.contains("NUL") })
    }

    @Test func persistenceRecordsTheChosenItemsOnTheVirtualClock() async throws {
        var s = Setup()
        s.file("home.items", """
            Group gHeat
            Switch Heat (gHeat) { channel="twin:thermostat:flat-1:heating:switch" }
            Number:Temperature Room (gHeat) { channel="twin:thermostat:flat-1:heating:temperature" }
            Switch Other
            """)
        s.persistence = #"{ "items": ["gHeat*"], "strategy": "everyChange" }"#
        let scenario = try s.load()
        let world = try await World.build(scenario)
        try await world.kernel.run(until: scenario.start + .hours(8))
        _ = try await world.api.sendCommand("Heat", "ON")
        try await world.kernel.run(until: scenario.start + .hours(12))
        _ = try await world.api.sendCommand("Heat", "OFF")
        _ = try await world.api.sendCommand("Other", "ON")
        try await world.kernel.run(until: scenario.start + .hours(14))
        let store = world.persistence
        let heat = try ItemName("Heat"), room = try ItemName("Room")
        #expect(store.entries(heat).map(\.state.description) == ["ON", "OFF"])
        #expect(store.entries(heat).map(\.instant) == [scenario.start + .hours(8), scenario.start + .hours(12)])
        #expect(store.entries(room).count > 10)  // every 0.1 K the thermostat reports
        #expect(store.entries(try ItemName("Other")).isEmpty)
        let item = try #require(world.runtime.items.current(heat))
        let q = PersistenceQueries(store: store, now: world.kernel.now)
        #expect(q.averageSince(item, scenario.start + .hours(8))?.numericValue.map { abs($0 - 4.0 / 6) < 1e-12 } == true)
        #expect(q.changedSince(item, scenario.start + .hours(13)) == false)
        await world.close()
        // A selector that names nothing is refused.
        s.persistence = #"{ "items": ["gNope*", "Nobody"] }"#
        let problems = s.problems()
        #expect(problems.contains { $0.contains("persistence.items[0]") } && problems.contains { $0.contains("persistence.items[1]") }, "\(problems)")
    }
}
