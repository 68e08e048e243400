/// An Item as `GET /rest/items/{name}` returns it (openHAB's `EnrichedItemDTO`); `nil`
/// fields are omitted from the JSON, never written as `null`.
public struct EnrichedItemDTO: Codable, Sendable, Hashable {
    /// The Item's REST URL; clients send commands here.
    public var link: String
    /// The state text, e.g. `21.5 °C`.
    public var state: String
    /// Bounds and format, from the first linked channel.
    public var stateDescription: StateDescription?
    /// The unit symbol of a dimensioned Number Item.
    public var unitSymbol: String?
    /// Whether the Item can be changed through the API.
    public var editable: Bool
    /// The Item type.
    public var type: String
    /// The Item name.
    public var name: String
    /// The label.
    public var label: String?
    /// The icon category.
    public var category: String?
    /// Tags.
    public var tags: [String]
    /// Group memberships.
    public var groupNames: [String]

    /// Builds the DTO for `item`.
    /// - Parameters:
    ///   - baseURL: the server root, e.g. `http://localhost:8080`; `link` is `{baseURL}/rest/items/{name}`.
    ///   - stateDescription: the first linked channel's description, if any.
    public init(_ item: Item, baseURL: String, stateDescription: StateDescription?) {
        link = "\(baseURL)/rest/items/\(item.name)"
        state = item.state.description
        self.stateDescription = stateDescription
        unitSymbol = item.type.unit?.symbol
        editable = item.isManaged
        type = item.type.rawValue
        name = item.name.rawValue
        label = item.label
        category = item.category
        tags = item.tags
        groupNames = item.groupNames
    }
}
