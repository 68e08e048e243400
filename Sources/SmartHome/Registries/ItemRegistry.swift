import Simulation
import Synchronization

/// Owns every Item and its state. Read it freely; change it through ``OpenHABRuntime``,
/// which publishes the matching events.
///
/// The Items sit behind a `Mutex` rather than the actor's executor, so the runtime reads and
/// changes them synchronously — a device's state report updates its Items without a hop. The
/// public reads stay actor methods (callers `await` them as before).
///
/// Each Item lives in a slot (an array index) that it keeps while it exists, so the runtime can
/// resolve a channel's linked Items to slots once and update them without hashing their names
/// (``setState(slot:_:at:)``); a removed Item's slot is never given to another.
public actor ItemRegistry {
    /// The Items in their slots, and each name's slot.
    struct Table {
        /// A removed Item stays in its slot, marked in ``removed`` (no optional around each Item: updating one in
        /// place through an optional copied it out and back).
        var slots: [Item] = []
        var removed: [Bool] = []
        var index: [ItemName: Int] = [:]

        /// A copy of the Item (every field retained): the one-field reads below read their field in place instead.
        subscript(name: ItemName) -> Item? { index[name].map { slots[$0] } }

        /// Every Item, in no particular order.
        var items: [Item] { slots.indices.compactMap { removed[$0] ? nil : slots[$0] } }
    }

    private let storage = Mutex(Table())
    /// Group name → the names of the Items whose `groupNames` hold it, kept as Items are put and removed
    /// (so a Group's members are found without a pass over every Item).
    private let membersIndex = Mutex<[String: Set<ItemName>]>([:])
    /// ``memberNames(of:)``'s answers, sorted once and kept until an Item is put or removed (a rule reads a
    /// Group's `members` at every run). `generation` counts puts and removes: an answer worked out while one
    /// ran is not kept.
    private let memberLists = Mutex<(generation: Int, lists: [String: [(name: ItemName, isGroup: Bool)]])>((0, [:]))

    /// An empty registry.
    public init() {}

    /// The Item called `name`, if any.
    public func item(_ name: ItemName) -> Item? { lookup(name) }

    /// The state of `name`, if the Item exists.
    public nonisolated func state(of name: ItemName) -> State? { storage.withLock { t in t.index[name].map { t.slots[$0].state } } }

    /// Every Item, sorted by name.
    public func all() -> [Item] { storage.withLock { $0.items }.sorted { $0.name < $1.name } }

    /// The number of Items.
    public var count: Int { storage.withLock { $0.index.count } }

    /// The Item called `name`, if any, read without entering the actor.
    nonisolated func lookup(_ name: ItemName) -> Item? { storage.withLock { $0[name] } }

    /// The Items whose `groupNames` hold `group`, sorted by name (a Group's direct members).
    public nonisolated func members(of group: ItemName) -> [Item] {
        let names = membersIndex.withLock { $0[group.description] ?? [] }
        return storage.withLock { items in names.compactMap { items[$0] } }.sorted { $0.name < $1.name }
    }

    /// The names of `group`'s direct members, sorted, each with whether it is a Group itself: what a
    /// rule's `members` needs, without copying the Items.
    public nonisolated func memberNames(of group: ItemName) -> [(name: ItemName, isGroup: Bool)] {
        let key = group.description
        let (generation, kept) = memberLists.withLock { ($0.generation, $0.lists[key]) }
        if let kept { return kept }
        let names = membersIndex.withLock { $0[key] ?? [] }
        let list = storage.withLock { t -> [(name: ItemName, isGroup: Bool)] in
            names.compactMap { name in t.index[name].map { slot in (name: name, isGroup: t.slots[slot].type == .groupItem) } }
        }.sorted { $0.name < $1.name }
        memberLists.withLock { if $0.generation == generation { $0.lists[key] = list } }
        return list
    }

    /// Forgets ``memberNames(of:)``'s answers: called after an Item is put or removed, when the registry holds it.
    private nonisolated func membershipChanged() {
        memberLists.withLock { $0.generation += 1; $0.lists.removeAll(keepingCapacity: true) }
    }

    /// The Groups the Item called `name` is a direct member of (`nil` if there is no such Item).
    public nonisolated func groupNames(of name: ItemName) -> [String]? { storage.withLock { t in t.index[name].map { t.slots[$0].groupNames } } }

    /// The type of the Item called `name` (`nil` if there is none).
    public nonisolated func type(of name: ItemName) -> ItemType? { storage.withLock { t in t.index[name].map { t.slots[$0].type } } }

    /// The state members of `group`, as `GroupItem.getStateMembers` collects them: every direct member, where
    /// a member Group without a base type stands for its own state members (a cycle is walked once).
    public nonisolated func stateMembers(of group: ItemName) -> [Item] {
        let index = membersIndex.withLock { $0 }
        return storage.withLock { items in
            var seenGroups: Set<String> = [group.description]
            var found: [ItemName: Item] = [:]
            var pending = Array(index[group.description] ?? [])
            while let name = pending.popLast() {
                guard let item = items[name] else { continue }
                if case .groupItem = item.type, item.aggregation == nil {
                    if seenGroups.insert(item.name.description).inserted { pending += index[item.name.description] ?? [] }
                } else {
                    found[item.name] = item
                }
            }
            return found.values.sorted { $0.name < $1.name }
        }
    }

    /// The Item called `name`, read without a hop (for the rule engine, which runs on the simulation task).
    public nonisolated func current(_ name: ItemName) -> Item? { lookup(name) }

    /// Adds or replaces an Item. A replaced Item keeps its state (and its last state and times) when its
    /// type is unchanged, and its metadata.
    /// - Returns: `true` if the Item is new.
    @discardableResult
    nonisolated func put(_ item: Item) -> Bool {
        let oldGroups = storage.withLock { $0[item.name]?.groupNames } ?? []
        if oldGroups != item.groupNames {
            membersIndex.withLock { index in
                for g in oldGroups { index[g]?.remove(item.name) }
                for g in item.groupNames { index[g, default: []].insert(item.name) }
            }
        }
        defer { membershipChanged() }
        return storage.withLock { table in
            var item = item
            if let slot = table.index[item.name] {
                let old = table.slots[slot]
                if old.type == item.type {
                    item.state = old.state
                    item.lastState = old.lastState
                    item.lastStateUpdate = old.lastStateUpdate
                    item.lastStateChange = old.lastStateChange
                }
                // Metadata lives in its own registry in openHAB: replacing the Item keeps it.
                item.metadata.merge(old.metadata) { new, _ in new }
                table.slots[slot] = item
                return false
            }
            table.index[item.name] = table.slots.count
            table.slots.append(item)
            table.removed.append(false)
            return true
        }
    }

    nonisolated func remove(_ name: ItemName) -> Item? {
        let removed = storage.withLock { table -> Item? in
            guard let slot = table.index.removeValue(forKey: name) else { return nil }
            table.removed[slot] = true
            return table.slots[slot]
        }
        if let removed { membersIndex.withLock { index in for g in removed.groupNames { index[g]?.remove(name) } } }
        membershipChanged()
        return removed
    }

    /// What applying a state did: the state before and after, and the Item's update and change times
    /// before this update (what openHAB's `stateupdated`/`statechanged` events carry).
    struct AppliedState {
        var old: State
        var new: State
        var previousUpdate: SimInstant?
        var previousChange: SimInstant?
        /// The Groups the Item is in (whose aggregated states may follow).
        var groupNames: [String] = []
        var changed: Bool { old != new }
    }

    /// Sets the state the Item takes (``Item/accepting(_:)``) at `now`, keeping `lastState`,
    /// `lastStateUpdate` and `lastStateChange` as openHAB's `GenericItem.applyState` does.
    /// - Returns: what changed, or `nil` if the Item is unknown or drops the state.
    nonisolated func setState(_ name: ItemName, _ state: State, at now: SimInstant) -> AppliedState? {
        storage.withLock { table in
            guard let slot = table.index[name] else { return nil }
            return Self.apply(state, at: now, to: &table.slots[slot])
        }
    }

    /// ``setState(_:_:at:)`` for the Item in `slot` (from ``slots(of:)``), without hashing its name.
    nonisolated func setState(slot: Int, _ state: State, at now: SimInstant) -> AppliedState? {
        storage.withLock { table in
            guard slot >= 0, slot < table.slots.count, !table.removed[slot] else { return nil }
            return Self.apply(state, at: now, to: &table.slots[slot])
        }
    }

    /// What an update nobody hears did: whether the Item took the state, whether that changed it, and
    /// then the Groups it is in (whose aggregated states may follow).
    struct UnheardUpdate {
        var taken = false
        var changed = false
        var groupNames: [String] = []
    }

    /// ``setState(slot:_:at:)`` for an update whose events nobody hears: the same change to the Item,
    /// without copying out its states and times for events.
    nonisolated func setStateUnheard(slot: Int, _ state: State, at now: SimInstant) -> UnheardUpdate {
        storage.withLock { table in
            guard slot >= 0, slot < table.slots.count, !table.removed[slot] else { return UnheardUpdate() }
            guard let changed = Self.take(state, at: now, into: &table.slots[slot]) else { return UnheardUpdate() }
            return UnheardUpdate(taken: true, changed: changed, groupNames: changed ? table.slots[slot].groupNames : [])
        }
    }

    /// ``setStateUnheard(slot:_:at:)`` for the Item called `name` (no such Item: nothing taken).
    nonisolated func setStateUnheard(_ name: ItemName, _ state: State, at now: SimInstant) -> UnheardUpdate {
        storage.withLock { table in
            guard let slot = table.index[name], let changed = Self.take(state, at: now, into: &table.slots[slot]) else { return UnheardUpdate() }
            return UnheardUpdate(taken: true, changed: changed, groupNames: changed ? table.slots[slot].groupNames : [])
        }
    }

    /// The slots of the Items called `names`, in that order (-1 for an unknown name): a slot holds its
    /// Item until the Item is removed, and is never given to another.
    nonisolated func slots(of names: [ItemName]) -> [(slot: Int, name: ItemName)] {
        storage.withLock { table in names.map { name in (table.index[name] ?? -1, name) } }
    }

    /// Replaces the metadata of `name` in `namespace` (`nil` removes it).
    /// - Returns: whether the namespace was new to the Item, or `nil` if the Item is unknown.
    nonisolated func setMetadata(_ name: ItemName, _ namespace: String, _ metadata: ItemMetadata?) -> Bool? {
        storage.withLock { table in
            guard let slot = table.index[name] else { return nil }
            defer { table.slots[slot].metadata[namespace] = metadata }
            return table.slots[slot].metadata[namespace] == nil
        }
    }

    private static func apply(_ state: State, at now: SimInstant, to item: inout Item) -> AppliedState? {
        let (old, previousUpdate, previousChange) = (item.state, item.lastStateUpdate, item.lastStateChange)
        guard take(state, at: now, into: &item) != nil else { return nil }
        return AppliedState(old: old, new: item.state, previousUpdate: previousUpdate, previousChange: previousChange,
                            groupNames: item.groupNames)
    }

    /// The Item takes `state` (``Item/accepting(_:)``) at `now`, keeping `lastState`, `lastStateUpdate` and
    /// `lastStateChange` as openHAB's `GenericItem.applyState` does. - Returns: whether it changed, or `nil` if
    /// the Item drops the state.
    private static func take(_ state: State, at now: SimInstant, into item: inout Item) -> Bool? {
        guard let accepted = item.accepting(state) else { return nil }
        let changed = item.state != accepted
        if changed {
            // The old state moves to `lastState` (an exchange: no copy of it made and the old `lastState` freed once).
            item.lastState = swap(&item.state, accepted)
            item.lastStateChange = now
        } else {
            item.state = accepted
        }
        item.lastStateUpdate = now
        return changed
    }

    /// Puts `new` into `slot` and returns what was there, moving it rather than copying it.
    @inline(__always)
    private static func swap(_ slot: inout State, _ new: consuming State) -> State {
        var new = new
        Swift.swap(&slot, &new)
        return new
    }
}
