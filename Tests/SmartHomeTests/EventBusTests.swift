import Simulation
import Synchronization
import Testing
@testable import SmartHome

/// The bus's bookkeeping when nobody or somebody listens, and the runtime's state routing.
@Suite struct EventBusTests {
    /// A runtime with the fake thermostat linked to three Items, built without any subscriber.
    static func world() async throws -> (OpenHABRuntime, FakeThermostat, SimulationKernel) {
        let kernel = SimulationKernel(start: .epoch)
        let runtime = OpenHABRuntime(scheduler: kernel)
        let device = FakeThermostat(uid: try ThingUID("twin:thermostat:flat-1:heating"))
        try await runtime.addThing(await device.thing, handler: device)
        for (id, type) in [("switch", ItemType.switchItem), ("setpoint", .numberItem(.temperature)), ("temperature", .numberItem(.temperature))] {
            let name = try ItemName("flat_1_heating_\(id)")
            await runtime.putItem(Item(name: name, type: type))
            try await runtime.link(ItemChannelLink(itemName: name, channelUID: try ChannelUID(thing: device.uid, id: id)))
        }
        return (runtime, device, kernel)
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
        let (quiet, quietDevice, quietKernel) = try await Self.world()
        let (heard, heardDevice, heardKernel) = try await Self.world()
        let log = EventLog()
        #expect(quiet.events.publishedCount == (heard.events.publishedCount))
        let before = heard.events.publishedCount
        heard.events.subscribe { log.add($0) }
        try await Self.script(quiet, quietDevice)
        try await Self.script(heard, heardDevice)
        try await quietKernel.run(until: quietKernel.now)
        #expect(log.all.isEmpty)  // delivered after the calls, when the simulation runs
        try await heardKernel.run(until: heardKernel.now)
        #expect(quietKernel.eventsProcessed == 0)

        #expect(await quiet.items.all() == (await heard.items.all()))
        #expect(await quiet.things.all() == (await heard.things.all()))
        #expect(quiet.events.publishedCount == (heard.events.publishedCount))
        #expect(heard.events.publishedCount - before == log.all.count)
        // ON: command, predicted, autoupdate state+updated+changed, report state+updated; 40: command,
        // predicted, state+updated+changed, report 30 state+updated+changed; 20 °C: state+updated+changed,
        // then state+updated only; postUpdate OFF: state+updated+changed; OFFLINE, ONLINE: status+statuschanged each.
        let expected = 7 + 8 + 5 + 3 + 4
        #expect(log.all.count == expected)
    }

    @Test func aSubscriberNamingOneItemHearsItsEventsAndTheOthersAreCountedAsIfHeard() async throws {
        let (named, namedDevice, namedKernel) = try await Self.world()
        let (heard, heardDevice, heardKernel) = try await Self.world()
        let temperatureChanges = EventLog(), all = EventLog()
        named.events.subscribe(EventFilter(topics: ["openhab/items/flat_1_heating_temperature/statechanged"])) { temperatureChanges.add($0) }
        heard.events.subscribe { all.add($0) }
        try await Self.script(named, namedDevice)
        try await Self.script(heard, heardDevice)
        try await namedKernel.run(until: namedKernel.now)
        try await heardKernel.run(until: heardKernel.now)
        // The switch's and setpoint's Item events are not built for nobody; they are counted all the same.
        #expect(named.events.publishedCount == heard.events.publishedCount)
        #expect(await named.items.all() == (await heard.items.all()))
        let expected = all.all.filter { $0.hasPrefix("openhab/items/flat_1_heating_temperature/statechanged ") }
        #expect(!expected.isEmpty && temperatureChanges.all == expected)
        let heatingSwitch = try ItemName("flat_1_heating_switch"), temperature = try ItemName("flat_1_heating_temperature")
        #expect(!named.events.mayHear(about: heatingSwitch) && named.events.mayHear(about: temperature))
        #expect(heard.events.mayHear(about: heatingSwitch))
    }

    /// A callback that only has the required methods, so batches go through the default implementation.
    struct PerUpdateCallback: ThingHandlerCallback {
        let runtime: OpenHABRuntime
        func stateUpdated(_ channel: ChannelUID, state: State) async { await runtime.stateUpdated(channel, state: state) }
        func statusUpdated(_ thing: ThingUID, status: ThingStatusInfo) async { await runtime.statusUpdated(thing, status: status) }
    }

