import Synchronization

/// Owns every Item and its state. Read it freely; change it through ``OpenHABRuntime``,
/// which publishes the matching events.
///
/// The Items sit behind a `Mutex` rather than the actor's executor, so the runtime reads and
/// changes them synchronously — a device's state report updates its Items without a hop. The
/// public reads stay actor methods (callers `await` them as before).
public actor ItemRegistry {
    private let storage = Mutex<[ItemName: Item]>([:])

    /// An empty registry.
    public init() {}

    /// The Item called `name`, if any.
    public func item(_ name: ItemName) -> Item? { lookup(name) }

    /// The state of `name`, if the Item exists.
    public func state(of name: ItemName) -> State? { storage.withLock { $0[name]?.state } }

    /// Every Item, sorted by name.
    public func all() -> [Item] { storage.withLock { $0.values.sorted { $0.name < $1.name } } }

    /// The number of Items.
    public var count: Int { storage.withLock { $0.count } }

    /// The Item called `name`, if any, read without entering the actor.
    nonisolated func lookup(_ name: ItemName) -> Item? { storage.withLock { $0[name] } }

    /// Adds or replaces an Item. A replaced Item keeps its state when its type is unchanged.
    /// - Returns: `true` if the Item is new.
    @discardableResult
    nonisolated func put(_ item: Item) -> Bool {
        storage.withLock { items in
            var item = item
            if let old = items[item.name] {
                if old.type == item.type { item.state = old.state }
                items[item.name] = item
                return false
            }
            items[item.name] = item
            return true
        }
    }

    nonisolated func remove(_ name: ItemName) -> Item? { storage.withLock { $0.removeValue(forKey: name) } }

    /// Sets the state after the Item type's conversion (``ItemType/accepting(_:)``).
    /// - Returns: the old and new state, or `nil` if the Item is unknown or the type rejects the state.
    nonisolated func setState(_ name: ItemName, _ state: State) -> (old: State, new: State)? {
        storage.withLock { items in Self.setState(name, state, in: &items) }
    }

    private static func setState(_ name: ItemName, _ state: State, in items: inout [ItemName: Item]) -> (old: State, new: State)? {
        // One hash look-up, and the Item is changed in place rather than copied out and back.
        guard let index = items.index(forKey: name) else { return nil }
        return setState(state, of: &items.values[index])
    }

    private static func setState(_ state: State, of item: inout Item) -> (old: State, new: State)? {
        guard let accepted = item.type.accepting(state) else { return nil }
        defer { item.state = accepted }
        return (item.state, accepted)
    }
}
