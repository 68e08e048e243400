/// The body of `PUT /rest/items/{name}` (openHAB's `GroupItemDTO`, group fields omitted).
public struct ItemDTO: Codable, Sendable, Hashable {
    /// The Item type, e.g. `Number:Temperature`.
    public var type: String?
    /// The Item name; must equal the name in the path.
    public var name: String?
    /// A label.
    public var label: String?
    /// An icon category.
    public var category: String?
    /// Tags.
    public var tags: [String]?
    /// Group memberships.
    public var groupNames: [String]?

    /// Creates a body.
    public init(type: String?, name: String?, label: String? = nil, category: String? = nil,
                tags: [String]? = nil, groupNames: [String]? = nil) {
        self.type = type
        self.name = name
        self.label = label
        self.category = category
        self.tags = tags
        self.groupNames = groupNames
    }
}
