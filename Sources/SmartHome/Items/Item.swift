/// An openHAB Item: the virtual layer a user or a service reads and commands.
public struct Item: Sendable, Hashable {
    /// The unique name.
    public let name: ItemName
    /// The type, which decides accepted states and commands.
    public var type: ItemType
    /// A human-readable label.
    public var label: String?
    /// The icon category, e.g. `temperature`.
    public var category: String?
    /// Semantic tags, e.g. `Setpoint`, kept sorted.
    public var tags: [String]
    /// Groups this Item belongs to.
    public var groupNames: [String]
    /// The current state (`NULL` for a fresh Item).
    public var state: State
    /// Whether the Item was created through the API (editable); file-defined Items are not.
    public var isManaged: Bool

    /// A fresh Item in state `NULL`.
    public init(name: ItemName, type: ItemType, label: String? = nil, category: String? = nil,
                tags: [String] = [], groupNames: [String] = [], isManaged: Bool = true) {
        self.name = name
        self.type = type
        self.label = label
        self.category = category
        self.tags = tags.sorted()
        self.groupNames = groupNames
        self.state = .null
        self.isManaged = isManaged
    }
}
