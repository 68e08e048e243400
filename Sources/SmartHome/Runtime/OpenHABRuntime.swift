import Simulation
import Synchronization

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
    /// The clock that stamps Item updates (`lastStateUpdate`, `lastStateChange`).
    let scheduler: any SimulationScheduler
    /// The zone event payloads write their times in (openHAB's system zone).
    public let calendar: LocalCalendar
    /// The channels handed out as ``ChannelHandle``s, each with its linked Items resolved to their slots.
    private let routing = Mutex(Routing())

    /// The runtime's table of channels (see ``handle(for:)``).
    ///
    /// A channel's route — its linked Items in name order, each with its slot in the ``ItemRegistry`` and
    /// whether a bus subscriber may hear about it — is worked out when first needed and kept until an Item
    /// is added or removed or a link changes (``routesChanged()``, called by every method of this runtime
    /// that does so, the only ones that can) or the bus's subscriptions change.
    private struct Routing {
        var indexByUID: [ChannelUID: Int] = [:]
        var uids: [ChannelUID] = []
        /// Per channel index, its route as last resolved.
        var routes: [ChannelRoute] = []

        mutating func index(of channel: ChannelUID) -> Int {
            if let index = indexByUID[channel] { return index }
            let index = uids.count
            indexByUID[channel] = index
            uids.append(channel)
            routes.append(ChannelRoute())
            return index
        }
    }

    /// Counts changes of Items and links (``routesChanged()``), read without a lock: a route resolved in an
    /// older generation is resolved again.
    private let routeGeneration = Atomic<Int>(0)

    /// An empty runtime with fresh registries, and a bus that delivers events on `scheduler`.
    /// - Parameter calendar: the zone event payload times are written in.
    public init(scheduler: any SimulationScheduler, calendar: LocalCalendar = .utc) {
        things = ThingRegistry()
        items = ItemRegistry()
        links = LinkRegistry()
        events = EventBus(scheduler: scheduler)
        self.scheduler = scheduler
        self.calendar = calendar
    }

    // MARK: Things

    /// Adds a Thing with its handler and initialises the handler, which reports status and states.
    /// - Throws: ``SmartHomeError`` `thing.duplicate` if the UID is taken.
    public func addThing(_ thing: Thing, handler: any ThingHandler) async throws(SmartHomeError) {
        try await things.add(thing, handler: handler)
        thingDTOs.invalidate(thing.uid)
        await handler.initialize(callback: self)
    }

    /// Ends the runtime's life: every Thing is removed (its handler disposed, so it lets go of the runtime)
    /// and every bus subscriber dropped, so nothing keeps a finished world alive.
    public func shutdown() async {
        links.removeAll()  // all at once: Thing by Thing, each removal scanned every link (quadratic in the portfolio)
        routesChanged()
        for uid in await things.uids() { try? await removeThing(uid) }
        events.unsubscribeAll()
    }

    /// Removes a Thing and its links, disposing of its handler.
    /// - Throws: ``SmartHomeError`` `thing.notFound`.
    public func removeThing(_ uid: ThingUID) async throws(SmartHomeError) {
        guard let (_, handler) = await things.remove(uid) else {
            throw SmartHomeError(.thingNotFound, "Thing \(uid) does not exist.")
        }
        links.removeAll(thing: uid)
        routesChanged()
        thingDTOs.invalidate(uid)
        await handler.dispose()
    }

    // MARK: Items and links

    /// Adds or replaces an Item. - Returns: `true` if it is new.
    @discardableResult
    public func putItem(_ item: Item) async -> Bool {
        let isNew = items.put(item)
        if isNew { routesChanged() }
        return isNew
    }

    /// Removes an Item and its links. - Throws: ``SmartHomeError`` `item.notFound`.
    public func removeItem(_ name: ItemName) async throws(SmartHomeError) {
        guard items.remove(name) != nil else { throw Self.itemNotFound(name) }
        let linkedChannels = links.linkedChannels(name)
        links.removeAll(item: name)
        routesChanged()
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
        if isNew { routesChanged() }
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
        routesChanged()
        thingDTOs.invalidate(channel.thingUID)
    }

    // MARK: Commands and states

    /// Sends `command` to the Item called `name`, as openHAB does:
    /// 1. publishes the `ItemCommandEvent`;
    /// 2. autoupdate (openHAB's `AutoUpdateManager`), for a command that is also a state:
    ///    - not linked: the command is posted as the Item's state;
    ///    - linked, but no linked Thing is ONLINE: `statepredicted` restates the current state as a
    ///      confirmation, and the state stays;
    ///    - a linked ONLINE channel is read-only (a ``StateDescription`` with `readOnly`, like a room
    ///      temperature or a battery level — the twin's `veto` policy): nothing;
    ///    - else (optimistic): `statepredicted` with the command, and the command is posted as the state;
    ///    - `autoupdate` metadata decides instead: `true` posts the command as the state (no prediction),
    ///      anything else (`false`) leaves the state alone;
    /// 3. forwards the command to the handler of every linked writable channel whose Thing is
    ///    initialised (sorted by channel UID); their state reports then confirm or correct the Item.
    ///    `REFRESH` also reaches read-only channels.
    ///
    /// A posted state the Item cannot take (a quantity of another dimension) is dropped by the Item.
    /// - Throws: ``SmartHomeError`` `item.notFound`, or `command.invalid` when the Item's type
    ///   does not accept the command (e.g. OPEN to a Contact).
    public func sendCommand(_ command: Command, to name: ItemName) async throws(SmartHomeError) {
        guard let item = items.lookup(name) else { throw Self.itemNotFound(name) }
        guard Self.accepts(item.type, command) else {
            throw SmartHomeError(.invalidCommand, "\(item.type) Item \(name) does not accept the command \(command).")
        }
        events.publish(OpenHABEvent(.itemCommand(name, command)))
        if item.type == .groupItem {
            // A Group has no autoupdate of its own; the command goes to every member that accepts it.
            for member in items.members(of: name) where Self.accepts(member.type, command) {
                try await sendCommand(command, to: member.name)
            }
            return
        }

        var targets: [(ChannelUID, any ThingHandler)] = []
        var anyOnline = false
        var vetoed = false
        let linkedChannels = links.linkedChannels(name)
        for channel in linkedChannels {
            let thingUID = channel.thingUID
            guard let status = await things.status(of: thingUID), let handler = await things.handler(for: thingUID) else { continue }
            let readOnly = await things.channel(channel)?.stateDescription?.readOnly == true
            if status.status == .online {
                anyOnline = true
                if readOnly { vetoed = true }
            }
            if status.status.isHandlerInitialized, command == .refresh || !readOnly { targets.append((channel, handler)) }
        }
        // `autoupdate` metadata overrides the policy: "true" always updates, "false" never does.
        let override = item.metadata["autoupdate"].flatMap { $0.value.allSatisfy(\.isWhitespace) ? nil : $0.value }
        if let implied = command.impliedState, override.map({ $0.lowercased() == "true" }) ?? true {
            if linkedChannels.isEmpty || override != nil {
                post(implied, to: name)
            } else if !anyOnline {
                publish(.itemStatePredicted(name, item.state, isConfirmation: true))
            } else if !vetoed {
                publish(.itemStatePredicted(name, implied, isConfirmation: false))
                post(implied, to: name)
            }
        }
        for (channel, handler) in targets {
            await handler.handleCommand(command, for: channel)
        }
    }

    /// Posts a state update to an Item (no device is involved), as `PUT /rest/items/{name}/state`:
    /// publishes the `ItemStateEvent` as posted; the Item then takes the state (``Item/accepting(_:)``,
    /// publishing `stateupdated` and, if it changed, `statechanged`) or drops it.
    /// - Throws: ``SmartHomeError`` `item.notFound`.
    public func postUpdate(_ state: State, to name: ItemName) async throws(SmartHomeError) {
        guard items.type(of: name) != nil else { throw Self.itemNotFound(name) }
        post(state, to: name)
    }

    /// Sets (`nil`: removes) the metadata of Item `name` in `namespace`; the `unit` namespace changes the
    /// unit the Item holds new states in.
    /// - Returns: `true` if the Item had no metadata there before.
    /// - Throws: ``SmartHomeError`` `item.notFound`.
    @discardableResult
    public func setMetadata(_ metadata: ItemMetadata?, namespace: String, of name: ItemName) async throws(SmartHomeError) -> Bool {
        guard let added = items.setMetadata(name, namespace, metadata) else { throw Self.itemNotFound(name) }
        return added
    }

    /// The state of an Item, if it exists.
    public func state(of name: ItemName) async -> State? { items.lookup(name)?.state }

    /// The clock's instant now (what stamps Item updates).
    public var now: SimInstant { scheduler.now }

    // MARK: ThingHandlerCallback

    /// A handler reported a channel state: update every linked Item.
    public func stateUpdated(_ channel: ChannelUID, state: State) async {
        deliver(state, from: handle(for: channel), at: scheduler.now)
    }

    /// The channel's handle in this runtime's table of channels (added on first request; never removed).
    public func handle(for channel: ChannelUID) -> ChannelHandle {
        ChannelHandle(channel, index: routing.withLock { $0.index(of: channel) })
    }

    /// A handler reported several channel states: update every linked Item, per update in
    /// report order, without a suspension, publishing each update's events as
    /// ``stateUpdated(_:state:)`` would.
    public nonisolated(nonsending) func statesUpdated(_ updates: [(channel: ChannelHandle, state: State)]) async {
        statesUpdatedNow(updates, at: scheduler.now)  // one read of the clock (a lock) for the batch, not one per Item
    }

    /// ``statesUpdated(_:)`` as a plain call, with the clock's `now` read by the caller (a reporter that keeps
    /// its channels' routes calls ``stateReported(_:from:route:at:)`` instead, per channel).
    public func statesUpdatedNow(_ updates: [(channel: ChannelHandle, state: State)], at now: SimInstant) {
        // Through the buffer: an array subscript here copied each (handle, state) pair out.
        updates.withUnsafeBufferPointer { updates in
            for index in updates.indices { deliver(updates[index].state, from: updates[index].channel, at: now) }
        }
    }

    /// A handler reported a status: record it and publish `ThingStatusInfoEvent`, then
    /// `ThingStatusInfoChangedEvent` if it changed (openHAB's `ThingManagerImpl.setThingStatus`).
    public func statusUpdated(_ thing: ThingUID, status: ThingStatusInfo) async {
        guard let change = await things.setStatus(thing, status) else { return }
        publish(.thingStatus(thing, status: change.new))
        guard change.old != change.new else { return }
        thingDTOs.invalidate(thing)
        publish(.thingStatusChanged(thing, status: change.new, oldStatus: change.old))
    }

    // MARK: Helpers

    /// Posts `state` to every Item linked to `channel`, in name order (openHAB's profile callback
    /// posts an `ItemStateEvent` per linked Item), through the channel's route in the table.
    private func deliver(_ state: State, from channel: ChannelHandle, at now: SimInstant) {
        post(state, along: route(channel), at: now)
    }

    /// Posts `state` to each of a route's `targets`, in order.
    private func post(_ state: State, along targets: [ChannelRoute.Target], at now: SimInstant) {
        targets.withUnsafeBufferPointer { targets in
            for index in targets.indices {
                post(state, to: targets[index].name, slot: targets[index].slot, heard: targets[index].heard, at: now)
            }
        }
    }

    /// A handler reported `state` on `channel` at `now` (the clock read by the caller), with a plain call:
    /// every linked Item is updated as ``stateUpdated(_:state:)`` would, through `route`, the channel's route as
    /// this runtime last resolved it for the caller, which keeps it between reports (resolved again here when
    /// Items, links or the bus's subscriptions changed since) — no table look-up, lock or batch per report.
    /// What a device that holds this runtime calls (Devices' zone handlers).
    public func stateReported(_ state: State, from channel: ChannelHandle, route: inout ChannelRoute, at now: SimInstant) {
        let generation = routeGeneration.load(ordering: .acquiring), busGeneration = events.subscriptionGeneration
        if !route.isCurrent(generation: generation, busGeneration: busGeneration) {
            route = resolve(channel.uid, generation: generation, busGeneration: busGeneration)
        }
        post(state, along: route.targets, at: now)
    }

    /// The Items linked to `channel` in name order with their slots (-1: no such Item) and whether they are
    /// heard, resolved again when Items, links or the bus's subscriptions changed since.
    private func route(_ channel: ChannelHandle) -> [ChannelRoute.Target] {
        let generation = routeGeneration.load(ordering: .acquiring), busGeneration = events.subscriptionGeneration
        return routing.withLock { routing in
            let index = channel.index >= 0 ? channel.index : routing.index(of: channel.uid)
            // In place: the array's getter copied the whole route for each field read.
            if let targets = inPlace(&routing.routes[index], { route in
                route.isCurrent(generation: generation, busGeneration: busGeneration) ? route.targets : nil
            }) {
                return targets
            }
            let route = resolve(channel.uid, generation: generation, busGeneration: busGeneration)
            routing.routes[index] = route
            return route.targets
        }
    }

    /// `channel`'s route now, marked with the generations it was resolved in.
    private func resolve(_ channel: ChannelUID, generation: Int, busGeneration: Int) -> ChannelRoute {
        let hasSubscribers = events.hasSubscribers
        let targets = items.slots(of: links.linkedItems(channel)).map { target in
            ChannelRoute.Target(slot: target.slot, name: target.name, heard: hasSubscribers && events.mayHear(about: target.name))
        }
        return ChannelRoute(generation: generation, busGeneration: busGeneration, targets: targets)
    }

    /// Items were added or removed, or links changed: every route is resolved again when next used.
    private func routesChanged() {
        routeGeneration.add(1, ordering: .releasing)
    }

    /// Publishes `ItemStateEvent` with `state` as posted, then lets the Item take it (openHAB's
    /// `ItemUpdater` → `GenericItem.applyState`): `ItemStateUpdatedEvent`, and `ItemStateChangedEvent`
    /// if it changed, each with the Item's update and change times before this update. An Item that
    /// drops the state publishes neither. With nobody subscribed to events about the Item, they are
    /// only counted, never built.
    func post(_ state: State, to name: ItemName) {
        post(state, to: name, slot: nil, heard: events.hasSubscribers && events.mayHear(about: name), at: scheduler.now)
    }

    /// ``post(_:to:)`` with what the caller knows: the Item's slot (-1: there is no such Item; `nil`: look it up
    /// by name) and whether some subscriber may hear about it (a channel's route knows both).
    private func post(_ state: State, to name: ItemName, slot: Int?, heard: Bool, at now: SimInstant) {
        if !heard {
            postUnheard(state, to: name, slot: slot, at: now)
            return
        }
        let applied = slot.map { items.setState(slot: $0, state, at: now) } ?? items.setState(name, state, at: now)
        defer {
            if let applied, applied.changed, !applied.groupNames.isEmpty { recalculateGroups(applied.groupNames, at: now) }
        }
        publish(.itemState(name, state))
        guard let applied else { return }
        publishApplied(applied, to: name)
    }

    /// ``post(_:to:)`` to the Item in `slot` (-1: there is none; `nil`: look it up by name), which nobody hears
    /// about: its events are counted, and the update copies out nothing for them.
    private func postUnheard(_ state: State, to name: ItemName, slot: Int?, at now: SimInstant) {
        let update = slot.map { items.setStateUnheard(slot: $0, state, at: now) } ?? items.setStateUnheard(name, state, at: now)
        events.countUnheard(1 + (update.taken ? update.changed ? 2 : 1 : 0))
        if update.changed, !update.groupNames.isEmpty { recalculateGroups(update.groupNames, at: now) }
    }

    /// Publishes `stateupdated` and, on a change, `statechanged` for a state an Item took.
    private func publishApplied(_ applied: ItemRegistry.AppliedState, to name: ItemName) {
        let lastUpdate = applied.previousUpdate.map { OpenHABEvent.EventTime($0, in: calendar) }
        publish(.itemStateUpdated(name, applied.new, lastStateUpdate: lastUpdate))
        if applied.changed {
            publish(.itemStateChanged(name, state: applied.new, oldState: applied.old, lastStateUpdate: lastUpdate,
                                      lastStateChange: applied.previousChange.map { OpenHABEvent.EventTime($0, in: calendar) }))
        }
    }

    /// A member's state changed: every Group above it with a base type recalculates its state from its state
    /// members (openHAB's `GroupItem.stateUpdated` → `function.calculate(getStateMembers(getMembers()))`,
    /// converted to the base type), publishing `stateupdated`/`statechanged` for the Group when it takes the
    /// result; Groups without a base type pass the change up to their own Groups. Each Group once per change.
    private func recalculateGroups(_ groupNames: [String], at now: SimInstant) {
        var pending = groupNames
        var seen: Set<String> = []
        while let groupText = pending.popLast() {
            guard seen.insert(groupText).inserted, let groupName = try? ItemName(groupText),
                  let group = items.lookup(groupName), case .groupItem = group.type else { continue }
            guard let aggregation = group.aggregation else {
                pending += group.groupNames
                continue
            }
            let result = aggregation.function.calculate(items.stateMembers(of: groupName).map(\.state), unit: group.unit)
            guard let applied = items.setState(groupName, result, at: now) else { continue }
            if events.hasSubscribers, events.mayHear(about: groupName) {
                publishApplied(applied, to: groupName)
            } else {
                events.countUnheard(applied.changed ? 2 : 1)
            }
            if applied.changed { pending += applied.groupNames }
        }
    }

    private func publish(_ kind: OpenHABEvent.Kind) { events.publish(OpenHABEvent(kind)) }

    /// Whether an Item of `type` accepts `command` (the kinds `ItemType.parseCommand` produces).
    static func accepts(_ type: ItemType, _ command: Command) -> Bool {
        switch (type, command) {
        case (_, .refresh): return true
        case (.switchItem, .onOff), (.stringItem, .string), (.numberItem, .decimal),
             (.dimmerItem, .onOff), (.dimmerItem, .percent), (.dimmerItem, .increaseDecrease),
             (.dateTimeItem, .dateTime), (.groupItem, _),
             (.rollershutterItem, .upDown), (.rollershutterItem, .stopMove), (.rollershutterItem, .percent),
             (.colorItem, .hsb), (.colorItem, .onOff), (.colorItem, .percent), (.colorItem, .increaseDecrease),
             (.locationItem, .point), (.playerItem, .playPause), (.playerItem, .rewindFastforward),
             (.playerItem, .nextPrevious):
            return true
        case (.numberItem, .quantity):
            // Any unit: REST posts the command to the bus unchecked; the handler ignores one it
            // cannot use, and autoupdate's state is dropped by the Item.
            return true
        default:
            return false
        }
    }

    static func itemNotFound(_ name: ItemName) -> SmartHomeError {
        SmartHomeError(.itemNotFound, "Item \(name) does not exist!")
    }
}
