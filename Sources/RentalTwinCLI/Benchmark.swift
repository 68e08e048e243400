import Devices
import Scenarios
import Physics
import Simulation
import SmartHome
import Synchronization
import Weather

/// `rental-twin bench`: one flat, a heating thermostat regulating at 21 °C against a seeded
/// diurnal outdoor temperature (hourly knots), for a number of simulated days, through the
/// whole openHAB runtime (Items linked, events on the bus). Prints events and speed twice: with
/// nobody subscribed to the bus, and with one subscriber that receives every event.
enum Benchmark {
    static func run(days: Int) async throws -> String {
        let quiet = try await measure(days: days, subscribed: false)
        let heard = try await measure(days: days, subscribed: true)
        return """
        bench: 1 flat, heating at 21 °C, diurnal outdoor 2 ± 5 °C (seed 42), \(days) simulated day(s)
        no subscriber:  \(quiet)
        one subscriber: \(heard)

        """
    }

    /// One run; with `subscribed`, a subscriber receives every bus event (each delivery is a kernel event).
    private static func measure(days: Int, subscribed: Bool) async throws -> String {
        let calendar = try LocalCalendar(identifier: "Europe/Budapest")
        let start = try calendar.parseInstant("2026-01-01T00:00")
        let kernel = SimulationKernel(start: start)
        let runtime = OpenHABRuntime(scheduler: kernel)
        let received = Atomic<Int>(0)
        if subscribed { runtime.events.subscribe { _ in received.add(1, ordering: .relaxed) } }
        let api = InProcessOpenHABAPI(runtime: runtime, policy: OpenHABAccessPolicy(tokens: ["bench": .administrator]),
                                      credentials: OpenHABCredentials(openHABToken: "bench"))
        let weather = CityWeather(base: .diurnal(try DiurnalWeather(meanC: 2, amplitudeK: 5, minAtHour: 5, noiseK: 0.5,
                                                                     seed: 42, city: "Budapest", calendar: calendar)))
        let zone = try ThermalZone(
            id: "flat-1",
            configuration: try ZoneConfiguration(parameters: try ZoneParameters(uaWPerK: 80, capacitanceKWhPerK: 2.3), initialC: 20),
            kernel: kernel, outdoor: WeatherOutdoorTemperature(weather: weather))
        let heating = try await ZoneDeviceHandler.install(
            .thermostat(try ThermostatConfiguration(mode: .heating, powerW: 2000, setpointC: 21)),
            deviceID: "heating", thingUID: try ThingUID("twin:thermostat:flat-1:heating"), in: zone)
        try await runtime.addThing(heating.thing, handler: heating)
        try await linkEveryChannel(listing: "flat-1", api: api)
        _ = try await api.sendCommand("flat_1_heating_switch", "ON")

        let end = start + .days(Int64(days))
        let clock = ContinuousClock()  // wall-clock: measures the benchmark, never drives the simulation
        let began = clock.now
        try await kernel.run(until: end)
        let elapsed = began.duration(to: clock.now)
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let events = kernel.eventsProcessed
        let busEvents = runtime.events.publishedCount
        let energy = try await zone.reading("heating").energyKWh
        return "heating energy \(DecimalNumber(energy, fractionDigits: 3)) kWh, kernel events \(events), bus events \(busEvents), "
            + "received \(received.load(ordering: .relaxed)), wall \(DecimalNumber(wall, fractionDigits: 3)) s, "
            + "\(Int((end - start).seconds / max(wall, 1e-9))) simulated s per wall s, \(Int(Double(events) / max(wall, 1e-9))) kernel events/s"
    }
}
