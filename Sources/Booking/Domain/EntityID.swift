/// A typed identifier: the string id of one kind of entity (`UserID`, `ListingID`, …), so that a
/// reservation id can never be passed where a listing id is expected.
public struct EntityID<Entity>: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The id as written in scenario files and stored in the database.
    public let rawValue: String

    /// Wraps a raw id.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// Identifies a `User`.
public typealias UserID = EntityID<User>
/// Identifies a `Listing`.
public typealias ListingID = EntityID<Listing>
/// Identifies a `Reservation`.
public typealias ReservationID = EntityID<Reservation>
/// Identifies a `Conversation`.
public typealias ConversationID = EntityID<Conversation>
/// Identifies a `Message`.
public typealias MessageID = EntityID<Message>
/// Identifies a `Rating`.
public typealias RatingID = EntityID<Rating>
/// Identifies a `HomeConfiguration`.
public typealias HomeConfigurationID = EntityID<HomeConfiguration>
