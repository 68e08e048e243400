/// The device side of a Thing: receives commands for its channels and reports states and status.
///
/// Devices (thermostats, plugs, locks) implement this as actors. A handler never touches the
/// registries: it reports through the ``ThingHandlerCallback`` it is given in ``initialize(callback:)``,
/// exactly as an openHAB binding reports through its `ThingHandlerCallback`.
public protocol ThingHandler: Actor {
    /// Called once, when the Thing is added to the runtime. The handler reports its status
    /// (typically ONLINE) and the initial state of each channel through `callback`.
    func initialize(callback: any ThingHandlerCallback) async

    /// A command for one of the Thing's channels. Delivered while the Thing's handler is
    /// initialised (ONLINE, OFFLINE or UNKNOWN, as openHAB does); an OFFLINE device decides
    /// itself to ignore it.
    func handleCommand(_ command: Command, for channel: ChannelUID) async

    /// Called when the Thing is removed; the handler should cancel what it scheduled.
    func dispose() async
}

extension ThingHandler {
    /// Does nothing by default.
    public func dispose() async {}
}

/// What a ``ThingHandler`` reports to: openHAB's `ThingHandlerCallback`.
public protocol ThingHandlerCallback: Sendable {
    /// A channel has a new state; every Item linked to it is updated.
    func stateUpdated(_ channel: ChannelUID, state: State) async

    /// The handle of `channel` for ``statesUpdated(_:)``: a handler asks once per channel (when it
    /// initialises) and reports by handle from then on. The default handle carries the UID only.
    func handle(for channel: ChannelUID) -> ChannelHandle

    /// Several channels have new states, reported together: the same as one ``stateUpdated(_:state:)``
    /// call per update, in order — which is what the default implementation does.
    ///
    /// It runs on the caller's executor (`nonisolated(nonsending)`), so a handler reporting a batch
    /// does not leave its actor; ``OpenHABRuntime`` updates the linked Items of the whole batch
    /// without a hop, finding them through each handle's resolved slots rather than by UID and name.
    nonisolated(nonsending) func statesUpdated(_ updates: [(channel: ChannelHandle, state: State)]) async

    /// The Thing's status changed (e.g. ONLINE → OFFLINE, COMMUNICATION_ERROR).
    func statusUpdated(_ thing: ThingUID, status: ThingStatusInfo) async
}

extension ThingHandlerCallback {
    /// A handle that carries the UID only.
    public func handle(for channel: ChannelUID) -> ChannelHandle { ChannelHandle(channel) }

    /// Reports each update through ``stateUpdated(_:state:)``, in order.
    public nonisolated(nonsending) func statesUpdated(_ updates: [(channel: ChannelHandle, state: State)]) async {
        for (channel, state) in updates { await stateUpdated(channel.uid, state: state) }
    }
}

/// A channel as a ``ThingHandlerCallback`` knows it: its UID and, from ``OpenHABRuntime``, an index
/// into the runtime's table of channels, under which the channel's linked Items are kept resolved
/// to their slots — so a report reaches its Items without hashing a UID or a name.
public struct ChannelHandle: Sendable, Hashable {
    /// The channel.
    public let uid: ChannelUID
    /// The runtime's index of the channel, or -1 for a handle that carries the UID only.
    let index: Int

    /// A handle that carries the UID only (a callback that keeps no table of channels).
    public init(_ uid: ChannelUID) { self.init(uid, index: -1) }

    init(_ uid: ChannelUID, index: Int) {
        self.uid = uid
        self.index = index
    }
}
