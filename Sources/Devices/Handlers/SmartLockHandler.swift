import Simulation
import SmartHome

/// The Thing handler of a smart lock: `lock` (Switch, ON = locked), `door` (Contact) and
/// `battery` (percent).
///
/// Starts locked with the door CLOSED and the battery at 100 %. A lock or unlock command
/// runs the motor for 2 s of virtual time; then the bolt state is reported and the battery
/// drops 0.01 %. A newer command while the motor runs replaces the older one. While OFFLINE
/// the lock refuses every command (the bolt does not move).
public actor SmartLockHandler: ThingHandler {
    /// How long the motor takes.
    public static let motorTime = SimDuration.milliseconds(2_000)
    /// Battery used per completed operation, percent.
    public static let batteryPerOperation = 0.01

    /// The Thing this handler serves.
    public nonisolated let thing: Thing
    private let kernel: SimulationKernel
    /// The UID of each of the Thing's channels, worked out once (not per report).
    private let channelUIDs: [DeviceChannel: ChannelUID]
    private var callback: (any ThingHandlerCallback)?
    private var isOnline = true
    private var motor: TimerID?
    /// Whether the bolt is thrown.
    public private(set) var isLocked = true
    /// Whether the door is open.
    public private(set) var isDoorOpen = false
    /// Battery level, percent.
    public private(set) var batteryPercent = 100.0
    /// Completed motor operations.
    public private(set) var operations = 0

    /// A lock Thing `thingUID` driven by `kernel`'s clock.
    public init(thingUID: ThingUID, label: String? = nil, location: String? = nil, kernel: SimulationKernel) {
        let channels = [DeviceChannel.lock, .door, .battery].compactMap { $0.channel(of: thingUID) }
        thing = Thing(uid: thingUID, label: label, channels: channels, location: location)
        self.kernel = kernel
        channelUIDs = Dictionary(uniqueKeysWithValues: channels.compactMap { c in DeviceChannel(rawValue: c.id).map { ($0, c.uid) } })
    }

    /// Whether the device answers.
    public var online: Bool { isOnline }

    /// Lets go of the callback (the runtime), as openHAB's `dispose` ends a handler's life.
    public func dispose() async { callback = nil }

    public func initialize(callback: any ThingHandlerCallback) async {
        self.callback = callback
        await callback.statusUpdated(thing.uid, status: ReachabilityStatus.info(online: isOnline))
        await reportAll()
    }

    public func handleCommand(_ command: Command, for channelUID: ChannelUID) async {
        guard isOnline, let channel = DeviceChannel(rawValue: channelUID.id) else { return }
        switch (channel, command) {
        case (_, .refresh):
            await reportAll()
        case (.lock, .onOff(let value)):
            if let motor { kernel.cancel(motor) }
            motor = kernel.schedule(after: Self.motorTime, label: "\(thing.uid) motor") { [self] _ in
                await self.motorFinished(locked: value.isOn)
            }
        default:
            break
        }
    }

    /// Opens or closes the door (a person, not a command). A locked door cannot be opened.
    /// - Returns: whether the door moved.
    @discardableResult
    public func setDoor(open: Bool) async -> Bool {
        guard open != isDoorOpen, !(open && isLocked) else { return false }
        isDoorOpen = open
        if isOnline { await send(.door, .openClosed(open ? .open : .closed)) }
        return true
    }

    /// Makes the lock stop (`false`) or resume (`true`) answering.
    public func setOnline(_ online: Bool) async {
        guard online != isOnline else { return }
        isOnline = online
        if !online, let motor {
            kernel.cancel(motor)  // the command is lost with the connection
            self.motor = nil
        }
        await callback?.statusUpdated(thing.uid, status: ReachabilityStatus.info(online: online))
        if online { await reportAll() }
    }

    private func motorFinished(locked: Bool) async {
        motor = nil
        isLocked = locked
        operations += 1
        batteryPercent = max(0, 100 - Double(operations) * Self.batteryPerOperation)
        await send(.lock, .onOff(OnOff(isLocked)))
        await send(.battery, batteryState)
    }

    private var batteryState: State { .quantity(Quantity(DecimalNumber(batteryPercent, fractionDigits: 2), .percent)) }

    private func reportAll() async {
        guard isOnline else { return }
        await send(.lock, .onOff(OnOff(isLocked)))
        await send(.door, .openClosed(isDoorOpen ? .open : .closed))
        await send(.battery, batteryState)
    }

    private func send(_ channel: DeviceChannel, _ state: State) async {
        guard let uid = channelUIDs[channel] else { return }
        await callback?.stateUpdated(uid, state: state)
    }
}
