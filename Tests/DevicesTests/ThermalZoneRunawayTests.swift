import Testing
import Physics
import Simulation
@testable import Devices

/// A zone whose physics would report without end stops the run instead of storming.
@Suite struct ThermalZoneRunawayTests {
    @Test func aRoomThatSwingsFasterThanAnyRoomStopsTheRun() async throws {
        let kernel = SimulationKernel(start: DeviceWorld.start)
        // The storm input of the scenario validator (capacitance 1e-9 kWh/K), built below the validator.
        let zone = try ThermalZone(id: "flat-1", configuration: try ZoneConfiguration(
            parameters: try ZoneParameters(uaWPerK: 80, capacitanceKWhPerK: 1e-9), initialC: 20), kernel: kernel,
            outdoor: CountingRampOutdoor())
        try await zone.addThermostat("heating", try ThermostatConfiguration(mode: .heating, powerW: 2000, setpointC: 21, hysteresisK: 0.5),
                                     observer: nil)
        try await zone.setSwitch("heating", on: true)
        let error = await #expect(throws: SimulationError.self) { try await kernel.advance(by: .hours(72)) }
        #expect(error?.code == .stalled)
        #expect(error?.message.contains("zone flat-1 made more than \(ThermalZone.maxTimerEventsPerHour) temperature and thermostat events within one simulated hour") == true,
                "\(error?.message ?? "")")
        #expect(kernel.eventsProcessed <= ThermalZone.maxTimerEventsPerHour + 1)
    }
}
