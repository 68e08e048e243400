import Simulation

/// A rental flat (the original's "Couch"): who owns it, where it is and when guests arrive and leave.
public struct Listing: Hashable, Sendable {
    public var id: ListingID
    public var owner: UserID
    public var name: String
    public var address: String
    public var city: String
    public var country: String
    /// Most guests per reservation (≥ 1).
    public var capacity: Int
    public var description: String
    /// Local check-in time on the check-in date (default 15:00).
    public var checkInTime: LocalTime
    /// Local check-out time on the check-out date (default 10:00).
    public var checkOutTime: LocalTime
    /// IANA time zone of the flat, e.g. `Europe/Budapest`.
    public var timeZone: String

    /// Creates a listing value (validation happens in the listing service).
    /// Check-in from 15:00 and check-out by 10:00, unless a listing says otherwise.
    public static let defaultCheckInTime = LocalTime(millisecondOfDay: 15 * 3_600_000)
    public static let defaultCheckOutTime = LocalTime(millisecondOfDay: 10 * 3_600_000)

    public init(id: ListingID, owner: UserID, name: String, address: String = "", city: String, country: String,
                capacity: Int, description: String = "",
                checkInTime: LocalTime = Listing.defaultCheckInTime,
                checkOutTime: LocalTime = Listing.defaultCheckOutTime,
                timeZone: String) {
        self.id = id
        self.owner = owner
        self.name = name
        self.address = address
        self.city = city
        self.country = country
        self.capacity = capacity
        self.description = description
        self.checkInTime = checkInTime
        self.checkOutTime = checkOutTime
        self.timeZone = timeZone
    }

    /// The flat's local calendar.
    /// - Throws: `listing.invalid` when the time zone is not an IANA zone known here (the listing
    ///   service refuses such listings, so this means the data was changed behind its back).
    public func calendar() throws(BookingError) -> LocalCalendar {
        do {
            return try LocalCalendar(identifier: timeZone)
        } catch {
            throw BookingError(.listingInvalid, "Listing \(id) has the time zone \"\(timeZone)\", which is unknown here: \(error.message)")
        }
    }

    /// The check-in moment of a stay starting on `date`: `checkInTime` in the flat's zone, DST-correct
    /// (a time in a spring-forward gap moves forward, an ambiguous one takes the earlier instant, as java.time does).
    public func checkInInstant(on date: CivilDate, calendar: LocalCalendar) -> SimInstant {
        calendar.resolvedInstant(for: LocalDateTime(date: date, time: checkInTime))
    }

    /// The check-out moment of a stay ending on `date`.
    public func checkOutInstant(on date: CivilDate, calendar: LocalCalendar) -> SimInstant {
        calendar.resolvedInstant(for: LocalDateTime(date: date, time: checkOutTime))
    }
}
