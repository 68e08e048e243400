/// One function of a Thing (a setpoint, a temperature sensor, a relay).
public struct Channel: Sendable, Hashable {
    /// Whether a channel carries states or fires triggers.
    public enum Kind: String, Sendable, Hashable, Codable {
        case state = "STATE"
        case trigger = "TRIGGER"
    }

    /// The channel's UID (the Thing's UID plus the channel id).
    public let uid: ChannelUID
    /// The channel type, e.g. `twin:setpoint`.
    public var channelTypeUID: ChannelTypeUID?
    /// The Item type to link to it, e.g. `Number:Temperature` (`nil` for trigger channels).
    public var itemType: ItemType?
    /// STATE or TRIGGER.
    public var kind: Kind
    /// A human-readable label.
    public var label: String?
    /// A longer description.
    public var description: String?
    /// Tags that Items linked to it get by default.
    public var defaultTags: [String]
    /// Read-only properties.
    public var properties: [String: String]
    /// Configuration parameters.
    public var configuration: [String: String]
    /// Bounds and format for linked Items.
    public var stateDescription: StateDescription?

    /// Creates a channel.
    public init(uid: ChannelUID, channelTypeUID: ChannelTypeUID? = nil, itemType: ItemType?, kind: Kind = .state,
                label: String? = nil, description: String? = nil, defaultTags: [String] = [],
                properties: [String: String] = [:], configuration: [String: String] = [:],
                stateDescription: StateDescription? = nil) {
        self.uid = uid
        self.channelTypeUID = channelTypeUID
        self.itemType = itemType
        self.kind = kind
        self.label = label
        self.description = description
        self.defaultTags = defaultTags
        self.properties = properties
        self.configuration = configuration
        self.stateDescription = stateDescription
    }

    /// The channel id, e.g. `setpoint`.
    public var id: String { uid.id }
}
