/// A Thing's unique id, `binding:type[:bridge…]:id`, e.g. `twin:thermostat:flat-1:heating`.
public struct ThingUID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The full UID text.
    public let rawValue: String
    /// The colon-separated segments (at least three).
    public var segments: [String] { rawValue.split(separator: ":", omittingEmptySubsequences: false).map(String.init) }

    /// Parses and validates a Thing UID.
    /// - Throws: ``SmartHomeError`` `uid.invalid` naming the bad segment or count.
    public init(_ text: String) throws(SmartHomeError) {
        _ = try UIDSegments.parse(text, minimum: 3, kind: "Thing UID", example: "twin:thermostat:flat-1")
        rawValue = text
    }

    /// Builds `binding:type:id` from its parts.
    /// - Throws: ``SmartHomeError`` `uid.invalid` if a part is not a valid segment.
    public init(binding: String, type: String, id: String) throws(SmartHomeError) {
        try self.init("\(binding):\(type):\(id)")
    }

    /// The Thing type, `binding:type`.
    public var thingTypeUID: ThingTypeUID { ThingTypeUID(validated: segments.prefix(2).joined(separator: ":")) }
    /// The binding id, the first segment.
    public var bindingID: String { segments[0] }
    /// The last segment, the Thing's own id.
    public var id: String { segments[segments.count - 1] }

    public static func < (lhs: ThingUID, rhs: ThingUID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text) } catch { throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message)) }
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A Thing type, `binding:type`, e.g. `twin:thermostat`.
public struct ThingTypeUID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The full UID text.
    public let rawValue: String

    /// Parses and validates a Thing type UID (exactly two segments).
    /// - Throws: ``SmartHomeError`` `uid.invalid`.
    public init(_ text: String) throws(SmartHomeError) {
        let segments = try UIDSegments.parse(text, minimum: 2, kind: "Thing type UID", example: "twin:thermostat")
        guard segments.count == 2 else {
            throw SmartHomeError(.invalidUID, "Thing type UID \"\(text)\" must have exactly two segments, binding and type (e.g. \"twin:thermostat\").")
        }
        rawValue = text
    }

    init(validated text: String) { rawValue = text }

    public static func < (lhs: ThingTypeUID, rhs: ThingTypeUID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}
