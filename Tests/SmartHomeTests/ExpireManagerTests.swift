import Simulation
import Testing
@testable import SmartHome

@Suite("expire metadata (ExpireManager)")
struct ExpireManagerTests {
    typealias Config = ExpireManager.Config

    @Test("durations as DurationUtils reads them", arguments: [
        ("1h", 3_600_000), ("15m", 900_000), ("30s", 30_000), ("1d 1h 30s", 90_030_000), ("1 hr 15 mins", 4_500_000),
        ("2hours 1minute", 7_260_000), ("500ms", 500), ("1m500ms", 60_500), ("PT10M", 600_000), ("1H", 3_600_000),
    ] as [(String, Int64)])
    func durations(_ text: String, _ ms: Int64) {
        #expect(Config.parseDuration(text)?.milliseconds == ms)
    }

    @Test("bad durations", arguments: ["", "10", "m10", "1s 1h", "10 parsecs", "1x"])
    func badDurations(_ text: String) {
        #expect(Config.parseDuration(text) == nil)
    }

    @Test func statesCommandsAndKeys() throws {
        let undef = try Config.parse(ItemMetadata(value: "10m"), type: .switchItem).get()
        #expect(undef.state == .undef && undef.command == nil && undef.duration == .minutes(10))
        #expect(try Config.parse(ItemMetadata(value: "10m,OFF"), type: .switchItem).get().state == .onOff(.off))
        #expect(try Config.parse(ItemMetadata(value: "10m,state=OFF"), type: .switchItem).get().state == .onOff(.off))
        #expect(try Config.parse(ItemMetadata(value: "10m,command=OFF"), type: .switchItem).get().command == .onOff(.off))
        #expect(try Config.parse(ItemMetadata(value: "", config: ["duration": "5m", "command": "OFF"]), type: .switchItem).get().command == .onOff(.off))
        #expect(try Config.parse(ItemMetadata(value: "1h,'UNDEF'"), type: .stringItem).get().state == .string("UNDEF"))
        #expect(try Config.parse(ItemMetadata(value: "1h", config: ["ignoreStateUpdates": "true"]), type: .switchItem).get().ignoreStateUpdates)
        // What ExpireConfig refuses.
        for bad in [ItemMetadata(value: "10m,command=OPEN"), ItemMetadata(value: "10m,OPEN"), ItemMetadata(value: "soon"),
                    ItemMetadata(value: "10m", config: ["duration": "5m"]), ItemMetadata(value: "10m", config: ["bogus": "1"]),
                    ItemMetadata(value: "10m", config: ["command": "ON", "state": "OFF"])] {
            guard case .failure = Config.parse(bad, type: .switchItem) else {
                Issue.record("\(bad) should be refused")
                continue
            }
        }
    }

    @Test func anItemExpiresAfterItsLastUpdateAndTheExpiryStateStopsTheTimer() async throws {
        let world = try await TestWorld()
        var motion = Item(name: try ItemName("Motion"), type: .switchItem)
        motion.metadata["expire"] = ItemMetadata(value: "5m,state=OFF")
        var heater = Item(name: try ItemName("Boost"), type: .switchItem)
        heater.metadata["expire"] = ItemMetadata(value: "10m,command=OFF")
        await world.runtime.putItem(motion)
        await world.runtime.putItem(heater)
        ExpireManager(runtime: world.runtime, items: [motion, heater]).start()
        _ = try await world.api.updateState("Motion", "ON")
        try await world.advance(.minutes(4))
        _ = try await world.api.updateState("Motion", "ON")  // restarts the 5 minutes
        try await world.advance(.minutes(4))
        #expect(try await world.state("Motion") == "ON")
        try await world.advance(.minutes(1) + .seconds(1))
        #expect(try await world.state("Motion") == "OFF")
        _ = try await world.api.sendCommand("Boost", "ON")
        try await world.clearEvents()
        try await world.advance(.minutes(10) + .seconds(1))
        #expect(try await world.state("Boost") == "OFF")
        // Expired by a command (it went through the bus, as ExpireManager posts it).
        #expect(try await world.events().contains { $0.hasPrefix("openhab/items/Boost/command") && $0.contains("OFF") })
        // OFF is the expiry command itself: no timer, no further command.
        try await world.clearEvents()
        try await world.advance(.minutes(30))
        #expect(try await world.events().filter { $0.hasPrefix("openhab/items/Boost/command") }.isEmpty)
    }
}
