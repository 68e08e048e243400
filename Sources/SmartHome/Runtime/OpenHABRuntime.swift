import Simulation

/// The openHAB core of the twin: routes commands Item → Link → Channel → Thing handler, routes
/// state reports back to every linked Item, applies autoupdate, and publishes the events.
///
/// It holds no state of its own — the registries and the bus do — so it is a plain `Sendable`
/// class. Every method awaits its effects on the model to completion (Items updated, handlers
/// run); the events it publishes reach subscribers afterwards, as events of the simulation at
/// the same instant (see ``EventBus``), as in openHAB. Call it from the simulation task (a
/// kernel event, or ``SimulationKernel/submit(order:_:)`` from outside) to keep a run deterministic.
public final class OpenHABRuntime: Sendable, ThingHandlerCallback {
    /// Things and their handlers.
    public let things: ThingRegistry
    /// Items and their states.
    public let items: ItemRegistry
    /// Item ↔ channel links.
    public let links: LinkRegistry
    /// The event bus.
    public let events: EventBus
    /// Each Thing's REST body, kept until this runtime changes the Thing, its status or its links.
    let thingDTOs = ThingDTOCache()

    /// An empty runtime with fresh registries, and a bus that delivers events on `scheduler`.
    public init(scheduler: any SimulationScheduler) {
        things = ThingRegistry()
        items = ItemRegistry()
        links = LinkRegistry()
        events = EventBus(scheduler: scheduler)
    }

    // MARK: Things

    /// Adds a Thing with its handler and initialises the handler, which reports status and states.
    /// - Throws: ``SmartHomeError`` `thing.duplicate` if the UID is taken.
    public func addThing(_ thing: Thing, handler: any ThingHandler) async throws(SmartHomeError) {
        try await things.add(thing, handler: handler)
        thingDTOs.invalidate(thing.uid)
        await handler.initialize(callback: self)
    }

    /// Removes a Thing and its links, disposing of its handler.
    /// - Throws: ``SmartHomeError`` `thing.notFound`.
    public func removeThing(_ uid: ThingUID) async throws(SmartHomeError) {
        guard let (_, handler) = await things.remove(uid) else {
            throw SmartHomeError(.thingNotFound, "Thing \(uid) does not exist.")
        }
        links.removeAll(thing: uid)
        thingDTOs.invalidate(uid)
        await handler.dispose()
    }

    // MARK: Items and links

    /// Adds or replaces an Item. - Returns: `true` if it is new.
    @discardableResult
    public func putItem(_ item: Item) async -> Bool { items.put(item) }

    /// Removes an Item and its links. - Throws: ``SmartHomeError`` `item.notFound`.
    public func removeItem(_ name: ItemName) async throws(SmartHomeError) {
        guard items.remove(name) != nil else { throw Self.itemNotFound(name) }
        let linkedChannels = links.linkedChannels(name)
        links.removeAll(item: name)
        for channel in linkedChannels { thingDTOs.invalidate(channel.thingUID) }
    }

    /// Links an Item to a channel and copies the channel's last reported state to the Item
    /// (openHAB asks the handler to refresh; the twin's handlers answer a REFRESH command).
    /// - Throws: ``SmartHomeError`` `item.notFound` or `channel.notFound`.
    /// - Returns: `true` if the link is new.
    @discardableResult
    public func link(_ link: ItemChannelLink) async throws(SmartHomeError) -> Bool {
        guard items.lookup(link.itemName) != nil else { throw Self.itemNotFound(link.itemName) }
        guard await things.channel(link.channelUID) != nil else {
            throw SmartHomeError(.channelNotFound,
                                 "Channel \(link.channelUID) does not exist; GET /rest/things lists every channel UID.")
        }
        let isNew = links.put(link)
        thingDTOs.invalidate(link.channelUID.thingUID)
        if isNew, let handler = await things.handler(for: link.channelUID.thingUID),
           await things.status(of: link.channelUID.thingUID)?.status.isHandlerInitialized == true {
            await handler.handleCommand(.refresh, for: link.channelUID)
        }
        return isNew
    }

    /// Removes a link. - Throws: ``SmartHomeError`` `link.notFound`.
    public func unlink(_ item: ItemName, _ channel: ChannelUID) async throws(SmartHomeError) {
        guard links.remove(item, channel) != nil else {
            throw SmartHomeError(.linkNotFound, "Link \(item) -> \(channel) does not exist!")
        }
        thingDTOs.invalidate(channel.thingUID)
    }

    // MARK: Commands and states