    static let batches: [[(id: String, state: State)]] = [
        [("temperature", .quantity(Quantity(DecimalNumber(20.5, fractionDigits: 1), .celsius))),
         ("switch", .onOff(.on)), ("setpoint", .decimal(DecimalNumber(22)))],
        // Unchanged temperature (a state event only), a second Item on the switch channel, an unlinked-type state.
        [("temperature", .quantity(Quantity(DecimalNumber(20.5, fractionDigits: 1), .celsius))),
         ("switch", .onOff(.off)), ("setpoint", .string("warm")), ("switch", .onOff(.on))],
    ]

    @Test func aBatchOfStatesUpdatesTheItemsAndPublishesTheEventsOfOneCallPerUpdate() async throws {
        var outcomes: [(items: [Item], count: Int, log: [String])] = []
        for (batched, heard) in [(true, true), (true, false), (false, true), (false, false)] {
            let (runtime, device, kernel) = try await Self.world()
            let second = try ItemName("flat_1_heating_switch_copy")
            await runtime.putItem(Item(name: second, type: .switchItem))
            try await runtime.link(ItemChannelLink(itemName: second, channelUID: try ChannelUID(thing: device.uid, id: "switch")))
            let log = EventLog()
            if heard { runtime.events.subscribe { log.add($0) } }
            let before = runtime.events.publishedCount
            for batch in Self.batches {
                if batched {
                    await device.reportBatch(batch)
                } else {
                    await PerUpdateCallback(runtime: runtime).statesUpdated(batch.map { (ChannelHandle(try! ChannelUID(thing: device.uid, id: $0.id)), $0.state) })
                }
            }
            try await kernel.run(until: kernel.now)
            outcomes.append((await runtime.items.all(), runtime.events.publishedCount - before, log.all))
        }
        let reference = try #require(outcomes.first)
        for outcome in outcomes {
            #expect(outcome.items == reference.items)
            #expect(outcome.count == reference.count)
        }
        #expect(outcomes[2].log == reference.log)
        #expect(reference.log.count == reference.count)
        // Batch 1: 3 channels, 4 Items, all changed (4 × state+updated+changed); batch 2: temperature
        // unchanged (state+updated), switch twice to 2 Items (4 × 3), "warm" posted (state) and dropped by the Item.
        #expect(reference.count == 12 + 2 + 12 + 1)
        #expect(reference.log.first == #"openhab/items/flat_1_heating_temperature/state {"type":"Quantity","value":"20.5 °C"}"#)
        #expect(reference.log[3] == #"openhab/items/flat_1_heating_switch/state {"type":"OnOff","value":"ON"}"#)
        #expect(reference.log[6] == #"openhab/items/flat_1_heating_switch_copy/state {"type":"OnOff","value":"ON"}"#)
        #expect(reference.log.contains(#"openhab/items/flat_1_heating_setpoint/state {"type":"String","value":"warm"}"#))
        let setpoint = try ItemName("flat_1_heating_setpoint")
        #expect(outcomes[1].items.first { $0.name == setpoint }?.state.description == "22 °C")
    }

    @Test func aSubscriberAddedWhileAnEventIsDeliveredHearsWhatIsPublishedAfterward() async throws {
        let (runtime, device, kernel) = try await Self.world()
        let late = EventLog()
        let added = Mutex(false)
        let bus = runtime.events
        bus.subscribe(EventFilter(topics: ["openhab/items/*/state"])) { _ in
            guard added.withLock({ let first = !$0; $0 = true; return first }) else { return }
            bus.subscribe(EventFilter(topics: ["openhab/items/*/statechanged"])) { late.add($0) }
        }
        await device.reportTemperature(23.4)  // its statechanged was published while only the first subscriber listened
        try await kernel.run(until: kernel.now)
        #expect(late.all.isEmpty)
        await device.reportTemperature(24.4)
        try await kernel.run(until: kernel.now)
        #expect(late.all == [
            #"openhab/items/flat_1_heating_temperature/statechanged {"type":"Quantity","value":"24.4 °C","oldType":"Quantity","oldValue":"23.4 °C","lastStateUpdate":"1970-01-01T00:00:00Z[UTC]","lastStateChange":"1970-01-01T00:00:00Z[UTC]"}"#,
        ])
    }

    @Test func anEventNoFilterMatchesIsCountedButNotScheduled() async throws {
        let (runtime, device, kernel) = try await Self.world()
        let heard = EventLog()
        runtime.events.subscribe(EventFilter(topics: ["openhab/items/flat_1_heating_switch/statechanged"])) { heard.add($0) }
        let before = kernel.eventsProcessed
        await device.reportTemperature(23.4)  // state, stateupdated, statechanged of the temperature: nobody wants them
        try await kernel.run(until: kernel.now)
        #expect(kernel.eventsProcessed == before && heard.all.isEmpty)
        #expect(runtime.events.publishedCount >= 3)
    }
}
