import Devices
import Physics
import Simulation
import SmartHome

/// The built-in demo: one flat in Budapest, wired exactly as the booking services will wire it
/// (Things → Items → Links through the openHAB API), driven through a short script in virtual time.
enum Demo {
    /// Runs the demo for `days` simulated days and returns the report to print.
    /// - Throws: any error of the layers below (none expected with the built-in world).
    static func run(days: Int) async throws -> String {
        let calendar = try LocalCalendar(identifier: "Europe/Budapest")
        let start = try calendar.parseInstant("2026-01-09T00:00")
        let kernel = SimulationKernel(start: start)
        let runtime = OpenHABRuntime(scheduler: kernel)
        let api = InProcessOpenHABAPI(runtime: runtime, policy: OpenHABAccessPolicy(tokens: ["demo": .administrator]),
                                      credentials: OpenHABCredentials(openHABToken: "demo"))

        // The world: a 50 m² flat, −2 °C outside, heating, a plug with a 60 W lamp, a lock.
        let zone = try ThermalZone(
            id: "flat-1",
            configuration: try ZoneConfiguration(parameters: try ZoneParameters(uaWPerK: 80, capacitanceKWhPerK: 2.3), initialC: 16),
            kernel: kernel, outdoor: ConstantOutdoorTemperature(celsius: -2))
        let heating = try await ZoneDeviceHandler.install(
            .thermostat(try ThermostatConfiguration(mode: .heating, powerW: 2000, setpointC: 21)),
            deviceID: "heating", thingUID: try ThingUID("twin:thermostat:flat-1:heating"), label: "Heating", in: zone)
        let plug = try await ZoneDeviceHandler.install(
            .smartPlug(try SmartPlugConfiguration(loadW: 60, standbyW: 0.5)),
            deviceID: "plug", thingUID: try ThingUID("twin:plug:flat-1:plug"), label: "Lamp", in: zone)
        let lock = SmartLockHandler(thingUID: try ThingUID("twin:lock:flat-1:door"), label: "Front door", location: "flat-1", kernel: kernel)
        try await runtime.addThing(heating.thing, handler: heating)
        try await runtime.addThing(plug.thing, handler: plug)
        try await runtime.addThing(lock.thing, handler: lock)
        try await linkEveryChannel(listing: "flat-1", api: api)

        let counter = EventCounter()
        runtime.events.subscribe { event in counter.count(event) }

        // The script: a back-to-back stay every night, 15:00 → 10:00, with the heating managed around it.
        let logBox = LogBox()
        func at(_ day: Int, _ time: String, _ what: String, _ action: @escaping @Sendable () async -> Void) throws {
            let date = try LocalCalendar.parseDate("2026-01-09").adding(days: day)
            let instant = calendar.instant(on: date, at: try LocalCalendar.parseTime(time))
            kernel.schedule(at: instant, label: what) { now in
                await action()
                logBox.append("\(calendar.localDateTime(at: now))  \(what)")
            }
        }
        @Sendable func command(_ item: String, _ value: String) async { _ = try? await api.sendCommand(item, value) }
        for day in 0..<days {
            try at(day, "13:00", "preheat: heating ON at 21 °C") {
                await command("flat_1_heating_setpoint", "21")
                await command("flat_1_heating_switch", "ON")
            }
            try at(day, "15:00", "guests arrive: door unlocked, 2 guests") {
                await command("flat_1_door_lock", "OFF")
                await zone.setGuests(2)
            }
            try at(day, "18:00", "lamp ON") { await command("flat_1_plug_switch", "ON") }
            try at(day, "23:00", "lamp OFF, night setpoint 19 °C") {
                await command("flat_1_plug_switch", "OFF")
                await command("flat_1_heating_setpoint", "19")
            }
            try at(day + 1, "07:00", "morning setpoint 21 °C") { await command("flat_1_heating_setpoint", "21") }
            try at(day + 1, "10:00", "guests leave: door locked, heating OFF") {
                await command("flat_1_door_lock", "ON")
                await zone.setGuests(0)
                await command("flat_1_heating_switch", "OFF")
            }
        }

        let end = start + .days(Int64(days))
        let clock = ContinuousClock()  // wall-clock: measures the run's speed, never drives the simulation
        let began = clock.now
        try await kernel.run(until: end)
        let wall = began.duration(to: clock.now)
        let log = logBox.lines

        var out: [String] = []
        out.append("RentalTwin demo — flat-1 in Budapest, \(days) simulated day(s) from 2026-01-09, −2 °C outside")
        out.append("")
        out.append("Script (local time):")
        out += log.prefix(12).map { "  " + $0 }
        if log.count > 12 { out.append("  … \(log.count - 12) more steps") }
        out.append("")
        out.append("openHAB Items at the end:")
        for item in try await api.getItems().body { out.append("  \(item.name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(item.state)") }
        out.append("")
        let heatingKWh = try await zone.reading("heating").energyKWh
        let plugKWh = try await zone.reading("plug").energyKWh
        let meanC = await zone.temperatureIntegralKelvinSeconds() / (end - start).seconds
        out.append("Energy (exact): heating \(DecimalNumber(heatingKWh, fractionDigits: 3)) kWh, plug \(DecimalNumber(plugKWh, fractionDigits: 3)) kWh; mean indoor \(DecimalNumber(meanC, fractionDigits: 2)) °C")
        out.append("Bus events: \(counter.summary)")
        let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) * 1e-18
        let simSeconds = (end - start).seconds
        out.append("Kernel: \(kernel.eventsProcessed) events in \(DecimalNumber(wallSeconds, fractionDigits: 3)) s wall → "
                   + "\(Int(simSeconds / max(wallSeconds, 1e-9))) simulated s per wall s, "
                   + "\(Int(Double(kernel.eventsProcessed) / max(wallSeconds, 1e-9))) events/s")
        return out.joined(separator: "\n") + "\n"
    }
}

import Synchronization

/// Gives every channel of every Thing an Item named after `listing/device/channel` and links
/// them, through the openHAB API only (`GET things` → `PUT item` → `PUT link`).
func linkEveryChannel(listing: String, api: some OpenHABAPI) async throws {
    for thing in try await api.getThings().body {
        let device = thing.uid.split(separator: ":").last.map(String.init) ?? thing.uid
        for channel in thing.channels {
            let name = try ItemName(path: "\(listing)/\(device)/\(channel.id)").rawValue
            _ = try await api.putItem(name, body: ItemDTO(type: channel.itemType, name: name, label: channel.label))
            _ = try await api.putLink(itemName: name, channelUID: channel.uid, body: nil)
        }
    }
}

/// Counts bus events by type (thread-safe; the bus calls it from the simulation task).
final class EventCounter: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    func count(_ event: OpenHABEvent) { counts.withLock { $0[event.type, default: 0] += 1 } }
    /// `Type n, …` sorted by type.
    var summary: String { counts.withLock { $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") } }
}

/// Collects the script's log lines.
final class LogBox: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}
