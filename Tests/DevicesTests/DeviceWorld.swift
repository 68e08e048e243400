import Synchronization
import Testing
import Physics
import Simulation
import SmartHome
import TwinTesting
@testable import Devices

/// Records (time, item, value) for state changes, using the kernel's clock.
final class ChangeLog: Sendable {
    struct Change: Sendable { let at: SimInstant; let item: String; let value: String }
    private let changes = Mutex<[Change]>([])
    func add(_ change: Change) { changes.withLock { $0.append(change) } }
    func values(_ item: String) -> [Change] { changes.withLock { $0.filter { $0.item == item } } }
}

/// One flat: a heating thermostat, a cooler (`ac`), a plug and a lock (`door`), built by the one world builder
/// (`World`, through TwinTesting's `TestWorld`) from a small scenario, so Items and Links come from the home service through the
/// openHAB API exactly as in a scenario run. Outdoor temperature is constant.
struct DeviceWorld {
    static let start = SimInstant(unixSeconds: 1_767_913_200)  // 2026-01-08T23:00Z = 2026-01-09T00:00 in Budapest
    let world: TestWorld
    var kernel: SimulationKernel { world.kernel }
    var runtime: OpenHABRuntime { world.runtime }
    var api: InProcessOpenHABAPI { world.api }
    let zone: ThermalZone
    let heating: ZoneDeviceHandler
    let cooling: ZoneDeviceHandler
    let plug: ZoneDeviceHandler
    let lock: SmartLockHandler
    let log = ChangeLog()
    let parameters: ZoneParameters

    init(outdoorC: Double = 0, initialC: Double = 16) async throws {
        parameters = try ZoneParameters(uaWPerK: 80, capacitanceKWhPerK: 2.3)
        let world = try await TestWorld(json: """
            { "version": 1, "name": "Device world", "timeZone": "Europe/Budapest",
              "start": "2026-01-09T00:00", "end": "2027-01-09T00:00",
              "weather": { "Budapest": { "constantC": \(outdoorC) } },
              "users": [ { "id": "host", "name": "Hanna Host" } ],
              "listings": [ { "id": "flat-1", "owner": "host", "name": "Flat", "city": "Budapest", "country": "Hungary", "capacity": 2,
                "thermal": { "uaWPerK": 80, "capacitanceKWhPerK": 2.3, "initialC": \(initialC) },
                "devices": [
                  { "id": "heating", "type": "heating", "powerW": 2000, "setpointC": 21, "hysteresisK": 0.5 },
                  { "id": "ac", "type": "cooling", "powerW": 900, "cop": 3, "setpointC": 25, "hysteresisK": 0.5 },
                  { "id": "plug", "type": "smartPlug", "loadW": 60, "standbyW": 0.5, "on": false },
                  { "id": "door", "type": "lock" }
                ] } ] }
            """, file: "device-world.json")
        self.world = world
        func device(_ id: String) throws -> ZoneDeviceHandler { try #require(world.zoneDevices["flat-1/\(id)"]) }
        zone = try #require(world.zones["flat-1"])
        heating = try device("heating")
        cooling = try device("ac")
        plug = try device("plug")
        lock = try #require(world.locks["flat-1/door"])
        let log = self.log, kernel = world.kernel
        world.runtime.events.subscribe(EventFilter(topics: ["openhab/items/*/statechanged"])) { event in
            if case .itemStateChanged(let name, let state, _, _, _) = event.kind {
                log.add(.init(at: kernel.now, item: name.rawValue, value: state.description))
            }
        }
    }

    func state(_ item: String) async throws -> String { try await api.getItemState(item).body }
    func command(_ item: String, _ value: String) async throws { _ = try await api.sendCommand(item, value) }
    func run(_ duration: SimDuration) async throws { try await kernel.advance(by: duration) }
}
