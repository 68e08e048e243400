// Test support only: an in-memory stand-in for the SQLite store and the reservation service, which are
// written elsewhere. It implements the protocols the home service and the automations program against.
import Booking
import Simulation

/// In-memory listings, reservations, home configurations and lock audit log, with reservation observers.
actor TestStays: StayDirectory, HomeConfigurationRepository, LockAuditRepository {
    private var listings: [ListingID: Listing] = [:]
    private var reservations: [ReservationID: Reservation] = [:]
    private var configurations: [HomeConfigurationID: HomeConfiguration] = [:]
    private var audit: [LockAuditEntry] = []
    private var observers: [any ReservationObserver] = []

    func add(_ listing: Listing) { listings[listing.id] = listing }

    func observe(_ observer: any ReservationObserver) { observers.append(observer) }

    /// Stores a confirmed reservation and tells the observers (as the reservation service does after commit).
    @discardableResult
    func book(_ id: ReservationID, listing: ListingID, guest: UserID, checkIn: String, checkOut: String,
              at createdAt: SimInstant) async throws -> Reservation {
        let reservation = Reservation(id: id, listing: listing, guest: guest,
                                      checkIn: try LocalCalendar.parseDate(checkIn), checkOut: try LocalCalendar.parseDate(checkOut),
                                      guests: 1, status: .confirmed, createdAt: createdAt)
        reservations[id] = reservation
        for observer in observers { await observer.reservationDidChange(reservation, previous: nil) }
        return reservation
    }

    /// Moves a reservation to `status` and tells the observers.
    func move(_ id: ReservationID, to status: ReservationStatus) async throws {
        guard var reservation = reservations[id] else { throw BookingError(.reservationNotFound, "no \(id)") }
        let previous = reservation.status
        reservation.status = status
        reservations[id] = reservation
        for observer in observers { await observer.reservationDidChange(reservation, previous: previous) }
    }

    // MARK: StayDirectory

    func listing(_ id: ListingID) async throws(BookingError) -> Listing {
        guard let listing = listings[id] else { throw BookingError(.listingNotFound, "Listing \(id) does not exist.") }
        return listing
    }

    func reservations(ofListing id: ListingID) async throws(BookingError) -> [Reservation] {
        reservations.values.filter { $0.listing == id }.sorted { ($0.checkIn, $0.id) < ($1.checkIn, $1.id) }
    }

    // MARK: HomeConfigurationRepository

    func insert(_ configuration: HomeConfiguration) async throws(BookingError) {
        guard configurations[configuration.id] == nil else {
            throw BookingError(.configurationInvalid, "Configuration \(configuration.id) exists.")
        }
        configurations[configuration.id] = configuration
    }

    func configuration(_ id: HomeConfigurationID) async throws(BookingError) -> HomeConfiguration {
        guard let configuration = configurations[id] else {
            throw BookingError(.configurationNotFound, "Configuration \(id) does not exist.")
        }
        return configuration
    }

    func configurations(ofListing id: ListingID) async throws(BookingError) -> [HomeConfiguration] {
        configurations.values.filter { $0.listing == id }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    // MARK: LockAuditRepository

    func append(_ entry: LockAuditEntry) async throws(BookingError) { audit.append(entry) }

    func entries(listing: ListingID?) async throws(BookingError) -> [LockAuditEntry] {
        audit.filter { listing == nil || $0.listing == listing }
    }
}
