import Simulation
import Synchronization
@testable import SmartHome

/// A small thermostat-like handler for tests: a switch, a setpoint clamped to 5–30 °C and a
/// read-only temperature. It records every command it receives.
actor FakeThermostat: ThingHandler {
    let uid: ThingUID
    private var callback: (any ThingHandlerCallback)?
    private(set) var received: [String] = []
    private var isOn = false
    private var setpoint = 21.0
    private var online = true

    init(uid: ThingUID) { self.uid = uid }

    func channel(_ id: String) -> ChannelUID {
        // Force-unwrap is fine in tests: ids are literals.
        try! ChannelUID(thing: uid, id: id)
    }

    var thing: Thing {
        Thing(uid: uid, label: "Heating", channels: [
            Channel(uid: channel("switch"), channelTypeUID: try! ChannelTypeUID("twin:switch"), itemType: .switchItem, label: "Switch"),
            Channel(uid: channel("setpoint"), channelTypeUID: try! ChannelTypeUID("twin:setpoint"), itemType: .numberItem(.temperature),
                    label: "Setpoint", stateDescription: StateDescription(minimum: 5, maximum: 30, step: 0.5, pattern: "%.1f %unit%")),
            Channel(uid: channel("temperature"), itemType: .numberItem(.temperature), label: "Temperature",
                    stateDescription: StateDescription(pattern: "%.1f %unit%", readOnly: true)),
        ])
    }

    func initialize(callback: any ThingHandlerCallback) async {
        self.callback = callback
        await callback.statusUpdated(uid, status: .online)
        await reportAll()
    }

    func handleCommand(_ command: Command, for channel: ChannelUID) async {
        received.append("\(channel.id)=\(command)")
        guard online else { return }
        switch (channel.id, command) {
        case (_, .refresh):
            await reportAll()
        case ("switch", .onOff(let v)):
            isOn = v.isOn
            await callback?.stateUpdated(self.channel("switch"), state: .onOff(v))
        case ("setpoint", let c):
            let value: Double?
            switch c {
            case .decimal(let n): value = n.value
            case .quantity(let q): value = q.converted(to: .celsius)?.value
            default: value = nil
            }
            guard let value else { return }
            setpoint = min(30, max(5, value))
            await callback?.stateUpdated(self.channel("setpoint"), state: .quantity(Quantity(DecimalNumber(setpoint), .celsius)))
        default:
            break
        }
    }

    func setOnline(_ online: Bool) async {
        self.online = online
        await callback?.statusUpdated(uid, status: online ? .online : ThingStatusInfo(.offline, .communicationError, description: "no answer"))
    }

    func reportTemperature(_ celsius: Double) async {
        await callback?.stateUpdated(channel("temperature"), state: .quantity(Quantity(DecimalNumber(celsius, fractionDigits: 1), .celsius)))
    }

    /// Reports several channels in one ``ThingHandlerCallback/statesUpdated(_:)`` batch.
    func reportBatch(_ updates: [(id: String, state: State)]) async {
        guard let callback else { return }
        await callback.statesUpdated(updates.map { (callback.handle(for: channel($0.id)), $0.state) })
    }

    private func reportAll() async {
        await callback?.stateUpdated(channel("switch"), state: .onOff(OnOff(isOn)))
        await callback?.stateUpdated(channel("setpoint"), state: .quantity(Quantity(DecimalNumber(setpoint), .celsius)))
        await callback?.stateUpdated(channel("temperature"), state: .quantity(Quantity(DecimalNumber(19.5, fractionDigits: 1), .celsius)))
    }
}

/// Records bus events as `topic payload` lines.
final class EventLog: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ event: OpenHABEvent) { lines.withLock { $0.append("\(event.topic) \(event.payload)") } }
    var all: [String] { lines.withLock { $0 } }
    func clear() { lines.withLock { $0.removeAll() } }
}

/// A runtime with one fake thermostat Thing whose three channels are linked to Items, built
/// through the REST-shaped API exactly as the home service will do it. Events reach ``log``
/// when the kernel runs (``events()``, ``clearEvents()``), as openHAB delivers them after the call.
struct TestWorld {
    let kernel = SimulationKernel(start: .epoch)
    let runtime: OpenHABRuntime
    let device: FakeThermostat
    let api: InProcessOpenHABAPI
    let log = EventLog()

    static let adminToken = "admin-token"
    static let userToken = "user-token"

    init(linkItems: Bool = true) async throws {
        runtime = OpenHABRuntime(scheduler: kernel, calendar: try LocalCalendar(identifier: "Europe/Budapest"))
        device = FakeThermostat(uid: try ThingUID("twin:thermostat:flat-1:heating"))
        let policy = OpenHABAccessPolicy(tokens: [Self.adminToken: .administrator, Self.userToken: .user])
        api = InProcessOpenHABAPI(runtime: runtime, baseURL: "http://host:8080", policy: policy,
                                  credentials: OpenHABCredentials(openHABToken: Self.adminToken))
        try await runtime.addThing(await device.thing, handler: device)
        if linkItems {
            for (id, type) in [("switch", "Switch"), ("setpoint", "Number:Temperature"), ("temperature", "Number:Temperature")] {
                let name = "flat_1_heating_\(id)"
                _ = try await api.putItem(name, body: ItemDTO(type: type, name: name))
                _ = try await api.putLink(itemName: name, channelUID: "twin:thermostat:flat-1:heating:\(id)", body: nil)
            }
        }
        let log = self.log
        runtime.events.subscribe { log.add($0) }
    }

    /// Runs the kernel `duration` ahead (events are written in Budapest time: the epoch is `01:00:00+01:00`).
    func advance(_ duration: SimDuration) async throws { try await kernel.run(until: kernel.now + duration) }

    /// Runs the deliveries due at the current instant.
    func settle() async throws { try await kernel.run(until: kernel.now) }

    /// The events delivered so far, after running the pending deliveries.
    func events() async throws -> [String] {
        try await settle()
        return log.all
    }

    /// Delivers what is pending, then forgets every event so far.
    func clearEvents() async throws {
        try await settle()
        log.clear()
    }

    func state(_ name: String) async throws -> String {
        try await api.getItemState(name).body
    }
}
