import Testing
@testable import SmartHome

@Suite("Command routing, autoupdate and events")
struct RuntimeTests {
    @Test func itemsShowTheDeviceStateOnceLinked() async throws {
        let world = try await TestWorld()
        #expect(try await world.state("flat_1_heating_switch") == "OFF")
        #expect(try await world.state("flat_1_heating_setpoint") == "21 °C")
        #expect(try await world.state("flat_1_heating_temperature") == "19.5 °C")
    }

    @Test func onlineCommandUpdatesOptimisticallyThenTheDeviceCorrects() async throws {
        let world = try await TestWorld()
        try await world.advance(.seconds(90))
        try await world.clearEvents()
        _ = try await world.api.sendCommand("flat_1_heating_setpoint", "35 °C")
        // AutoUpdateManager (OPTIMISTIC): the prediction, then the update; GenericItem.applyState:
        // stateupdated and statechanged carry the times of the update and change before this one.
        #expect((try await world.events()) == [
            #"openhab/items/flat_1_heating_setpoint/command {"type":"Quantity","value":"35 °C"}"#,
            #"openhab/items/flat_1_heating_setpoint/statepredicted {"predictedType":"Quantity","predictedValue":"35 °C","isConfirmation":false}"#,
            #"openhab/items/flat_1_heating_setpoint/state {"type":"Quantity","value":"35 °C"}"#,
            #"openhab/items/flat_1_heating_setpoint/stateupdated {"type":"Quantity","value":"35 °C","lastStateUpdate":"1970-01-01T01:00:00+01:00[Europe/Budapest]"}"#,
            #"openhab/items/flat_1_heating_setpoint/statechanged {"type":"Quantity","value":"35 °C","oldType":"Quantity","oldValue":"21 °C","lastStateUpdate":"1970-01-01T01:00:00+01:00[Europe/Budapest]","lastStateChange":"1970-01-01T01:00:00+01:00[Europe/Budapest]"}"#,
            #"openhab/items/flat_1_heating_setpoint/state {"type":"Quantity","value":"30 °C"}"#,
            #"openhab/items/flat_1_heating_setpoint/stateupdated {"type":"Quantity","value":"30 °C","lastStateUpdate":"1970-01-01T01:01:30+01:00[Europe/Budapest]"}"#,
            #"openhab/items/flat_1_heating_setpoint/statechanged {"type":"Quantity","value":"30 °C","oldType":"Quantity","oldValue":"35 °C","lastStateUpdate":"1970-01-01T01:01:30+01:00[Europe/Budapest]","lastStateChange":"1970-01-01T01:01:30+01:00[Europe/Budapest]"}"#,
        ])
        #expect(try await world.state("flat_1_heating_setpoint") == "30 °C")
        #expect(await world.device.received.last == "setpoint=35 °C")
        let item = try await world.api.getItem("flat_1_heating_setpoint").body
        #expect(item.lastState == "35 °C")
        #expect(item.lastStateUpdate == 90_000 && item.lastStateChange == 90_000)
    }

    @Test func aReportThatChangesNothingIsAnUpdateButNoChange() async throws {
        let world = try await TestWorld()
        try await world.advance(.seconds(90))
        try await world.clearEvents()
        await world.device.reportTemperature(19.5)
        #expect((try await world.events()) == [
            #"openhab/items/flat_1_heating_temperature/state {"type":"Quantity","value":"19.5 °C"}"#,
            #"openhab/items/flat_1_heating_temperature/stateupdated {"type":"Quantity","value":"19.5 °C","lastStateUpdate":"1970-01-01T01:00:00+01:00[Europe/Budapest]"}"#,
        ])
        let item = try await world.api.getItem("flat_1_heating_temperature").body
        #expect(item.lastState == "NULL" && item.lastStateUpdate == 90_000 && item.lastStateChange == 0)
    }

    @Test func aQuantityOfAnotherDimensionIsACommandTheItemDrops() async throws {
        let world = try await TestWorld()
        try await world.clearEvents()
        let response = try await world.api.sendCommand("flat_1_heating_setpoint", "21.5 W")
        #expect(response.status == .ok)
        #expect((try await world.events()) == [
            #"openhab/items/flat_1_heating_setpoint/command {"type":"Quantity","value":"21.5 W"}"#,
            #"openhab/items/flat_1_heating_setpoint/statepredicted {"predictedType":"Quantity","predictedValue":"21.5 W","isConfirmation":false}"#,
            #"openhab/items/flat_1_heating_setpoint/state {"type":"Quantity","value":"21.5 W"}"#,
        ])
        #expect(await world.device.received.last == "setpoint=21.5 W")
        #expect(try await world.state("flat_1_heating_setpoint") == "21 °C")
        #expect(try await world.api.updateState("flat_1_heating_setpoint", "3 kWh").status == .accepted)
        #expect(try await world.state("flat_1_heating_setpoint") == "21 °C")
    }

    @Test("autoupdate metadata overrides the policy (AutoUpdateManager: Boolean.parseBoolean)", arguments: [
        ("false", ["command", "state 30 °C", "stateupdated", "statechanged"]),
        ("TRUE", ["command", "state 35", "stateupdated", "statechanged", "state 30 °C", "stateupdated", "statechanged"]),
        (" ", ["command", "statepredicted", "state 35", "stateupdated", "statechanged", "state 30 °C", "stateupdated", "statechanged"]),
    ])
    func autoupdateMetadata(value: String, expected: [String]) async throws {
        let world = try await TestWorld()
        _ = try await world.api.putMetadata("flat_1_heating_setpoint", namespace: "autoupdate", body: MetadataDTO(value: value))
        try await world.clearEvents()
        _ = try await world.api.sendCommand("flat_1_heating_setpoint", "35")
        let seen = try await world.events().map { line -> String in
            let action = line.split(separator: " ")[0].split(separator: "/").last.map(String.init) ?? ""
            guard action == "state", let value = line.firstRange(of: #""value":""#) else { return action }
            return "state " + line[value.upperBound...].prefix { $0 != "\"" }
        }
        #expect(seen == expected)
        #expect(try await world.state("flat_1_heating_setpoint") == "30 °C")
    }

    @Test func offlineThingLeavesTheItemUnchanged() async throws {
        let world = try await TestWorld()
        await world.device.setOnline(false)
        try await world.clearEvents()
        _ = try await world.api.sendCommand("flat_1_heating_switch", "ON")
        #expect(try await world.state("flat_1_heating_switch") == "OFF")
        // AutoUpdateManager (REVERT): no linked Thing is ONLINE, so the current state is restated.
        #expect((try await world.events()) == [
            #"openhab/items/flat_1_heating_switch/command {"type":"OnOff","value":"ON"}"#,
            #"openhab/items/flat_1_heating_switch/statepredicted {"predictedType":"OnOff","predictedValue":"OFF","isConfirmation":true}"#,
        ])
        // openHAB still hands the command to the initialised handler; the offline device ignores it.
        #expect(await world.device.received.last == "switch=ON")
        let thing = try await world.api.getThing("twin:thermostat:flat-1:heating").body
        #expect(thing.statusInfo == ThingStatusInfo(.offline, .communicationError, description: "no answer"))
    }

    @Test func unlinkedItemTakesTheCommandAsState() async throws {
        let world = try await TestWorld()
        _ = try await world.api.putItem("virtual_switch", body: ItemDTO(type: "Switch", name: "virtual_switch"))
        #expect(try await world.state("virtual_switch") == "NULL")
        _ = try await world.api.sendCommand("virtual_switch", "ON")
        #expect(try await world.state("virtual_switch") == "ON")
        _ = try await world.api.sendCommand("virtual_switch", "toggle")
        #expect(try await world.state("virtual_switch") == "OFF")
        _ = try await world.api.sendCommand("virtual_switch", "TOGGLE")
        #expect(try await world.state("virtual_switch") == "ON")
    }

    @Test func refreshDoesNotChangeState() async throws {
        let world = try await TestWorld()
        try await world.clearEvents()
        _ = try await world.api.sendCommand("flat_1_heating_switch", "REFRESH")
        #expect(try await world.state("flat_1_heating_switch") == "OFF")
        #expect(!(try await world.events()).contains { $0.contains("statechanged") })
    }

    @Test func stateReportsReachEveryLinkedItem() async throws {
        let world = try await TestWorld()
        _ = try await world.api.putItem("living_room_temperature", body: ItemDTO(type: "Number:Temperature", name: "living_room_temperature"))
        _ = try await world.api.putLink(itemName: "living_room_temperature", channelUID: "twin:thermostat:flat-1:heating:temperature", body: nil)
        await world.device.reportTemperature(20.04)
        #expect(try await world.state("flat_1_heating_temperature") == "20 °C")
        #expect(try await world.state("living_room_temperature") == "20 °C")
    }

    @Test func thingStatusEvents() async throws {
        let world = try await TestWorld()
        try await world.clearEvents()
        await world.device.setOnline(false)
        await world.device.setOnline(true)
        await world.device.setOnline(true)
        // ThingManagerImpl.setThingStatus: status on every report, statuschanged only on a change.
        #expect((try await world.events()) == [
            #"openhab/things/twin:thermostat:flat-1:heating/status {"status":"OFFLINE","statusDetail":"COMMUNICATION_ERROR","description":"no answer"}"#,
            #"openhab/things/twin:thermostat:flat-1:heating/statuschanged [{"status":"OFFLINE","statusDetail":"COMMUNICATION_ERROR","description":"no answer"},{"status":"ONLINE","statusDetail":"NONE"}]"#,
            #"openhab/things/twin:thermostat:flat-1:heating/status {"status":"ONLINE","statusDetail":"NONE"}"#,
            #"openhab/things/twin:thermostat:flat-1:heating/statuschanged [{"status":"ONLINE","statusDetail":"NONE"},{"status":"OFFLINE","statusDetail":"COMMUNICATION_ERROR","description":"no answer"}]"#,
            #"openhab/things/twin:thermostat:flat-1:heating/status {"status":"ONLINE","statusDetail":"NONE"}"#,
        ])
    }

    @Test func busDeliversInSubscriptionOrderWithFilters() async throws {
        let world = try await TestWorld()
        let first = EventLog(), second = EventLog()
        world.runtime.events.subscribe(EventFilter(topics: ["openhab/items/*/statechanged"])) { first.add($0) }
        world.runtime.events.subscribe(EventFilter(topics: ["openhab/things/**"])) { second.add($0) }
        _ = try await world.api.sendCommand("flat_1_heating_switch", "ON")
        await world.device.setOnline(false)
        try await world.settle()
        #expect(first.all == [#"openhab/items/flat_1_heating_switch/statechanged {"type":"OnOff","value":"ON","oldType":"OnOff","oldValue":"OFF","lastStateUpdate":"1970-01-01T01:00:00+01:00[Europe/Budapest]","lastStateChange":"1970-01-01T01:00:00+01:00[Europe/Budapest]"}"#])
        #expect(second.all.count == 2)
        #expect(second.all[0].hasPrefix("openhab/things/twin:thermostat:flat-1:heating/status "))
        #expect(second.all[1].hasPrefix("openhab/things/twin:thermostat:flat-1:heating/statuschanged "))
    }

    @Test func serverSentEventShape() {
        let event = OpenHABEvent(.itemState(try! ItemName("x"), .onOff(.on)))
        #expect(event.serverSentEventData == #"{"topic":"openhab/items/x/state","payload":"{\"type\":\"OnOff\",\"value\":\"ON\"}","type":"ItemStateEvent"}"#)
    }

    @Test func removingAThingRemovesItsLinks() async throws {
        let world = try await TestWorld()
        try await world.runtime.removeThing(try ThingUID("twin:thermostat:flat-1:heating"))
        #expect(try await world.api.getLinks().body.isEmpty)
        await #expect(throws: SmartHomeError.self) { try await world.runtime.removeThing(try ThingUID("twin:thermostat:flat-1:heating")) }
    }

    @Test func shutdownRemovesEveryThingAndLinkAndDropsTheSubscribers() async throws {
        let world = try await TestWorld()
        let linksBefore = await world.runtime.links.all()
        #expect(!linksBefore.isEmpty)
        await world.runtime.shutdown()
        let linksAfter = await world.runtime.links.all(), thingsAfter = await world.runtime.things.all()
        #expect(linksAfter.isEmpty && thingsAfter.isEmpty)
        #expect(try await world.api.getLinks().body.isEmpty)
    }

    @Test func duplicateThingIsRejected() async throws {
        let world = try await TestWorld()
        let again = FakeThermostat(uid: try ThingUID("twin:thermostat:flat-1:heating"))
        do {
            try await world.runtime.addThing(await again.thing, handler: again)
            Issue.record("duplicate accepted")
        } catch {
            #expect(error.code == .duplicateThing)
        }
    }
}
