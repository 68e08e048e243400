import Booking
import Simulation

// The JSON bodies of the booking API's answers, keys in declaration order. Instants are written
// with offset and zone in the scenario's time zone (as `/twin/clock` writes `now`), dates as
// `YYYY-MM-DD`, times of day as `HH:MM`. `/openapi.json` describes each as a schema of that name.

/// `User`.
struct UserDTO: Encodable {
    var id: String, externalId: String, name: String, email: String

    init(_ user: User) {
        (id, externalId, name, email) = (user.id.rawValue, user.externalID, user.name, user.email)
    }
}

/// `Listing`.
struct ListingDTO: Encodable {
    var id: String, owner: String, name: String, address: String, city: String, country: String
    var capacity: Int, description: String, checkInTime: String, checkOutTime: String, timeZone: String

    init(_ listing: Listing) {
        (id, owner, name, address) = (listing.id.rawValue, listing.owner.rawValue, listing.name, listing.address)
        (city, country, capacity, description) = (listing.city, listing.country, listing.capacity, listing.description)
        (checkInTime, checkOutTime, timeZone) = (listing.checkInTime.description, listing.checkOutTime.description, listing.timeZone)
    }
}

/// `Reservation`.
struct ReservationDTO: Encodable {
    var id: String, listing: String, guest: String, checkIn: String, checkOut: String, nights: Int, guests: Int
    var status: String, createdAt: String

    init(_ reservation: Reservation, _ calendar: LocalCalendar) {
        (id, listing, guest) = (reservation.id.rawValue, reservation.listing.rawValue, reservation.guest.rawValue)
        (checkIn, checkOut, nights) = (reservation.checkIn.description, reservation.checkOut.description, reservation.nights)
        (guests, status, createdAt) = (reservation.guests, reservation.status.rawValue, calendar.isoZonedText(at: reservation.createdAt))
    }
}

/// `Conversation`.
struct ConversationDTO: Encodable {
    var id: String, reservation: String, participants: [String], lastMessageAt: String

    init(_ conversation: Conversation, _ calendar: LocalCalendar) {
        (id, reservation) = (conversation.id.rawValue, conversation.reservation.rawValue)
        (participants, lastMessageAt) = (conversation.participants.map(\.rawValue), calendar.isoZonedText(at: conversation.lastMessageAt))
    }
}

/// `Message`.
struct MessageDTO: Encodable {
    var id: String, conversation: String, sender: String, text: String, sentAt: String

    init(_ message: Message, _ calendar: LocalCalendar) {
        (id, conversation, sender) = (message.id.rawValue, message.conversation.rawValue, message.sender.rawValue)
        (text, sentAt) = (message.text, calendar.isoZonedText(at: message.sentAt))
    }
}

/// `Rating`.
struct RatingDTO: Encodable {
    var id: String, listing: String, author: String, reservation: String, stars: Int, comment: String?, createdAt: String

    init(_ rating: Rating, _ calendar: LocalCalendar) {
        (id, listing, author, reservation) = (rating.id.rawValue, rating.listing.rawValue, rating.author.rawValue, rating.reservation.rawValue)
        (stars, comment, createdAt) = (rating.stars, rating.comment, calendar.isoZonedText(at: rating.createdAt))
    }
}

/// `Ratings`: a listing's ratings with their summary (`average` is absent while there are none).
struct RatingsDTO: Encodable {
    var count: Int, average: Double?, distribution: [Int], ratings: [RatingDTO]

    init(_ summary: RatingSummary, _ ratings: [RatingDTO]) {
        (count, average, distribution, self.ratings) = (summary.count, summary.average, summary.distribution, ratings)
    }
}

/// `Device`: a home configuration; `properties` (each property's Item and state) only for one device.
/// `items` comes out with its keys sorted, as ``OrderedJSONEncoder`` writes every dictionary.
struct DeviceDTO: Encodable {
    struct Property: Encodable { var property: String, item: String, state: String }

    var id: String, listing: String, type: String, name: String, thingUID: String, items: [String: String]
    var properties: [Property]?

    init(_ configuration: HomeConfiguration, properties: [HomePropertyState]? = nil) {
        (id, listing, type, name) = (configuration.id.rawValue, configuration.listing.rawValue, configuration.type.rawValue, configuration.name)
        (thingUID, items) = (configuration.thingUID, configuration.items)
        self.properties = properties?.map { Property(property: $0.property, item: $0.item, state: $0.state) }
    }
}

/// `LockAuditEntry`.
struct LockAuditDTO: Encodable {
    var at: String, listing: String, item: String, user: String, operation: String, outcome: String, reason: String

    init(_ entry: LockAuditEntry, _ calendar: LocalCalendar) {
        (at, listing, item, user) = (calendar.isoZonedText(at: entry.at), entry.listing.rawValue, entry.item, entry.user.rawValue)
        (operation, outcome, reason) = (entry.operation.rawValue, entry.outcome.rawValue, entry.reason)
    }
}
