import Simulation
import SmartHome
import Synchronization

/// The Thing handler of a device that lives in a ``ThermalZone``: a heating or cooling
/// thermostat (`switch`, `setpoint`, `temperature`, `power`, `energy`) or a smart plug
/// (`switch`, `power`, `energy`, `temperature`).
///
/// Commands go to the zone, which owns the physics; the zone tells the handler when its
/// reading changes and the handler reports the channels whose text changed. While OFFLINE
/// (fault injection) the device keeps running on its last settings, ignores commands and
/// reports nothing; back ONLINE it reports every channel.
///
/// What reporting needs (the callback, online or not, what each channel last reported) sits
/// behind a `Mutex`, so the zone reports its updates through ``zoneDidUpdateWithoutHop(_:)``
/// on its own executor, without entering this actor.
public actor ZoneDeviceHandler: ThingHandler, ZoneDeviceObserver {
    /// What kind of device this is.
    public enum Kind: Sendable, Hashable {
        /// A heating or cooling thermostat.
        case thermostat(ThermostatConfiguration)
        /// A smart plug with its load.
        case smartPlug(SmartPlugConfiguration)
    }

    /// The Thing this handler serves.
    public nonisolated let thing: Thing
    /// The device id within its zone.
    public nonisolated let deviceID: String
    /// Thermostat or plug.
    public nonisolated let kind: Kind
    private let zone: ThermalZone
    /// The Thing's channels in declaration order with their UIDs, worked out once (not per report).
    private let reported: [(channel: DeviceChannel, uid: ChannelUID)]

    /// The callback in a class box: taking it out of the lock for a report is then one retain,
    /// not a copy of an existential through its value witnesses.
    final class CallbackBox: Sendable {
        let callback: any ThingHandlerCallback
        /// The callback when it is the openHAB runtime, which the zone reports to with a plain call
        /// (``OpenHABRuntime/stateReported(_:from:route:at:)``) rather than an async one through the protocol.
        let runtime: OpenHABRuntime?
        init(_ callback: any ThingHandlerCallback) {
            self.callback = callback
            runtime = callback as? OpenHABRuntime
        }
    }

    /// The handler's reporting state.
    private struct Reporting {
        var box: CallbackBox?
        var callback: (any ThingHandlerCallback)? { box?.callback }
        var isOnline = true
        /// Per channel, indexed like ``reported``, what it last reported (one array, so a report
        /// touches one buffer).
        var channels: [ChannelReport]
        /// The batch being reported, kept between reports so that its storage is reused (a report
        /// hands out a copy; once the runtime is done with it, the storage is unshared again).
        var batch: [(channel: ChannelHandle, state: State)] = []
    }

    /// One channel's reporting state.
    private struct ChannelReport {
        let channel: DeviceChannel
        /// The channel as the callback knows it (its handle, asked for once in ``initialize(callback:)``).
        var handle: ChannelHandle
        /// With the openHAB runtime as the callback: the channel's route there, kept between reports
        /// (``OpenHABRuntime/stateReported(_:from:route:at:)``).
        var route = ChannelRoute()
        /// The state last reported.
        var published: State?
        /// The input (``inputKey(of:in:)``) the channel's text was last worked out from: the same
        /// input prints the same text, so an unforced report skips formatting it.
        var formattedFrom: InputKey?
        /// With ``formattedFrom``: the bits of a reading value (``sourceBits(of:in:)``) whose input is
        /// ``formattedFrom`` — the same bits, the same input, so an unforced report skips working it out.
        var sourceBits: UInt64 = 0
    }

    private let reporting: Mutex<Reporting>

    private init(thing: Thing, deviceID: String, kind: Kind, zone: ThermalZone) {
        self.thing = thing
        self.deviceID = deviceID
        self.kind = kind
        self.zone = zone
        reported = thing.channels.compactMap { channel in DeviceChannel(rawValue: channel.id).map { ($0, channel.uid) } }
        reporting = Mutex(Reporting(channels: reported.map { ChannelReport(channel: $0.channel, handle: ChannelHandle($0.uid)) }))
    }

    /// Creates the handler and its Thing and installs the device in `zone`.
    /// - Parameters:
    ///   - thingUID: e.g. `twin:thermostat:flat-1:heating`.
    ///   - label: the Thing's label.
    /// - Throws: ``DevicesError`` `device.duplicate` if the zone already has `deviceID`.
    public static func install(_ kind: Kind, deviceID: String, thingUID: ThingUID, label: String? = nil,
                               in zone: ThermalZone) async throws(DevicesError) -> ZoneDeviceHandler {
        let ids: [DeviceChannel]
        var range: ClosedRange<Double>?
        var properties: [String: String] = [:]
        switch kind {
        case .thermostat(let c):
            ids = [.switch, .setpoint, .temperature, .power, .energy]
            range = c.setpointRange
            properties = ["mode": c.mode.rawValue, "powerW": "\(c.powerW)"]
        case .smartPlug(let c):
            ids = [.switch, .power, .energy, .temperature]
            properties = ["loadW": "\(c.loadW)", "standbyW": "\(c.standbyW)"]
        }
        let channels = ids.compactMap { $0.channel(of: thingUID, setpointRange: range) }
        let thing = Thing(uid: thingUID, label: label, channels: channels, properties: properties, location: zone.id)
        let handler = ZoneDeviceHandler(thing: thing, deviceID: deviceID, kind: kind, zone: zone)
        switch kind {
        case .thermostat(let c): try await zone.addThermostat(deviceID, c, observer: handler)
        case .smartPlug(let c): try await zone.addPlug(deviceID, c, observer: handler)
        }
        return handler
    }

    /// Whether the device answers (fault injection state).
    public var online: Bool { isOnline }

    private nonisolated var isOnline: Bool { reporting.withLock { $0.isOnline } }

    // MARK: ThingHandler

    public func initialize(callback: any ThingHandlerCallback) async {
        let online = reporting.withLock { reporting in
            reporting.box = CallbackBox(callback)
            for index in reporting.channels.indices {
                reporting.channels[index].handle = callback.handle(for: reporting.channels[index].handle.uid)
                reporting.channels[index].route = ChannelRoute()
            }
            return reporting.isOnline
        }
        await callback.statusUpdated(thing.uid, status: ReachabilityStatus.info(online: online))
        await reportAll()
    }

    /// Lets go of the callback (the runtime), as openHAB's `dispose` ends a handler's life.
    public func dispose() async {
        reporting.withLock { $0.box = nil }
    }

    public func handleCommand(_ command: Command, for channelUID: ChannelUID) async {
        guard isOnline, let channel = DeviceChannel(rawValue: channelUID.id) else { return }
        switch (channel, command) {
        case (_, .refresh):
            await report(channel, force: true)
        case (.switch, .onOff(let value)):
            try? await zone.setSwitch(deviceID, on: value.isOn)
            await report(.switch, force: true)
        case (.setpoint, let command):
            guard case .thermostat = kind, let celsius = Self.celsius(command) else { return }
            _ = try? await zone.setSetpoint(deviceID, celsius: celsius)
            await report(.setpoint, force: true)  // the value it actually took, clamped
        default:
            break  // read-only channels ignore commands
        }
    }

    // MARK: Fault injection

    /// Makes the device stop (`false`) or resume (`true`) answering.
    public func setOnline(_ online: Bool) async {
        let (changed, callback) = reporting.withLock { reporting in
            guard online != reporting.isOnline else { return (false, reporting.callback) }
            reporting.isOnline = online
            return (true, reporting.callback)
        }
        guard changed else { return }
        await callback?.statusUpdated(thing.uid, status: ReachabilityStatus.info(online: online))
        if online { await reportAll() }
    }

    // MARK: ZoneDeviceObserver

    public func zoneDidUpdate(_ reading: DeviceReading) async {
        await zoneDidUpdateWithoutHop(reading)
    }

    /// Reports the channels whose text `reading` changes, in one batch, on the caller's executor
    /// (the zone's); nothing while OFFLINE or before ``initialize(callback:)``.
    public nonisolated(nonsending) func zoneDidUpdateWithoutHop(_ reading: DeviceReading) async {
        guard let (box, updates) = reportNow(reading, at: nil) else { return }
        await box.callback.statesUpdated(updates)
    }

    /// ``zoneDidUpdateWithoutHop(_:)`` as a plain call, with the clock's `now` read by the caller (`nil`: the
    /// runtime's clock): the channels whose text `reading` changes, recorded as reported, go to the openHAB
    /// runtime at once, channel by channel inside this handler's lock, each through the route the channel keeps
    /// (``OpenHABRuntime/stateReported(_:from:route:at:)``: no batch, no table look-up); for another callback
    /// they are returned as one batch with the callback, for the caller to await. Nothing while OFFLINE or
    /// before ``initialize(callback:)``. The zone calls this, sparing an async call per device and event.
    nonisolated func reportNow(_ reading: DeviceReading, at now: SimInstant?)
        -> (box: CallbackBox, updates: [(channel: ChannelHandle, state: State)])? {
        reporting.withLock { reporting -> (CallbackBox, [(channel: ChannelHandle, state: State)])? in
            guard reporting.isOnline, let box = reporting.box else { return nil }
            guard let runtime = box.runtime else {
                let updates = Self.fill(&reporting, reported.indices, in: reading, force: false)
                return updates.isEmpty ? nil : (box, updates)
            }
            // The runtime touches no handler while it updates Items (events are delivered later), so it is
            // called inside this lock.
            let now = now ?? runtime.now
            // Through the buffer: the array's subscript checked its uniqueness at every channel, twice.
            reporting.channels.withUnsafeMutableBufferPointer { channels in
                for index in channels.indices {
                    guard let state = Self.change(&channels[index], in: reading, force: false) else { continue }
                    inPlace(&channels[index]) { runtime.stateReported(state, from: $0.handle, route: &$0.route, at: now) }
                }
            }
            return nil
        }
    }

    // MARK: Reporting

    private func reportAll() async {
        guard isOnline, let reading = try? await zone.reading(deviceID) else { return }
        await send(reported.indices, in: reading, force: true)
    }

    private func report(_ channel: DeviceChannel, force: Bool) async {
        guard let index = reported.firstIndex(where: { $0.channel == channel }),
              let reading = try? await zone.reading(deviceID) else { return }
        await send(index..<index + 1, in: reading, force: force)
    }

    /// Reports the channels `reported[indices]` from `reading` in one batch (see ``batch(_:in:force:)``).
    private func send(_ indices: Range<Int>, in reading: DeviceReading, force: Bool) async {
        let (box, updates) = batch(indices, in: reading, force: force)
        guard !updates.isEmpty else { return }
        await box?.callback.statesUpdated(updates)
    }

    /// The channels `reported[indices]` to report from `reading`, each unless `force` is false and its
    /// text is unchanged, recorded as reported, with the callback to report them to.
    private nonisolated func batch(_ indices: Range<Int>, in reading: DeviceReading, force: Bool)
        -> (box: CallbackBox?, updates: [(channel: ChannelHandle, state: State)]) {
        reporting.withLock { reporting in (reporting.box, Self.fill(&reporting, indices, in: reading, force: force)) }
    }

    /// The batch of ``batch(_:in:force:)``, made in `reporting`'s reused storage.
    private static func fill(_ reporting: inout Reporting, _ indices: Range<Int>, in reading: DeviceReading, force: Bool)
        -> [(channel: ChannelHandle, state: State)] {
        reporting.batch.removeAll(keepingCapacity: true)
        for index in indices {
            guard let state = change(&reporting.channels[index], in: reading, force: force) else { continue }
            reporting.batch.append((reporting.channels[index].handle, state))
        }
        return reporting.batch
    }

    /// The state `report`'s channel reports from `reading`, recorded as reported, or `nil` when
    /// `force` is false and its text is unchanged.
    private static func change(_ report: inout ChannelReport, in reading: DeviceReading, force: Bool) -> State? {
        let bits = sourceBits(of: report.channel, in: reading)
        if !force, report.formattedFrom != nil, report.sourceBits == bits { return nil }
        let input = inputKey(of: report.channel, bits: bits, in: reading)
        report.sourceBits = bits  // whatever follows, `formattedFrom` is (or stays) this input
        // `published` is the state made from `formattedFrom`: an unchanged input is an unchanged text.
        guard force || report.formattedFrom != input else { return nil }
        let state: State
        if case .fixed(let key) = input, report.channel == .energy {
            state = DeviceChannel.energy(key: key)  // the key is the rounded reading: not rounded twice
        } else {
            state = Self.state(of: report.channel, in: reading)
        }
        report.formattedFrom = input
        guard force || !sameText(report.published, state) else { return nil }
        report.published = state
        return state
    }

    /// Whether `old` prints as `new` does; a quantity compares its number's text and its unit
    /// without printing the whole state.
    private static func sameText(_ old: State?, _ new: State) -> Bool {
        // No switch over a tuple of both: that copies the states.
        guard let old else { return false }
        if case .quantity(let a) = old, case .quantity(let b) = new { return a.unit == b.unit && a.number.text == b.number.text }
        return old.description == new.description
    }

    /// The reading value `channel`'s state is made from, as bits: equal bits give equal inputs.
    private static func sourceBits(of channel: DeviceChannel, in reading: DeviceReading) -> UInt64 {
        switch channel {
        case .switch: return reading.isOn ? 1 : 0
        case .setpoint: return (reading.setpointC ?? 0).bitPattern
        case .temperature: return reading.reportedTemperatureC.bitPattern
        case .power: return reading.powerW.bitPattern
        case .energy: return reading.energyKWh.bitPattern
        case .lock, .door, .battery: return 0
        }
    }

    /// The part of `reading` that `channel`'s state is made from (`bits`: its ``sourceBits(of:in:)``):
    /// equal keys give equal states and texts.
    private static func inputKey(of channel: DeviceChannel, bits: UInt64, in reading: DeviceReading) -> InputKey {
        switch channel {
        // The reported temperature is already rounded to 0.1 K: its bits change exactly when its text can.
        case .switch, .setpoint, .temperature, .power, .lock, .door, .battery: return .bits(bits)
        case .energy: return .fixed(DeviceChannel.energyKey(reading.energyKWh))
        }
    }

    /// What a channel's state is made from: the reading's bits, or for a fixed-point channel the
    /// rounded number (a meter whose kWh change only past the third decimal keeps its key).
    enum InputKey: Equatable {
        case bits(UInt64)
        case fixed(FixedPointKey)
    }

    private static func state(of channel: DeviceChannel, in reading: DeviceReading) -> State {
        switch channel {
        case .switch: return .onOff(OnOff(reading.isOn))
        case .setpoint: return .quantity(Quantity(DecimalNumber(reading.setpointC ?? 0), .celsius))
        case .temperature: return reading.reportedTemperature
        case .power: return DeviceChannel.power(reading.powerW)
        case .energy: return DeviceChannel.energy(reading.energyKWh)
        case .lock, .door, .battery: return .undef
        }
    }

    /// A setpoint command in °C: a plain number is °C; a quantity is converted.
    static func celsius(_ command: Command) -> Double? {
        switch command {
        case .decimal(let n): return n.value
        case .quantity(let q): return q.converted(to: .celsius)?.value
        default: return nil
        }
    }
}
