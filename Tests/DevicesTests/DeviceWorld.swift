import Synchronization
import Physics
import Simulation
import SmartHome
@testable import Devices

/// Records (time, item, value) for state changes, using the kernel's clock.
final class ChangeLog: Sendable {
    struct Change: Sendable { let at: SimInstant; let item: String; let value: String }
    private let changes = Mutex<[Change]>([])
    func add(_ change: Change) { changes.withLock { $0.append(change) } }
    func values(_ item: String) -> [Change] { changes.withLock { $0.filter { $0.item == item } } }
}

/// One flat: a heating thermostat, a cooler, a plug and a lock, built through the openHAB API.
struct DeviceWorld {
    static let start = SimInstant(unixSeconds: 1_767_913_200)  // 2026-01-08T23:00Z
    let kernel = SimulationKernel(start: DeviceWorld.start)
    let runtime: OpenHABRuntime
    let api: InProcessOpenHABAPI
    let zone: ThermalZone
    let heating: ZoneDeviceHandler
    let cooling: ZoneDeviceHandler
    let plug: ZoneDeviceHandler
    let lock: SmartLockHandler
    let log = ChangeLog()
    let parameters: ZoneParameters

    init(outdoorC: Double = 0, initialC: Double = 16) async throws {
        runtime = OpenHABRuntime(scheduler: kernel)
        api = InProcessOpenHABAPI(runtime: runtime, policy: OpenHABAccessPolicy(tokens: ["admin": .administrator]),
                                  credentials: OpenHABCredentials(openHABToken: "admin"))
        parameters = try ZoneParameters(uaWPerK: 80, capacitanceKWhPerK: 2.3)
        zone = try ThermalZone(id: "flat-1", configuration: try ZoneConfiguration(parameters: parameters, initialC: initialC),
                               kernel: kernel, outdoor: ConstantOutdoorTemperature(celsius: outdoorC))
        heating = try await ZoneDeviceHandler.install(
            .thermostat(try ThermostatConfiguration(mode: .heating, powerW: 2000, setpointC: 21, hysteresisK: 0.5)),
            deviceID: "heating", thingUID: try ThingUID("twin:thermostat:flat-1:heating"), in: zone)
        cooling = try await ZoneDeviceHandler.install(
            .thermostat(try ThermostatConfiguration(mode: .cooling, powerW: 900, cop: 3, setpointC: 25, hysteresisK: 0.5)),
            deviceID: "ac", thingUID: try ThingUID("twin:thermostat:flat-1:ac"), in: zone)
        plug = try await ZoneDeviceHandler.install(
            .smartPlug(try SmartPlugConfiguration(loadW: 60, standbyW: 0.5, initiallyOn: false)),
            deviceID: "plug", thingUID: try ThingUID("twin:plug:flat-1:plug"), in: zone)
        lock = SmartLockHandler(thingUID: try ThingUID("twin:lock:flat-1:door"), kernel: kernel)
        for handler in [heating, cooling, plug] as [ZoneDeviceHandler] {
            try await runtime.addThing(handler.thing, handler: handler)
        }
        try await runtime.addThing(lock.thing, handler: lock)
        for thing in try await api.getThings().body {
            for channel in thing.channels {
                let name = try ItemName(path: "flat-1/\(thing.uid.split(separator: ":").last ?? "")/\(channel.id)").rawValue
                _ = try await api.putItem(name, body: ItemDTO(type: channel.itemType, name: name))
                _ = try await api.putLink(itemName: name, channelUID: channel.uid, body: nil)
            }
        }
        let log = self.log, kernel = self.kernel
        runtime.events.subscribe(EventFilter(topics: ["openhab/items/*/statechanged"])) { event in
            if case .itemStateChanged(let name, let state, _) = event.kind {
                log.add(.init(at: kernel.now, item: name.rawValue, value: state.description))
            }
        }
    }

    func state(_ item: String) async throws -> String { try await api.getItemState(item).body }
    func command(_ item: String, _ value: String) async throws { _ = try await api.sendCommand(item, value) }
    func run(_ duration: SimDuration) async throws { try await kernel.advance(by: duration) }
}
