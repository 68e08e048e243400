/// A link between an Item and a channel: commands flow to the channel, states back to the Item.
public struct ItemChannelLink: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The linked Item.
    public let itemName: ItemName
    /// The linked channel.
    public let channelUID: ChannelUID
    /// Link configuration; `profile` defaults to `system:default`.
    public var configuration: [String: String]

    /// Creates a link with the default profile unless `configuration` names another.
    public init(itemName: ItemName, channelUID: ChannelUID, configuration: [String: String] = [:]) {
        self.itemName = itemName
        self.channelUID = channelUID
        var configuration = configuration
        if configuration["profile"] == nil { configuration["profile"] = "system:default" }
        self.configuration = configuration
    }

    public static func < (lhs: ItemChannelLink, rhs: ItemChannelLink) -> Bool {
        (lhs.itemName.rawValue, lhs.channelUID.rawValue) < (rhs.itemName.rawValue, rhs.channelUID.rawValue)
    }

    /// `item -> channel`, as openHAB prints a link.
    public var description: String { "\(itemName) -> \(channelUID)" }
}
