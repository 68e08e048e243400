/// One Item as an `.items` file declares it, checked against openHAB's types, dimensions, units and
/// Group functions (``ItemsFileParser``).
public struct ItemDefinition: Sendable, Hashable {
    /// The Item name.
    public var name: String
    /// The type (`Group` for Groups, whatever their base).
    public var type: ItemType
    /// A Group's base type and function (`Group:Number:Temperature:AVG`); `nil` otherwise.
    public var aggregation: GroupAggregation?
    /// The label without its state pattern (`Bathroom` of `"Bathroom [%.1f °C]"`).
    public var label: String?
    /// The state pattern (`%.1f °C`), if the label has one.
    public var statePattern: String?
    /// The icon (`<temperature>`, `<oh:classic:heating>`).
    public var icon: String?
    /// The Groups it is a member of, in file order.
    public var groups: [String]
    /// Tags, in file order.
    public var tags: [String]
    /// Metadata by namespace (`unit`, `autoupdate`, `expire`, …), without `channel`.
    public var metadata: [String: ItemMetadata]
    /// Channel links (`channel="binding:type:thing:channel" [profile="…"]`), in file order.
    public var channels: [ChannelLinkDefinition]
    /// Where the Item starts.
    public var line: Int
    public var column: Int

    /// The openHAB Item this declares (file-defined, so not managed), in state `NULL`.
    public func item() throws(SmartHomeError) -> Item {
        var item = Item(name: try ItemName(name), type: type, label: label, category: icon, tags: tags, groupNames: groups,
                        metadata: metadata, isManaged: false)
        item.aggregation = aggregation
        item.statePattern = statePattern
        return item
    }
}

/// A `channel="…"` binding of an `.items` file.
public struct ChannelLinkDefinition: Sendable, Hashable {
    /// The channel UID as written.
    public var uid: String
    /// The link's configuration (`profile`, …), values as text.
    public var configuration: [String: String]
    public var line: Int
    public var column: Int
}
