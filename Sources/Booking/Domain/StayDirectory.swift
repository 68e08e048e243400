/// Read access to listings and their reservations: what the home service (access windows) and the
/// automations (preheat, setback) need from the reservation side. The store-backed services implement it.
public protocol StayDirectory: Sendable {
    /// The listing with that id, or `listing.notFound`.
    func listing(_ id: ListingID) async throws(BookingError) -> Listing
    /// Every reservation of the listing, any status, sorted by check-in then id.
    func reservations(ofListing id: ListingID) async throws(BookingError) -> [Reservation]
    /// The listing's reservation `id`, any status, or `nil` when the listing has none by that id (what
    /// ``reservations(ofListing:)`` holds with that id, read alone); `listing.notFound` for an unknown listing.
    func reservation(_ id: ReservationID, ofListing listing: ListingID) async throws(BookingError) -> Reservation?
}

/// Told about every change of a reservation after it is committed (booked, cancelled, checked in or out),
/// so automations can plan around stays.
public protocol ReservationObserver: Sendable {
    /// `reservation` has just been created (`previous == nil`) or moved from `previous` to its current status.
    func reservationDidChange(_ reservation: Reservation, previous: ReservationStatus?) async
}

/// Persistence of home configurations (one per device of a listing).
public protocol HomeConfigurationRepository: Sendable {
    /// Stores a new configuration; `configuration.invalid` if the id exists.
    func insert(_ configuration: HomeConfiguration) async throws(BookingError)
    /// The configuration with that id, or `configuration.notFound`.
    func configuration(_ id: HomeConfigurationID) async throws(BookingError) -> HomeConfiguration
    /// A listing's configurations sorted by name.
    func configurations(ofListing id: ListingID) async throws(BookingError) -> [HomeConfiguration]
}

/// Persistence of the lock audit log (append-only).
public protocol LockAuditRepository: Sendable {
    /// Appends one entry.
    func append(_ entry: LockAuditEntry) async throws(BookingError)
    /// Every entry in order of appending, optionally for one listing only.
    func entries(listing: ListingID?) async throws(BookingError) -> [LockAuditEntry]
}
