import Simulation
import Synchronization

/// Owns every Item and its state. Read it freely; change it through ``OpenHABRuntime``,
/// which publishes the matching events.
///
/// The Items sit behind a `Mutex` rather than the actor's executor, so the runtime reads and
/// changes them synchronously — a device's state report updates its Items without a hop. The
/// public reads stay actor methods (callers `await` them as before).
public actor ItemRegistry {
    private let storage = Mutex<[ItemName: Item]>([:])
    /// Group name → the names of the Items whose `groupNames` hold it, kept as Items are put and removed
    /// (so a Group's members are found without a pass over every Item).
    private let membersIndex = Mutex<[String: Set<ItemName>]>([:])

    /// An empty registry.
    public init() {}

    /// The Item called `name`, if any.
    public func item(_ name: ItemName) -> Item? { lookup(name) }

    /// The state of `name`, if the Item exists.
    public nonisolated func state(of name: ItemName) -> State? { storage.withLock { $0[name]?.state } }

    /// Every Item, sorted by name.
    public func all() -> [Item] { storage.withLock { $0.values.sorted { $0.name < $1.name } } }

    /// The number of Items.
    public var count: Int { storage.withLock { $0.count } }

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
        let names = membersIndex.withLock { $0[group.description] ?? [] }
        return storage.withLock { items in
            names.compactMap { name in items[name].map { (name, $0.type == .groupItem) } }
        }.sorted { $0.name < $1.name }
    }

    /// The Groups the Item called `name` is a direct member of (`nil` if there is no such Item).
    public nonisolated func groupNames(of name: ItemName) -> [String]? { storage.withLock { $0[name]?.groupNames } }

    /// The type of the Item called `name` (`nil` if there is none).
    public nonisolated func type(of name: ItemName) -> ItemType? { storage.withLock { $0[name]?.type } }

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
        return storage.withLock { items in
            var item = item
            if let old = items[item.name] {
                if old.type == item.type {
                    item.state = old.state
                    item.lastState = old.lastState
                    item.lastStateUpdate = old.lastStateUpdate
                    item.lastStateChange = old.lastStateChange
                }
                // Metadata lives in its own registry in openHAB: replacing the Item keeps it.
                item.metadata.merge(old.metadata) { new, _ in new }
                items[item.name] = item
                return false
            }
            items[item.name] = item
            return true
        }
    }

    nonisolated func remove(_ name: ItemName) -> Item? {
        let removed = storage.withLock { $0.removeValue(forKey: name) }
        if let removed { membersIndex.withLock { index in for g in removed.groupNames { index[g]?.remove(name) } } }
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
        storage.withLock { items in
            // One hash look-up, and the Item is changed in place rather than copied out and back.
            guard let index = items.index(forKey: name) else { return nil }
            return Self.apply(state, at: now, to: &items.values[index])
        }
    }

    /// Replaces the metadata of `name` in `namespace` (`nil` removes it).
    /// - Returns: whether the namespace was new to the Item, or `nil` if the Item is unknown.
    nonisolated func setMetadata(_ name: ItemName, _ namespace: String, _ metadata: ItemMetadata?) -> Bool? {
        storage.withLock { items in
            guard let index = items.index(forKey: name) else { return nil }
            defer { items.values[index].metadata[namespace] = metadata }
            return items.values[index].metadata[namespace] == nil
        }
    }

    private static func apply(_ state: State, at now: SimInstant, to item: inout Item) -> AppliedState? {
        guard let accepted = item.accepting(state) else { return nil }
        let applied = AppliedState(old: item.state, new: accepted, previousUpdate: item.lastStateUpdate,
                                   previousChange: item.lastStateChange, groupNames: item.groupNames)
        if applied.changed {
            item.lastState = item.state
            item.lastStateChange = now
        }
        item.state = accepted
        item.lastStateUpdate = now
        return applied
    }
}
