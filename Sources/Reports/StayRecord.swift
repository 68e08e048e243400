import Simulation

/// One reservation as `stays.csv` and charts need it: who, where, when, and its final status.
public struct StayRecord: Sendable, Hashable {
    /// The reservation id, e.g. `r1`.
    public var reservation: String
    /// The listing id.
    public var listing: String
    /// The guest's user id (or name, as the runner chooses).
    public var guest: String
    /// The check-in date (local).
    public var checkIn: CivilDate
    /// The check-out date (local).
    public var checkOut: CivilDate
    /// Nights booked.
    public var nights: Int
    /// The reservation status: `confirmed`, `checkedIn`, `checkedOut` or `cancelled`.
    public var status: String
    /// The check-in moment: the listing's check-in time on ``checkIn``.
    public var windowStart: SimInstant
    /// The check-out moment: the listing's check-out time on ``checkOut``.
    public var windowEnd: SimInstant

    /// Creates a stay record.
    public init(reservation: String, listing: String, guest: String, checkIn: CivilDate, checkOut: CivilDate,
                nights: Int, status: String, windowStart: SimInstant, windowEnd: SimInstant) {
        self.reservation = reservation
        self.listing = listing
        self.guest = guest
        self.checkIn = checkIn
        self.checkOut = checkOut
        self.nights = nights
        self.status = status
        self.windowStart = windowStart
        self.windowEnd = windowEnd
    }

    /// Whether the reservation was cancelled (its metrics stay empty in `stays.csv`).
    public var isCancelled: Bool { status == "cancelled" }
}
