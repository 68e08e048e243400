import Synchronization
import Testing
@testable import SmartHome

/// The bus's bookkeeping when nobody or somebody listens, and the runtime's state routing.
@Suite struct EventBusTests {
    /// A runtime with the fake thermostat linked to three Items, built without any subscriber.
    static func world() async throws -> (OpenHABRuntime, FakeThermostat) {
        let runtime = OpenHABRuntime()
        let device = FakeThermostat(uid: try ThingUID("twin:thermostat:flat-1:heating"))
        try await runtime.addThing(await device.thing, handler: device)
        for (id, type) in [("switch", ItemType.switchItem), ("setpoint", .numberItem(.temperature)), ("temperature", .numberItem(.temperature))] {
            let name = try ItemName("flat_1_heating_\(id)")
            await runtime.putItem(Item(name: name, type: type))
            try await runtime.link(ItemChannelLink(itemName: name, channelUID: try ChannelUID(thing: device.uid, id: id)))
        }
        return (runtime, device)
    }

    /// Commands, reports, a direct update and an OFFLINE/ONLINE round trip.
    static func script(_ runtime: OpenHABRuntime, _ device: FakeThermostat) async throws {
        try await runtime.sendCommand(.onOff(.on), to: try ItemName("flat_1_heating_switch"))
        try await runtime.sendCommand(.decimal(DecimalNumber(40)), to: try ItemName("flat_1_heating_setpoint"))
        await device.reportTemperature(20.04)
        await device.reportTemperature(20.01)  // same text: a state event, no statechanged
        try await runtime.postUpdate(.onOff(.off), to: try ItemName("flat_1_heating_switch"))
        await device.setOnline(false)
        await device.setOnline(true)
    }

    @Test func withoutSubscribersEventsAreCountedAndStatesAreTheSame() async throws {
        let (quiet, quietDevice) = try await Self.world()
        let (heard, heardDevice) = try await Self.world()
        let log = EventLog()
        #expect(await quiet.events.publishedCount == (await heard.events.publishedCount))
        let before = await heard.events.publishedCount
        await heard.events.subscribe { log.add($0) }
        try await Self.script(quiet, quietDevice)
        try await Self.script(heard, heardDevice)

        #expect(await quiet.items.all() == (await heard.items.all()))
        #expect(await quiet.things.all() == (await heard.things.all()))
        #expect(await quiet.events.publishedCount == (await heard.events.publishedCount))
        #expect(await heard.events.publishedCount - before == log.all.count)
        // ON: command, autoupdate state+changed, report state; 40: command, state+changed, report 30 state+changed;
        // 20.0 °C: state+changed, then state only; postUpdate OFF: state+changed; OFFLINE, ONLINE.
        let expected = 4 + 5 + 3 + 2 + 2
        #expect(log.all.count == expected)
    }

    @Test func aSubscriberAddedWhileAStateEventIsDeliveredHearsTheStateChangedEventThatFollows() async throws {
        let (runtime, device) = try await Self.world()
        let late = EventLog()
        let added = Mutex(false)
        let bus = runtime.events
        await bus.subscribe(EventFilter(topics: ["openhab/items/*/state"])) { _ in
            guard added.withLock({ let first = !$0; $0 = true; return first }) else { return }
            await bus.subscribe { late.add($0) }
        }
        await device.reportTemperature(23.4)
        #expect(late.all == [#"openhab/items/flat_1_heating_temperature/statechanged {"type":"Quantity","value":"23.4 °C","oldType":"Quantity","oldValue":"19.5 °C"}"#])
    }
}
