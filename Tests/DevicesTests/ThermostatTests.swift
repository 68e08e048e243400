import Testing
import Physics
import Simulation
import SmartHome
@testable import Devices

@Suite("Thermostats through the openHAB API")
struct ThermostatTests {
    @Test func everyItemShowsItsDeviceFromTheStart() async throws {
        let world = try await DeviceWorld()
        #expect(try await world.state("flat_1_heating_switch") == "OFF")
        #expect(try await world.state("flat_1_heating_setpoint") == "21 °C")
        #expect(try await world.state("flat_1_heating_temperature") == "16 °C")
        #expect(try await world.state("flat_1_heating_power") == "0 W")
        #expect(try await world.state("flat_1_heating_energy") == "0 kWh")
        #expect(try await world.state("flat_1_plug_power") == "0.5 W")
        #expect(try await world.state("flat_1_door_lock") == "ON")
        #expect(try await world.state("flat_1_door_door") == "CLOSED")
        #expect(try await world.state("flat_1_door_battery") == "100 %")
    }

    @Test func heatingSwitchesAtTheExactCrossingTimes() async throws {
        let world = try await DeviceWorld(initialC: 20)
        try await world.command("flat_1_heating_switch", "ON")
        #expect(try await world.state("flat_1_heating_power") == "2000 W")
        try await world.run(.hours(24))
        let power = world.log.values("flat_1_heating_power")
        #expect(power.count > 4)
        #expect(power.first?.value == "2000 W")

        // Closed form: the plug's 0.5 W standby heats too. Off at S + h/2 = 21.25 °C.
        let standby = 0.5
        let warmUp = try ZoneSegment(parameters: world.parameters, initialCelsius: 20, outdoorCelsius: 0, heatInputW: 2000 + standby)
        let offAfter = try #require(warmUp.firstCrossing(of: 21.25, within: 1e7))
        let firstOff = try #require(power.first { $0.value == "0 W" })
        let expectedOff = DeviceWorld.start + (try #require(SimDuration.seconds(roundingUp: offAfter)))
        #expect(abs((firstOff.at - expectedOff).milliseconds) <= 1)

        // Then it cools to S − h/2 = 20.75 °C and switches on again.
        let coolDown = try ZoneSegment(parameters: world.parameters, initialCelsius: 21.25, outdoorCelsius: 0, heatInputW: standby)
        let onAfter = try #require(coolDown.firstCrossing(of: 20.75, within: 1e7))
        let secondOn = try #require(power.dropFirst().first { $0.value == "2000 W" })
        let expectedOn = firstOff.at + (try #require(SimDuration.seconds(roundingUp: onAfter)))
        #expect(abs((secondOn.at - expectedOn).milliseconds) <= 2)
    }

    @Test func regulationKeepsTheRoomInTheBand() async throws {
        let world = try await DeviceWorld(initialC: 20)
        try await world.command("flat_1_heating_switch", "ON")
        try await world.run(.hours(12))  // warm up
        try await world.run(.days(3))
        let late = world.log.values("flat_1_heating_temperature").filter { $0.at > DeviceWorld.start + .hours(12) }
        #expect(!late.isEmpty)
        for change in late {
            let value = try #require(Double(change.value.split(separator: " ")[0]))
            #expect(value >= 20.7 && value <= 21.3, "\(change.value) at \(change.at)")
        }
        let exact = await world.zone.temperatureC()
        #expect(exact >= 20.75 - 1e-6 && exact <= 21.25 + 1e-6)
    }

    @Test func temperatureReportsMoveInStepsOfOneTenth() async throws {
        let world = try await DeviceWorld()
        try await world.command("flat_1_heating_switch", "ON")
        try await world.run(.hours(30))
        let values = try world.log.values("flat_1_heating_temperature").map { try #require(Double($0.value.split(separator: " ")[0])) }
        #expect(values.count > 50)
        var previous = 16.0
        for value in values {
            #expect(abs(abs(value - previous) - 0.1) < 1e-9, "\(previous) → \(value)")
            previous = value
        }
    }

    @Test("setpoints are clamped and the taken value is reported", arguments: [
        ("flat_1_heating_setpoint", "35", "30 °C"), ("flat_1_heating_setpoint", "2 °C", "5 °C"),
        ("flat_1_heating_setpoint", "22.5", "22.5 °C"), ("flat_1_heating_setpoint", "71.6 °F", "22 °C"),
        ("flat_1_ac_setpoint", "10", "16 °C"),
    ])
    func clamping(item: String, command: String, shown: String) async throws {
        let world = try await DeviceWorld()
        try await world.command(item, command)
        #expect(try await world.state(item) == shown)
    }

    @Test func setpointThatDoesNotParseIsACommandError() async throws {
        let world = try await DeviceWorld()
        do {
            try await world.command("flat_1_heating_setpoint", "warm")
            Issue.record("accepted")
        } catch let error as SmartHomeError {
            #expect(error.code == .invalidCommand)
            #expect(error.message.contains("warm"))
        }
    }

    @Test func coolingMirrorsHeating() async throws {
        let world = try await DeviceWorld(outdoorC: 35, initialC: 25.2)
        try await world.command("flat_1_ac_switch", "ON")
        #expect(try await world.state("flat_1_ac_power") == "900 W")
        try await world.run(.days(2))
        let exact = await world.zone.temperatureC()
        #expect(exact >= 24.75 - 1e-6 && exact <= 25.25 + 1e-6)
        let energy = try await world.zone.reading("ac").energyKWh
        // Heat removed = cop × electricity ≈ UA·(T_out − S)·t (+ the plug's standby heat).
        let expected = (80 * (35 - 25) + 0.5) * 48 / 3 / 1000
        #expect(abs(energy - expected) < 2.3 * 0.5 / 3 + 0.2)
    }

    @Test func offlineThermostatKeepsRegulatingButIsSilent() async throws {
        let world = try await DeviceWorld(initialC: 20)
        try await world.command("flat_1_heating_switch", "ON")
        try await world.run(.hours(12))
        await world.heating.setOnline(false)
        let frozen = try await world.state("flat_1_heating_temperature")
        let energyBefore = try await world.zone.reading("heating").energyKWh
        try await world.command("flat_1_heating_switch", "OFF")  // ignored: the device does not answer
        #expect(try await world.state("flat_1_heating_switch") == "ON")
        try await world.run(.days(2))
        #expect(try await world.state("flat_1_heating_temperature") == frozen)
        let energyAfter = try await world.zone.reading("heating").energyKWh
        #expect(energyAfter - energyBefore > 30)  // ≈ 80 W/K × 21 K × 48 h = 80 kWh
        let exact = await world.zone.temperatureC()
        #expect(exact >= 20.75 - 1e-6 && exact <= 21.25 + 1e-6)
        let thing = try await world.api.getThing("twin:thermostat:flat-1:heating").body
        #expect(thing.statusInfo.status == .offline)
        await world.heating.setOnline(true)
        #expect(try await world.state("flat_1_heating_temperature") != frozen || abs(exact - 21) < 0.3)
        #expect(try await world.state("flat_1_heating_energy") == DeviceChannel.energy(energyAfter).description)
    }

    @Test func energyIsPowerTimesOnTime() async throws {
        let world = try await DeviceWorld(initialC: 20)
        try await world.command("flat_1_heating_switch", "ON")
        try await world.run(.days(2))
        var onSince: SimInstant?
        var onSeconds = 0.0
        for change in world.log.values("flat_1_heating_power") {
            if change.value == "2000 W" { onSince = change.at }
            if change.value == "0 W", let since = onSince { onSeconds += (change.at - since).seconds; onSince = nil }
        }
        if let since = onSince { onSeconds += (world.kernel.now - since).seconds }
        let energy = try await world.zone.reading("heating").energyKWh
        #expect(abs(energy - 2000 * onSeconds / 3.6e6) < 1e-9)
    }

    @Test func guestsWarmTheRoom() async throws {
        let world = try await DeviceWorld(outdoorC: 0, initialC: 0.00625)
        await world.zone.setGuests(2)
        try await world.run(.days(40))
        // T∞ = T_out + (2 × 80 W + 0.5 W standby) / 80 W/K
        #expect(abs(await world.zone.temperatureC() - 160.5 / 80) < 0.01)
    }

    @Test("bad device parameters are typed errors", arguments: [
        ("powerW", -1.0, 3.0, 0.5), ("cop", 2000, 0, 0.5), ("hysteresisK", 2000, 3, 0), ("powerW", Double.nan, 3, 0.5),
    ])
    func badParameters(field: String, power: Double, cop: Double, hysteresis: Double) {
        do {
            _ = try ThermostatConfiguration(mode: .cooling, powerW: power, cop: cop, setpointC: 21, hysteresisK: hysteresis)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidParameter)
            #expect(error.message.hasPrefix(field))
        }
        #expect(throws: DevicesError.self) { try SmartPlugConfiguration(loadW: -5) }
    }
}

@Suite("Smart plug and smart lock")
struct PlugAndLockTests {
    @Test func plugStandbyVersusLoadEnergy() async throws {
        let world = try await DeviceWorld()
        try await world.run(.hours(24))
        try await world.command("flat_1_plug_energy", "REFRESH")
        #expect(try await world.state("flat_1_plug_energy") == "0.012 kWh")
        try await world.command("flat_1_plug_switch", "ON")
        #expect(try await world.state("flat_1_plug_power") == "60 W")
        try await world.run(.hours(24))
        try await world.command("flat_1_plug_energy", "REFRESH")
        #expect(try await world.state("flat_1_plug_energy") == "1.452 kWh")
    }

    @Test func lockMotorTakesTwoSeconds() async throws {
        let world = try await DeviceWorld()
        try await world.command("flat_1_door_lock", "OFF")
        #expect(try await world.state("flat_1_door_lock") == "OFF")  // autoupdate: optimistic
        try await world.run(.milliseconds(1_999))
        #expect(await world.lock.isLocked)
        try await world.run(.milliseconds(1))
        #expect(await !world.lock.isLocked)
        #expect(try await world.state("flat_1_door_battery") == "99.99 %")
        #expect(await world.lock.setDoor(open: true))
        #expect(try await world.state("flat_1_door_door") == "OPEN")
    }

    @Test func lockedDoorCannotBeOpened() async throws {
        let world = try await DeviceWorld()
        #expect(await !world.lock.setDoor(open: true))
        #expect(try await world.state("flat_1_door_door") == "CLOSED")
    }

    @Test func offlineLockRefuses() async throws {
        let world = try await DeviceWorld()
        await world.lock.setOnline(false)
        try await world.command("flat_1_door_lock", "OFF")
        #expect(try await world.state("flat_1_door_lock") == "ON")  // all linked Things offline: no autoupdate
        try await world.run(.seconds(10))
        #expect(await world.lock.isLocked)
        #expect(await world.lock.operations == 0)
        #expect(try await world.state("flat_1_door_battery") == "100 %")
    }
}
