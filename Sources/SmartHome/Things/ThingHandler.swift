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

    /// The Thing's status changed (e.g. ONLINE → OFFLINE, COMMUNICATION_ERROR).
    func statusUpdated(_ thing: ThingUID, status: ThingStatusInfo) async
}