    /// Sends `command` to the Item called `name`, as openHAB does:
    /// 1. publishes the `ItemCommandEvent`;
    /// 2. autoupdate — linked to at least one initialised, ONLINE Thing: the Item optimistically
    ///    takes the command's state; linked only to OFFLINE Things: no change; not linked: the
    ///    command becomes the state;
    /// 3. forwards the command to the handler of every linked channel (sorted by channel UID),
    ///    whose state reports then confirm or correct the Item.
    ///
    /// Read-only channels (a ``StateDescription`` with `readOnly`, like a room temperature or a
    /// battery level) take no commands: they are left out of both steps, as openHAB's autoupdate
    /// `veto` policy does, so a command to an Item linked only to read-only channels is published
    /// and otherwise ignored — the Item keeps the device's last report. `REFRESH` still reaches them.
    /// - Throws: ``SmartHomeError`` `item.notFound`, or `command.invalid` when the Item's type
    ///   does not accept the command (e.g. OPEN to a Contact).
    public func sendCommand(_ command: Command, to name: ItemName) async throws(SmartHomeError) {
        guard let item = items.lookup(name) else { throw Self.itemNotFound(name) }
        guard Self.accepts(item.type, command) else {
            throw SmartHomeError(.invalidCommand, "\(item.type) Item \(name) does not accept the command \(command).")
        }
        events.publish(OpenHABEvent(.itemCommand(name, command)))

        var targets: [(ChannelUID, any ThingHandler)] = []
        var anyOnline = false
        let linkedChannels = links.linkedChannels(name)
        var anyWritable = linkedChannels.isEmpty
        for channel in linkedChannels {
            if command != .refresh, await things.channel(channel)?.stateDescription?.readOnly == true { continue }
            anyWritable = true
            let thingUID = channel.thingUID
            guard let status = await things.status(of: thingUID), let handler = await things.handler(for: thingUID) else { continue }
            if status.status == .online { anyOnline = true }
            if status.status.isHandlerInitialized { targets.append((channel, handler)) }
        }
        guard anyWritable else { return }
        if let implied = command.impliedState, linkedChannels.isEmpty || anyOnline {
            update(name, to: implied)
        }
        for (channel, handler) in targets {
            await handler.handleCommand(command, for: channel)
        }
    }

    /// Posts a state update to an Item (no device is involved), publishing state and statechanged events.
    /// - Throws: ``SmartHomeError`` `item.notFound`, or `state.invalid` if the Item's type rejects it.
    public func postUpdate(_ state: State, to name: ItemName) async throws(SmartHomeError) {
        guard let item = items.lookup(name) else { throw Self.itemNotFound(name) }
        guard item.type.accepting(state) != nil else {
            throw SmartHomeError(.invalidState, "State could not be parsed: \(state)")
        }
        update(name, to: state)
    }

    /// The state of an Item, if it exists.
    public func state(of name: ItemName) async -> State? { items.lookup(name)?.state }

    // MARK: ThingHandlerCallback

    /// A handler reported a channel state: update every linked Item.
    public func stateUpdated(_ channel: ChannelUID, state: State) async {
        deliver(state, from: channel)
    }

    /// A handler reported several channel states: update every linked Item, per update in
    /// report order, without a suspension, publishing each update's events as
    /// ``stateUpdated(_:state:)`` would.
    public nonisolated(nonsending) func statesUpdated(_ updates: [(channel: ChannelUID, state: State)]) async {
        for (channel, state) in updates { deliver(state, from: channel) }
    }

    /// A handler reported a status: record it and publish `ThingStatusInfoChangedEvent` if it changed.
    public func statusUpdated(_ thing: ThingUID, status: ThingStatusInfo) async {
        guard let change = await things.setStatus(thing, status) else { return }
        thingDTOs.invalidate(thing)
        events.publish(OpenHABEvent(.thingStatusChanged(thing, status: change.new, oldStatus: change.old)))
    }

    // MARK: Helpers

    /// Updates every Item linked to `channel` to `state`, in name order.
    private func deliver(_ state: State, from channel: ChannelUID) {
        for name in links.linkedItems(channel) {
            update(name, to: state)
        }
    }

    /// Sets an Item's state and publishes `ItemStateEvent`, then `ItemStateChangedEvent` if it
    /// changed; with nobody subscribed the two are only counted, never built.
    private func update(_ name: ItemName, to state: State) {
        guard let change = items.setState(name, state) else { return }
        let changed = change.old != change.new
        guard events.hasSubscribers else {
            events.countUnheard(changed ? 2 : 1)
            return
        }
        events.publish(OpenHABEvent(.itemState(name, change.new)))
        if changed { events.publish(OpenHABEvent(.itemStateChanged(name, state: change.new, oldState: change.old))) }
    }

    /// Whether an Item of `type` accepts `command` (the kinds `ItemType.parseCommand` produces).
    static func accepts(_ type: ItemType, _ command: Command) -> Bool {
        switch (type, command) {
        case (_, .refresh): return true
        case (.switchItem, .onOff), (.stringItem, .string), (.numberItem, .decimal),
             (.dimmerItem, .onOff), (.dimmerItem, .percent), (.dimmerItem, .increaseDecrease):
            return true
        case (.numberItem(let d), .quantity(let q)):
            return d == nil || d == q.unit.dimension
        default:
            return false
        }
    }

    static func itemNotFound(_ name: ItemName) -> SmartHomeError {
        SmartHomeError(.itemNotFound, "Item \(name) does not exist!")
    }
}
