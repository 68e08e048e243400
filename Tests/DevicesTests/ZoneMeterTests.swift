import Testing
import Physics
import Simulation
@testable import Devices

/// The zone's cumulative meters against closed forms.
@Suite struct ZoneMeterTests {
    @Test func discomfortAndMeanFollowTheClosedFormWhileGuestsArePresent() async throws {
        // Free decay from 16 °C towards 0 °C: no heating, 2 guests from t = 1 h to t = 5 h.
        let world = try await DeviceWorld(outdoorC: 0, initialC: 16)
        try await world.run(.hours(1))
        let atArrival = await world.zone.meter()
        await world.zone.setGuests(2)
        try await world.run(.hours(4))
        await world.zone.setGuests(0)
        try await world.run(.hours(1))
        let end = await world.zone.meter()

        // Closed form: the segment starting at the arrival temperature with 160 W of guest heat (+ the plug's 0.5 W standby).
        let during = try ZoneSegment(parameters: world.parameters, initialCelsius: atArrival.indoorC,
                                     outdoorCelsius: 0, outdoorSlopeKPerSecond: 0, heatInputW: 160.5)
        let expectedKs = during.degreeHours(below: 20, upTo: 4 * 3_600) * 3_600
        #expect(abs(end.discomfortKs - expectedKs) < 1e-9 * expectedKs)
        #expect(abs(end.occupiedSeconds - 4 * 3_600) < 1e-6)
        #expect(atArrival.discomfortKs == 0)
        // Mean indoor over the first hour equals ∫T dt / 3600 of the free-decay closed form.
        let decay = try ZoneSegment(parameters: world.parameters, initialCelsius: 16, outdoorCelsius: 0,
                                    outdoorSlopeKPerSecond: 0, heatInputW: 0.5)
        #expect(abs(atArrival.temperatureIntegralKs - decay.integral(to: 3_600)) < 1e-6)
    }

    @Test func activeTimeCountsOnlyAboveStandby() async throws {
        let world = try await DeviceWorld(outdoorC: 10, initialC: 20)
        try await world.run(.hours(2))
        try await world.command("flat_1_plug_switch", "ON")
        try await world.run(.minutes(90))
        try await world.command("flat_1_plug_switch", "OFF")
        try await world.run(.hours(1))
        let meter = await world.zone.meter()
        let plug = try #require(meter.devices.first { $0.id == "plug" })
        #expect(plug.kind == .smartPlug)
        #expect(plug.activeSeconds == 5_400)
        #expect(abs(plug.energyKWh - (60 * 1.5 + 0.5 * 3) / 1_000) < 1e-9)
        let heating = try #require(meter.devices.first { $0.id == "heating" })
        #expect(heating.kind == .heating && heating.activeSeconds == 0 && heating.energyKWh == 0)
        #expect(meter.devices.map(\.id) == ["ac", "heating", "plug"])
    }

    @Test func powerChangesAreLoggedOnlyWhenAskedAndHandedOutOnceWithTheNextReading() async throws {
        let world = try await DeviceWorld(outdoorC: 10, initialC: 20)
        try await world.command("flat_1_plug_switch", "ON")
        #expect(await world.zone.meter().powerChanges.isEmpty)  // not logging yet
        await world.zone.logPowerChanges()
        try await world.run(.hours(1))
        try await world.command("flat_1_plug_switch", "OFF")
        try await world.run(.minutes(30))
        try await world.command("flat_1_plug_switch", "ON")
        try await world.command("flat_1_heating_switch", "ON")  // 10 °C outdoor: the thermostat starts heating
        let first = await world.zone.meter()
        let offAt = DeviceWorld.start + .hours(1), onAt = offAt + .minutes(30)
        #expect(first.powerChanges.map(\.at) == [offAt, onAt, onAt])
        #expect(first.powerChanges.map(\.device) == ["plug", "plug", "heating"])
        #expect(first.powerChanges.map(\.powerW).first == 0.5 && first.powerChanges.last?.powerW ?? 0 > 0)
        #expect(await world.zone.meter().powerChanges.isEmpty)  // handed out once
        // The thermostat cycles on its own: each switch is logged at its instant, on and off by turns.
        try await world.run(.hours(12))
        let cycles = await world.zone.meter().powerChanges.filter { $0.device == "heating" }
        #expect(cycles.count >= 2 && zip(cycles, cycles.dropFirst()).allSatisfy { $0.at <= $1.at && ($0.powerW > 0) != ($1.powerW > 0) })
    }
}
