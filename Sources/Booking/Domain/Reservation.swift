import Simulation

/// A guest's booking of a listing for the half-open nights `[checkIn, checkOut)`.
public struct Reservation: Hashable, Sendable {
    public var id: ReservationID
    public var listing: ListingID
    public var guest: UserID
    /// First night.
    public var checkIn: CivilDate
    /// Departure day (not a night of the stay).
    public var checkOut: CivilDate
    /// People staying (1 … the listing's capacity).
    public var guests: Int
    public var status: ReservationStatus
    /// When the booking was made (simulated time).
    public var createdAt: SimInstant

    /// Creates a reservation value (validation happens in the reservation service).
    public init(id: ReservationID, listing: ListingID, guest: UserID, checkIn: CivilDate, checkOut: CivilDate,
                guests: Int, status: ReservationStatus = .confirmed, createdAt: SimInstant) {
        self.id = id
        self.listing = listing
        self.guest = guest
        self.checkIn = checkIn
        self.checkOut = checkOut
        self.guests = guests
        self.status = status
        self.createdAt = createdAt
    }

    /// Number of nights (`checkOut − checkIn` in days).
    public var nights: Int { Int(checkOut.daysSinceEpoch - checkIn.daysSinceEpoch) }

    /// Whether the nights of `self` and `other` intersect (half-open ranges: back-to-back is fine).
    public func overlaps(_ other: Reservation) -> Bool { checkIn < other.checkOut && other.checkIn < checkOut }
}
