/// A channel inside a Thing's JSON, with the Items linked to it (openHAB's `EnrichedChannelDTO`).
public struct ChannelDTO: Codable, Sendable, Hashable {
    /// Names of linked Items.
    public var linkedItems: [String]
    /// The channel UID (lower-case key, unlike the Thing's `UID`).
    public var uid: String
    /// The channel id.
    public var id: String
    /// The channel type UID.
    public var channelTypeUID: String?
    /// The Item type to link.
    public var itemType: String?
    /// `STATE` or `TRIGGER`.
    public var kind: String
    /// The label.
    public var label: String?
    /// The description.
    public var description: String?
    /// Default tags.
    public var defaultTags: [String]
    /// Properties.
    public var properties: [String: String]
    /// Configuration.
    public var configuration: [String: String]

    /// Builds the DTO for `channel` with its linked Items.
    public init(_ channel: Channel, linkedItems: [ItemName]) {
        self.linkedItems = linkedItems.map(\.rawValue)
        uid = channel.uid.rawValue
        id = channel.id
        channelTypeUID = channel.channelTypeUID?.rawValue
        itemType = channel.itemType?.rawValue
        kind = channel.kind.rawValue
        label = channel.label
        description = channel.description
        defaultTags = channel.defaultTags
        properties = channel.properties
        configuration = channel.configuration
    }
}

/// A Thing as `GET /rest/things` returns it (openHAB's `EnrichedThingDTO`).
public struct EnrichedThingDTO: Codable, Sendable, Hashable {
    /// The channels.
    public var channels: [ChannelDTO]
    /// Status, detail and description.
    public var statusInfo: ThingStatusInfo
    /// Whether it can be changed through the API.
    public var editable: Bool
    /// The label.
    public var label: String?
    /// Configuration.
    public var configuration: [String: String]
    /// Properties.
    public var properties: [String: String]
    /// The Thing UID (upper-case key, as openHAB writes it).
    public var uid: String
    /// The Thing type UID.
    public var thingTypeUID: String
    /// The location.
    public var location: String?

    enum CodingKeys: String, CodingKey {
        case channels, statusInfo, editable, label, configuration, properties
        case uid = "UID"
        case thingTypeUID, location
    }

    /// Builds the DTO for `thing`; `linkedItems` gives each channel's linked Items.
    public init(_ thing: Thing, linkedItems: [ChannelUID: [ItemName]]) {
        channels = thing.channels.map { ChannelDTO($0, linkedItems: linkedItems[$0.uid] ?? []) }
        statusInfo = thing.statusInfo
        editable = true
        label = thing.label
        configuration = thing.configuration
        properties = thing.properties
        uid = thing.uid.rawValue
        thingTypeUID = thing.thingTypeUID.rawValue
        location = thing.location
    }
}
