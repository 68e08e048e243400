import Synchronization
import Testing
import Physics
import Simulation
import SmartHome
@testable import Devices

/// An observer that implements only the required ``ZoneDeviceObserver/zoneDidUpdate(_:)``.
actor RecordingObserver: ZoneDeviceObserver {
    private(set) var readings: [DeviceReading] = []
    func zoneDidUpdate(_ reading: DeviceReading) async { readings.append(reading) }
}

@Suite("What a zone tells its device observers")
struct ZoneObserverTests {
    @Test func anObserverWithOnlyZoneDidUpdateHearsEveryUpdateThroughTheDefault() async throws {
        let kernel = SimulationKernel(start: SimInstant(unixSeconds: 1_767_913_200))
        let zone = try ThermalZone(id: "flat-1", configuration: try ZoneConfiguration(parameters: try ZoneParameters(uaWPerK: 80, capacitanceKWhPerK: 2.3), initialC: 16),
                                   kernel: kernel, outdoor: ConstantOutdoorTemperature(celsius: 0))
        let observer = RecordingObserver()
        try await zone.addPlug("plug", try SmartPlugConfiguration(loadW: 60, standbyW: 0.5, initiallyOn: false), observer: observer)
        try await zone.setSwitch("plug", on: true)
        try await kernel.advance(by: .hours(6))
        let readings = await observer.readings
        #expect(readings.first?.isOn == true)
        #expect(readings.first?.powerW == 60)
        // The room cools from 16 °C towards 0.75 °C: one reading per 0.1 K report, each 0.1 K lower.
        #expect(readings.count > 10)
        for (earlier, later) in zip(readings, readings.dropFirst()) {
            #expect(abs(earlier.reportedTemperatureC - later.reportedTemperatureC - 0.1) < 1e-9)
        }
        #expect(readings.last?.reportedTemperatureC == (await zone.reportedTemperatureC()))
    }

    @Test func aHandlerReportsAZoneUpdateTheSameWayThroughEitherEntry() async throws {
        var outcomes: [[String]] = []
        for inPlace in [true, false] {
            let world = try await DeviceWorld(initialC: 20)
            try await world.command("flat_1_heating_switch", "ON")
            await world.zone.setGuests(1)
            let reading = try await world.zone.reading("heating")
            var shifted = reading
            shifted.reportedTemperatureC += 0.3
            shifted.energyKWh += 0.5
            if inPlace {
                await world.heating.zoneDidUpdateWithoutHop(shifted)
            } else {
                await world.heating.zoneDidUpdate(shifted)
            }
            var states: [String] = []
            for channel in ["switch", "setpoint", "temperature", "power", "energy"] {
                states.append(try await world.state("flat_1_heating_\(channel)"))
            }
            outcomes.append(states)
        }
        #expect(outcomes[0] == outcomes[1])
        #expect(outcomes[0][2] == "20.3 °C")
        #expect(outcomes[0][4] == "0.5 kWh")
    }
}
