/// A link as the links REST resource reads and writes it (openHAB's `EnrichedItemChannelLinkDTO`).
public struct ItemChannelLinkDTO: Codable, Sendable, Hashable {
    /// Whether it can be changed through the API.
    public var editable: Bool?
    /// The channel UID.
    public var channelUID: String
    /// Configuration, with `profile`.
    public var configuration: [String: String]?
    /// The Item name.
    public var itemName: String

    /// Creates a DTO.
    public init(itemName: String, channelUID: String, configuration: [String: String]? = nil, editable: Bool? = nil) {
        self.itemName = itemName
        self.channelUID = channelUID
        self.configuration = configuration
        self.editable = editable
    }

    /// Builds the DTO for a link.
    public init(_ link: ItemChannelLink) {
        self.init(itemName: link.itemName.rawValue, channelUID: link.channelUID.rawValue,
                  configuration: link.configuration, editable: true)
    }
}
