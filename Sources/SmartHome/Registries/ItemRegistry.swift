/// Owns every Item and its state. Read it freely; change it through ``OpenHABRuntime``,
/// which publishes the matching events.
public actor ItemRegistry {
    private var items: [ItemName: Item] = [:]

    /// An empty registry.
    public init() {}

    /// The Item called `name`, if any.
    public func item(_ name: ItemName) -> Item? { items[name] }

    /// The state of `name`, if the Item exists.
    public func state(of name: ItemName) -> State? { items[name]?.state }

    /// Every Item, sorted by name.
    public func all() -> [Item] { items.values.sorted { $0.name < $1.name } }

    /// The number of Items.
    public var count: Int { items.count }

    /// Adds or replaces an Item. A replaced Item keeps its state when its type is unchanged.
    /// - Returns: `true` if the Item is new.
    @discardableResult
    func put(_ item: Item) -> Bool {
        var item = item
        if let old = items[item.name] {
            if old.type == item.type { item.state = old.state }
            items[item.name] = item
            return false
        }
        items[item.name] = item
        return true
    }

    func remove(_ name: ItemName) -> Item? { items.removeValue(forKey: name) }

    /// Sets the state after the Item type's conversion (``ItemType/accepting(_:)``).
    /// - Returns: the old and new state, or `nil` if the Item is unknown or the type rejects the state.
    func setState(_ name: ItemName, _ state: State) -> (old: State, new: State)? {
        // One hash look-up, and the Item is changed in place rather than copied out and back.
        guard let index = items.index(forKey: name) else { return nil }
        return Self.setState(state, of: &items.values[index])
    }

    private static func setState(_ state: State, of item: inout Item) -> (old: State, new: State)? {
        guard let accepted = item.type.accepting(state) else { return nil }
        defer { item.state = accepted }
        return (item.state, accepted)
    }
}
