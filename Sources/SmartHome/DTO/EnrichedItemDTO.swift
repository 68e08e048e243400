/// An Item as `GET /rest/items/{name}` returns it (openHAB's `EnrichedItemDTO`); `nil`
/// fields are omitted from the JSON, never written as `null`.
public struct EnrichedItemDTO: Codable, Sendable, Hashable {
    /// The Item's REST URL; clients send commands here.
    public var link: String
    /// The state text, e.g. `21.5 °C`.
    public var state: String
    /// Bounds and format, from the first linked channel.
    public var stateDescription: StateDescription?
    /// The state before the last change.
    public var lastState: String?
    /// When the state was last updated, ms since the Unix epoch.
    public var lastStateUpdate: Int64?
    /// When the state last changed, ms since the Unix epoch.
    public var lastStateChange: Int64?
    /// The unit symbol of a dimensioned Number Item (none for the unit ONE).
    public var unitSymbol: String?
    /// The metadata namespaces asked for with `?metadata=` that the Item has.
    public var metadata: [String: MetadataDTO]?
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
    ///   - metadataNamespaces: the namespaces to include (`?metadata=`); none by default.
    public init(_ item: Item, baseURL: String, stateDescription: StateDescription?, metadataNamespaces: (String) -> Bool = { _ in false }) {
        link = "\(baseURL)/rest/items/\(item.name)"
        state = item.state.description
        self.stateDescription = stateDescription
        lastState = item.lastState?.description
        lastStateUpdate = item.lastStateUpdate?.unixMilliseconds
        lastStateChange = item.lastStateChange?.unixMilliseconds
        unitSymbol = item.unit.flatMap { $0 == .one ? nil : $0.symbol }
        let selected = item.metadata.filter { metadataNamespaces($0.key) }
        metadata = selected.isEmpty ? nil : selected.mapValues { MetadataDTO(value: $0.value, config: $0.config.isEmpty ? nil : $0.config, editable: true) }
        editable = item.isManaged
        type = item.type.rawValue
        name = item.name.rawValue
        label = item.label
        category = item.category
        tags = item.tags
        groupNames = item.groupNames
    }
}

/// One metadata namespace of an Item in REST (openHAB's `MetadataDTO`); `editable` only in answers.
public struct MetadataDTO: Codable, Sendable, Hashable {
    /// The main value.
    public var value: String?
    /// Extra settings.
    public var config: [String: String]?
    /// Whether it can be changed through the API (answers only).
    public var editable: Bool?

    public init(value: String?, config: [String: String]? = nil, editable: Bool? = nil) {
        self.value = value
        self.config = config
        self.editable = editable
    }
}
