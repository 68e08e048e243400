import Testing
import Synchronization
import Physics
import Simulation
@testable import Devices

/// Hourly linear ramps (a saw-tooth between −4 °C and +2 °C over six hours) that count how often they are asked.
final class CountingRampOutdoor: OutdoorTemperatureSource {
    private let queries = Mutex(0)
    var queryCount: Int { queries.withLock { $0 } }

    func knotC(hour: Int64) -> Double { -4 + Double(hour % 6) }

    func outdoorSegment(at instant: SimInstant) -> OutdoorTemperatureSegment {
        queries.withLock { $0 += 1 }
        let hour = instant.unixMilliseconds.floorDivided(by: 3_600_000).quotient
        let start = SimInstant(unixMilliseconds: hour * 3_600_000)
        return OutdoorTemperatureSegment(start: start, end: start + .hours(1), celsiusAtStart: knotC(hour: hour),
                                         slopeKPerSecond: (knotC(hour: hour + 1) - knotC(hour: hour)) / 3_600)
    }
}

/// How a zone follows a piecewise-linear outdoor temperature.
@Suite struct ThermalZoneOutdoorTests {
    @Test func theZoneAsksItsOutdoorSourceOncePerSegmentNotPerEvent() async throws {
        let kernel = SimulationKernel(start: DeviceWorld.start)
        let outdoor = CountingRampOutdoor()
        let zone = try ThermalZone(id: "flat-1", configuration: try ZoneConfiguration(
            parameters: try ZoneParameters(uaWPerK: 80, capacitanceKWhPerK: 0.5), initialC: 20), kernel: kernel, outdoor: outdoor)
        try await zone.addThermostat("heating", try ThermostatConfiguration(mode: .heating, powerW: 2000, setpointC: 21, hysteresisK: 0.2),
                                     observer: nil)
        try await zone.setSwitch("heating", on: true)
        try await kernel.advance(by: .hours(48))
        // Many switching and 0.1 K report events per hour, but one query per hourly segment (plus the one at creation).
        #expect(kernel.eventsProcessed > 4 * 48)
        #expect(outdoor.queryCount == 48 + 1)
        let meter = await zone.meter()
        #expect(meter.outdoorC == outdoor.knotC(hour: DeviceWorld.start.unixMilliseconds / 3_600_000 + 48))
    }

    @Test func aFreeRunningZoneFollowsTheRampsExactlyAcrossMidSegmentChanges() async throws {
        let parameters = try ZoneParameters(uaWPerK: 80, capacitanceKWhPerK: 2.3)
        let kernel = SimulationKernel(start: DeviceWorld.start)
        let outdoor = CountingRampOutdoor()
        let zone = try ThermalZone(id: "flat-1", configuration: try ZoneConfiguration(parameters: parameters, initialC: 18),
                                   kernel: kernel, outdoor: outdoor)
        // Guests come and go at 20 and 50 minutes past each hour: re-anchoring inside a segment.
        var expected = 18.0
        var at = DeviceWorld.start
        var guests = 0
        for step in 0..<18 {
            let next = DeviceWorld.start + .minutes(Int64([20, 50, 60][step % 3] + 60 * (step / 3)))
            let piece = outdoor.outdoorSegment(at: at)
            let segment = try ZoneSegment(parameters: parameters, initialCelsius: expected, outdoorCelsius: piece.celsius(at: at),
                                          outdoorSlopeKPerSecond: piece.slopeKPerSecond, heatInputW: Double(guests) * 80)
            expected = segment.temperature(at: (next - at).seconds)
            try await kernel.run(until: next)
            guests = step % 3 == 0 ? 2 : 0
            await zone.setGuests(guests)
            at = next
            #expect(abs(await zone.temperatureC() - expected) < 1e-9, "after step \(step)")
        }
    }

    /// A zone without thermostat or plug has no timer: it sleeps until something changes. Fuzz input
    /// #709,246 (a lock-only studio idle for 56 years, then a guest) met a room at −410,065 °C: the
    /// sleep was integrated with the first hour's outdoor ramp extrapolated over all of it.
    @Test func aZoneWithoutDevicesThatSleptAcrossManyOutdoorPiecesWakesAtTheRightTemperature() async throws {
        let parameters = try ZoneParameters(uaWPerK: 50, capacitanceKWhPerK: 1.0)
        let kernel = SimulationKernel(start: DeviceWorld.start)
        let outdoor = CountingRampOutdoor()
        let zone = try ThermalZone(id: "studio", configuration: try ZoneConfiguration(parameters: parameters, initialC: 20),
                                   kernel: kernel, outdoor: outdoor)
        // The closed form, walked piece by piece over 10 days and a half-hour.
        let end = DeviceWorld.start + .hours(240) + .minutes(30)
        var expected = 20.0
        var integral = 0.0
        var at = DeviceWorld.start
        while at < end {
            let piece = outdoor.outdoorSegment(at: at)
            let until = min(piece.end ?? end, end)
            let segment = try ZoneSegment(parameters: parameters, initialCelsius: expected, outdoorCelsius: piece.celsius(at: at),
                                          outdoorSlopeKPerSecond: piece.slopeKPerSecond, heatInputW: 0)
            let (temperature, part) = segment.temperatureAndIntegral(at: (until - at).seconds)
            (expected, integral, at) = (temperature, integral + part, until)
        }
        #expect(expected > -4 && expected < 2)  // between the saw-tooth's extremes, as a room that follows it
        try await kernel.run(until: end)
        #expect(kernel.eventsProcessed == 0)  // it really slept
        #expect(abs(await zone.temperatureC() - expected) < 1e-6)
        #expect(abs(await zone.temperatureIntegralKelvinSeconds() - integral) < 1e-3)
        #expect(abs(await zone.meter().indoorC - expected) < 1e-6)
        await zone.setGuests(1)
        #expect(abs(await zone.temperatureC() - expected) < 1e-6)
        #expect(await zone.reportedTemperatureC() == ThermalZone.round(expected))
    }
}
