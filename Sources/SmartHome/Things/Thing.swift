/// A device known to openHAB (the "physical layer"), with its channels and status.
public struct Thing: Sendable, Hashable {
    /// The Thing's UID.
    public let uid: ThingUID
    /// The Thing type, by default the first two segments of the UID.
    public var thingTypeUID: ThingTypeUID
    /// A human-readable label.
    public var label: String?
    /// The channels, in the order the handler declares them.
    public var channels: [Channel]
    /// The current status.
    public var statusInfo: ThingStatusInfo
    /// Configuration parameters.
    public var configuration: [String: String]
    /// Read-only properties (vendor, firmware…).
    public var properties: [String: String]
    /// Where it is, e.g. the listing.
    public var location: String?

    /// Creates a Thing in status UNINITIALIZED; its handler reports the real status.
    public init(uid: ThingUID, thingTypeUID: ThingTypeUID? = nil, label: String? = nil, channels: [Channel] = [],
                configuration: [String: String] = [:], properties: [String: String] = [:], location: String? = nil) {
        self.uid = uid
        self.thingTypeUID = thingTypeUID ?? uid.thingTypeUID
        self.label = label
        self.channels = channels
        self.statusInfo = .uninitialized
        self.configuration = configuration
        self.properties = properties
        self.location = location
    }

    /// The channel with `uid`, if the Thing has it.
    public func channel(_ uid: ChannelUID) -> Channel? { channels.first { $0.uid == uid } }
}
