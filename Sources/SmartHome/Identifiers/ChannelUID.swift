/// A channel's unique id: its Thing's UID plus `:` and the channel id,
/// e.g. `twin:thermostat:flat-1:heating:setpoint`.
public struct ChannelUID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The full UID text.
    public let rawValue: String
    /// The text's hash, for dictionaries keyed by channel UID.
    private let textHash: TextHash

    /// Parses and validates a channel UID (at least four segments; the channel id may hold a
    /// `group#id` part as openHAB allows).
    /// - Throws: ``SmartHomeError`` `uid.invalid`.
    public init(_ text: String) throws(SmartHomeError) {
        let segments = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard let last = segments.last else {
            throw SmartHomeError(.invalidUID, "Channel UID is empty; write e.g. \"twin:thermostat:flat-1:heating:setpoint\".")
        }
        // openHAB allows one '#' in the last segment to separate a channel group from the id.
        let groupParts = last.split(separator: "#", omittingEmptySubsequences: false)
        guard groupParts.count <= 2 else {
            throw SmartHomeError(.invalidUID, "Channel UID \"\(text)\" has more than one \"#\" in its channel id.")
        }
        let flattened = segments.dropLast() + groupParts.map(String.init)
        _ = try UIDSegments.parse(flattened.joined(separator: ":"), minimum: 4 + (groupParts.count - 1),
                                  kind: "Channel UID", example: "twin:thermostat:flat-1:heating:setpoint")
        guard segments.count >= 4 else {
            throw SmartHomeError(.invalidUID,
                                 "Channel UID \"\(text)\" has \(segments.count) segment(s) but needs at least 4: a Thing UID and a channel id (e.g. \"twin:thermostat:flat-1:heating:setpoint\").")
        }
        rawValue = text
        textHash = TextHash(text)
    }

    /// The channel `id` of `thing`.
    /// - Throws: ``SmartHomeError`` `uid.invalid` if `id` is not a valid segment.
    public init(thing: ThingUID, id: String) throws(SmartHomeError) {
        try self.init("\(thing.rawValue):\(id)")
    }

    /// The Thing this channel belongs to.
    public var thingUID: ThingUID {
        let text = rawValue[..<(rawValue.lastIndex(of: ":") ?? rawValue.endIndex)]
        return ThingUID(unchecked: String(text))
    }

    /// The channel id, the last segment (e.g. `setpoint`).
    public var id: String {
        guard let colon = rawValue.lastIndex(of: ":") else { return rawValue }
        return String(rawValue[rawValue.index(after: colon)...])
    }

    public static func < (lhs: ChannelUID, rhs: ChannelUID) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func == (lhs: ChannelUID, rhs: ChannelUID) -> Bool { lhs.textHash == rhs.textHash && lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(textHash.value) }
    /// The bucket word for hashed collections: the stored text hash through one finaliser, no `Hasher`.
    public func _rawHashValue(seed: Int) -> Int { textHash.bucketHash(seed: seed) }
    public var description: String { rawValue }
}

/// A channel type, `binding:type`, e.g. `twin:setpoint`.
public struct ChannelTypeUID: Hashable, Sendable, CustomStringConvertible {
    /// The full UID text.
    public let rawValue: String

    /// Parses and validates a channel type UID (exactly two segments).
    /// - Throws: ``SmartHomeError`` `uid.invalid`.
    public init(_ text: String) throws(SmartHomeError) {
        let segments = try UIDSegments.parse(text, minimum: 2, kind: "Channel type UID", example: "twin:setpoint")
        guard segments.count == 2 else {
            throw SmartHomeError(.invalidUID, "Channel type UID \"\(text)\" must have exactly two segments (e.g. \"twin:setpoint\").")
        }
        rawValue = text
    }

    public var description: String { rawValue }
}

extension ThingUID {
    /// A UID already known to be valid (the Thing part of a valid channel UID).
    init(unchecked text: String) { rawValue = text }
}
