import Booking
import Simulation
import SmartHome
import Testing

@Suite("HomeService: virtual layer, devices and properties")
struct HomeServiceTests {
    @Test("createConfiguration builds Items and Links through the API and stores the configuration")
    func createConfigurationEndToEnd() async throws {
        let twin = try await BookingTwin(configure: false)
        #expect(try await twin.api.getItems().body.isEmpty)

        let created = try await twin.home.createConfiguration(listing: "flat-1", type: .heating, deviceID: "heating",
                                                               thingUID: "twin:thermostat:flat-1:heating")
        #expect(created.id == "flat-1/heating")
        #expect(created.listing == "flat-1")
        #expect(created.type == .heating)
        #expect(created.name == "heating")
        #expect(created.thingUID == "twin:thermostat:flat-1:heating")
        #expect(created.items == ["switch": "flat_1_heating_switch", "setpoint": "flat_1_heating_setpoint",
                                  "temperature": "flat_1_heating_temperature", "power": "flat_1_heating_power",
                                  "energy": "flat_1_heating_energy"])

        let items = try await twin.api.getItems().body
        #expect(items.map(\.name) == ["flat_1_heating_energy", "flat_1_heating_power", "flat_1_heating_setpoint",
                                      "flat_1_heating_switch", "flat_1_heating_temperature"])
        let types = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.type) })
        #expect(types["flat_1_heating_switch"] == "Switch")
        #expect(types["flat_1_heating_setpoint"] == "Number:Temperature")
        #expect(types["flat_1_heating_power"] == "Number:Power")
        #expect(types["flat_1_heating_energy"] == "Number:Energy")

        let links = try await twin.api.getLinks().body.map { "\($0.itemName) -> \($0.channelUID)" }.sorted()
        #expect(links == [
            "flat_1_heating_energy -> twin:thermostat:flat-1:heating:energy",
            "flat_1_heating_power -> twin:thermostat:flat-1:heating:power",
            "flat_1_heating_setpoint -> twin:thermostat:flat-1:heating:setpoint",
            "flat_1_heating_switch -> twin:thermostat:flat-1:heating:switch",
            "flat_1_heating_temperature -> twin:thermostat:flat-1:heating:temperature",
        ])
        // States are the device's from the start (the link refreshes them): no NULL.
        let states = try await twin.home.propertyStates(of: "flat-1/heating")
        #expect(states.map(\.property) == ["switch", "setpoint", "temperature", "power", "energy"])
        #expect(states.map(\.state) == ["OFF", "21 °C", "16 °C", "0 W", "0 kWh"])
        #expect(try await twin.store.configuration("flat-1/heating") == created)

        // A lock: Switch, Contact, Number:Dimensionless.
        let lock = try await twin.home.createConfiguration(listing: "flat-1", type: .lock, deviceID: "door", thingUID: "twin:lock:flat-1:door")
        #expect(try await twin.home.propertyStates(of: lock.id).map { "\($0.item)=\($0.state)" }
                == ["flat_1_door_lock=ON", "flat_1_door_door=CLOSED", "flat_1_door_battery=100 %"])
        #expect(try await twin.api.getItem("flat_1_door_door").body.type == "Contact")
        // The battery Item gets `unit` metadata `%` from the channel's unit hint, as openHAB's UI gives it;
        // without it a Number:Dimensionless Item would hold the unit ONE and show 1.
        let battery = try await twin.api.getItem("flat_1_door_battery", metadata: "unit").body
        #expect(battery.metadata == ["unit": MetadataDTO(value: "%", editable: true)])
        #expect(battery.unitSymbol == "%")
        _ = try await twin.api.deleteMetadata("flat_1_door_battery", namespace: "unit")
        _ = try await twin.api.updateState("flat_1_door_battery", "99.94 %")
        #expect(try await twin.api.getItemState("flat_1_door_battery").body == "0.9994")
    }

    @Test("createConfiguration refuses unknown Things, duplicates, wrong types and unknown listings")
    func createConfigurationErrors() async throws {
        let twin = try await BookingTwin()
        await expectTwinError(.thingNotFound) { try await twin.home.createConfiguration(listing: "flat-1", type: .heating, deviceID: "heat2", thingUID: "twin:thermostat:flat-1:nope") }
        await expectTwinError(.configurationInvalid) { try await twin.home.createConfiguration(listing: "flat-1", type: .heating, deviceID: "heating", thingUID: "twin:thermostat:flat-1:heating") }
        await expectTwinError(.configurationInvalid) { try await twin.home.createConfiguration(listing: "flat-1", type: .heating, deviceID: "door2", thingUID: "twin:lock:flat-1:door") }
        await expectTwinError(.listingNotFound) { try await twin.home.createConfiguration(listing: "nowhere", type: .heating, deviceID: "heating", thingUID: "twin:thermostat:flat-1:heating") }
        // An automation configuration has no Items.
        let watcher = try await twin.home.createConfiguration(listing: "flat-1", type: .weatherWatcher, deviceID: "weather", thingUID: "")
        #expect(watcher.items.isEmpty)
    }

    @Test("configuration types and their properties")
    func typesAndProperties() async throws {
        let twin = try await BookingTwin(configure: false)
        #expect(twin.home.configurationTypes() == [.heating, .cooling, .smartPlug, .lock, .weatherWatcher])
        #expect(twin.home.properties(of: .smartPlug) == ["switch", "power", "energy", "temperature"])
        #expect(twin.home.properties(of: .lock) == ["lock", "door", "battery"])
    }

    @Test("a listing's devices are listed by name, one device by id")
    func listingDevices() async throws {
        let twin = try await BookingTwin(listings: ["flat-1", "flat-2"])
        #expect(try await twin.home.devices(ofListing: "flat-1").map(\.id.rawValue) == ["flat-1/ac", "flat-1/door", "flat-1/heating", "flat-1/plug"])
        #expect(try await twin.home.device("flat-2/plug").items["switch"] == "flat_2_plug_switch")
        await expectTwinError(.configurationNotFound) { try await twin.home.device("flat-1/oven") }
        await expectTwinError(.listingNotFound) { try await twin.home.devices(ofListing: "flat-9") }
    }

    @Test("the owner's switch and setpoint reach the twin's devices")
    func switchAndSetProperty() async throws {
        let twin = try await BookingTwin()
        try await twin.home.setSwitch(configuration: "flat-1/heating", on: true, by: BookingTwin.host)
        #expect(try await twin.state("flat-1/heating/switch") == "ON")
        #expect(try await twin.state("flat-1/heating/power") == "2000 W")
        try await twin.home.setProperty(configuration: "flat-1/heating", property: "setpoint", value: "15", by: BookingTwin.host)
        #expect(try await twin.state("flat-1/heating/setpoint") == "15 °C")
        #expect(try await twin.state("flat-1/heating/power") == "0 W")  // 16 °C ≥ 15 °C: element off
        try await twin.home.setSwitch(configuration: "flat-1/plug", on: true, by: BookingTwin.host)
        #expect(try await twin.state("flat-1/plug/power") == "60 W")
        try await twin.run(until: "2026-01-09T01:00")
        let plugKWh = try await #require(twin.zones["flat-1"]).reading("plug").energyKWh
        #expect(abs(plugKWh - 0.060) < 1e-9)
    }

    @Test("guests may operate devices only during their stay; strangers never")
    func deviceAuthorisation() async throws {
        let twin = try await BookingTwin()
        try await twin.book("r1", "2026-01-09", "2026-01-11")
        await expectTwinError(.deviceAccessDenied) { try await twin.home.setSwitch(configuration: "flat-1/heating", on: true, by: BookingTwin.guest) }
        #expect(try await twin.state("flat-1/heating/switch") == "OFF")
        try await twin.run(until: "2026-01-09T15:00")
        try await twin.home.setSwitch(configuration: "flat-1/heating", on: true, by: BookingTwin.guest)
        #expect(try await twin.state("flat-1/heating/switch") == "ON")
        await expectTwinError(.deviceAccessDenied) { try await twin.home.setProperty(configuration: "flat-1/heating", property: "setpoint", value: "25", by: BookingTwin.stranger) }
        try await twin.run(until: "2026-01-11T10:00")
        await expectTwinError(.deviceAccessDenied) { try await twin.home.setSwitch(configuration: "flat-1/heating", on: false, by: BookingTwin.guest) }
        try await twin.home.setSwitch(configuration: "flat-1/heating", on: false, by: BookingTwin.host)
        #expect(try await twin.state("flat-1/heating/switch") == "OFF")
    }

    @Test("read-only properties, unknown properties, bad commands and offline Things are refused")
    func refusals() async throws {
        let twin = try await BookingTwin()
        await expectTwinError(.commandInvalid) { try await twin.home.setProperty(configuration: "flat-1/heating", property: "temperature", value: "30", by: BookingTwin.host) }
        #expect(try await twin.state("flat-1/heating/temperature") == "16 °C")
        await expectTwinError(.propertyNotFound) { try await twin.home.setProperty(configuration: "flat-1/heating", property: "fan", value: "ON", by: BookingTwin.host) }
        await expectTwinError(.commandInvalid) { try await twin.home.setProperty(configuration: "flat-1/heating", property: "switch", value: "on", by: BookingTwin.host) }
        await expectTwinError(.commandInvalid) { try await twin.home.setProperty(configuration: "flat-1/heating", property: "setpoint", value: "22 W", by: BookingTwin.host) }
        await expectTwinError(.propertyNotFound) { try await twin.home.setProperty(configuration: "flat-1/plug", property: "setpoint", value: "20", by: BookingTwin.host) }
        await twin.devices["flat-1/heating"]?.setOnline(false)
        await expectTwinError(.thingOffline) { try await twin.home.setSwitch(configuration: "flat-1/heating", on: true, by: BookingTwin.host) }
        #expect(try await twin.state("flat-1/heating/switch") == "OFF")
    }
}

