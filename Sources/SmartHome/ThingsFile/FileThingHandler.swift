/// The handler of a Thing a `.things` file declares: no device stands behind it. It reports ONLINE when it
/// starts, takes commands without acting on them (its linked Items' states come from rules, the timeline and
/// `serve`), and goes OFFLINE (`COMMUNICATION_ERROR`) or back ONLINE when the timeline says so; a Bridge's
/// Things follow it (`BRIDGE_OFFLINE`), as openHAB's `BaseThingHandler.bridgeStatusChanged` does.
public actor FileThingHandler: ThingHandler {
    /// The Thing it handles.
    public nonisolated let thing: Thing
    private var callback: (any ThingHandlerCallback)?
    /// The Things under this Bridge (set once the file's Things are all made).
    private var children: [FileThingHandler] = []
    private var ownOnline = true
    private var bridgeOnline = true

    public init(thing: Thing) {
        self.thing = thing
    }

    /// Gives a Bridge the handlers of its Things.
    public func adopt(_ handlers: [FileThingHandler]) { children = handlers }

    public func initialize(callback: any ThingHandlerCallback) async {
        self.callback = callback
        await callback.statusUpdated(thing.uid, status: .online)
    }

    public func handleCommand(_ command: Command, for channel: ChannelUID) async {}

    public func dispose() async {
        callback = nil
        children = []
    }

    /// The timeline's `thing` step: ONLINE, or OFFLINE with COMMUNICATION_ERROR; a Bridge's Things follow.
    public func setOnline(_ online: Bool) async {
        guard online != ownOnline else { return }
        ownOnline = online
        await report()
        for child in children { await child.bridgeChanged(online: online) }
    }

    private func bridgeChanged(online: Bool) async {
        bridgeOnline = online
        await report()
        for child in children { await child.bridgeChanged(online: online && ownOnline) }
    }

    private func report() async {
        let info: ThingStatusInfo = !ownOnline ? ThingStatusInfo(.offline, .communicationError, description: "Thing does not respond (fault injected)")
            : !bridgeOnline ? ThingStatusInfo(.offline, .bridgeOffline) : .online
        await callback?.statusUpdated(thing.uid, status: info)
    }
}
