import Simulation
import Synchronization

/// Books stays and moves them through their life — `confirmed → checkedIn → checkedOut` or
/// `confirmed → cancelled` (the original's ReservationController, plus the status changes).
///
/// A booking's availability check, the reservation, its conversation and the guest's automatic
/// first message are written in one transaction, so concurrent bookings of the same nights can
/// never both succeed and a failed booking leaves nothing behind. Observers hear about each
/// change after it is committed, in the order they were added.
public final class ReservationService: StayDirectory {
    /// Where reservations are stored.
    public let store: BookingStore
    /// Where "now" comes from (the booking time, the check-in window).
    public let clock: BookingClock
    /// Told about every committed change, in the order added.
    private let observers = Mutex<[any ReservationObserver]>([])

    /// The years a stay's dates may fall in.
    public static let allowedYears = 1...9999

    /// Creates the service over `store`.
    public init(store: BookingStore, clock: BookingClock) {
        self.store = store
        self.clock = clock
    }

    /// Adds an observer; it hears about every later change after the change is committed, after
    /// the observers added before it.
    public func addObserver(_ observer: any ReservationObserver) {
        observers.withLock { $0.append(observer) }
    }

    /// Forgets every observer (a finished world's automations and meters, which hold the services).
    public func removeAllObservers() {
        let dropped = observers.withLock { list -> [any ReservationObserver] in
            defer { list.removeAll() }
            return list
        }
        _ = dropped  // released here, outside the lock
    }

    /// Books `listing` for `guest` for the nights `[checkIn, checkOut)`.
    ///
    /// Opens the reservation's conversation (guest and owner) with an automatic first message from the guest.
    /// - Parameters:
    ///   - id: The reservation's id; `nil` generates `res-1`, `res-2`, … from a counter in the database.
    ///   - guest: Who books.
    ///   - listing: What is booked.
    ///   - checkIn: The first night.
    ///   - checkOut: The departure day (not a night of the stay); after `checkIn`.
    ///   - guests: People staying, 1 … the listing's capacity.
    /// - Returns: The confirmed reservation.
    /// - Throws: `user.notFound`, `listing.notFound`, `reservation.dates` (check-out not after check-in, or a year
    ///   outside 1…9999), `reservation.capacity`, `reservation.ownListing`, `reservation.duplicate` (id taken),
    ///   `reservation.overlap` (a non-cancelled reservation holds one of the nights) — checked in that order.
    public func book(id: ReservationID? = nil, guest: UserID, listing: ListingID, checkIn: CivilDate,
                     checkOut: CivilDate, guests: Int) async throws(BookingError) -> Reservation
    {
        let now = clock.now
        let reservation = try store.write { database throws(BookingError) -> Reservation in
            _ = try database.requireUser(guest)
            let flat = try database.requireListing(listing)
            try Self.checkDates(checkIn: checkIn, checkOut: checkOut, listing: listing)
            if let calendar = try? LocalCalendar(identifier: flat.timeZone), checkIn < calendar.date(at: now) {
                throw BookingError(.reservationDates,
                                   "Check-in \(checkIn) is in the past: it is already \(calendar.date(at: now)) at listing \"\(listing)\"; book from today on.")
            }
            guard guests >= 1, guests <= flat.capacity else {
                throw BookingError(.reservationCapacity,
                                   "Listing \"\(listing)\" takes 1 to \(flat.capacity) guest(s), so a booking for \(guests) guest(s) is not possible; book for \(guests < 1 ? "at least one guest" : "fewer guests or choose a bigger listing").")
            }
            guard flat.owner != guest else {
                throw BookingError(.reservationOwnListing,
                                   "User \"\(guest)\" owns listing \"\(listing)\" and cannot book it; book it as another user.")
            }
            let reservationID: ReservationID
            if let id {
                guard try database.reservation(id) == nil else {
                    throw BookingError(.reservationDuplicate,
                                       "A reservation with id \"\(id)\" already exists; choose another id, or leave the id out to get a generated one.")
                }
                reservationID = id
            } else {
                reservationID = ReservationID(try database.generateID(sequence: "reservation", prefix: "res-") {
                    candidate throws(BookingError) in try database.reservation(ReservationID(candidate)) != nil
                })
            }
            if let other = try database.firstOverlap(listing: listing, checkIn: checkIn, checkOut: checkOut) {
                throw BookingError(.reservationOverlap,
                                   "Listing \"\(listing)\" is already booked for the nights \(other.checkIn) → \(other.checkOut) (reservation \"\(other.id)\"), which overlap \(checkIn) → \(checkOut); choose other dates (a stay may start on the day another ends).")
            }
            let reservation = Reservation(id: reservationID, listing: listing, guest: guest, checkIn: checkIn,
                                          checkOut: checkOut, guests: guests, status: .confirmed, createdAt: now)
            try database.insert(reservation)
            let conversationID = ConversationID(try database.generateID(sequence: "conversation", prefix: "conv-") {
                candidate throws(BookingError) in try database.conversation(ConversationID(candidate)) != nil
            })
            try database.insert(Conversation(id: conversationID, participants: [guest, flat.owner].sorted(),
                                             reservation: reservationID, lastMessageAt: now))
            let messageID = MessageID(try database.generateID(sequence: "message", prefix: "msg-") {
                candidate throws(BookingError) in try database.messageExists(MessageID(candidate))
            })
            try database.insert(Message(id: messageID, conversation: conversationID, sender: guest,
                                        text: Self.greeting(listing: flat, reservation: reservation), sentAt: now))
            return reservation
        }
        await notify(reservation, previous: nil)
        return reservation
    }

    /// Cancels a confirmed reservation, freeing its nights.
    /// - Returns: The cancelled reservation.
    /// - Throws: `reservation.notFound`; `reservation.state` unless it is `confirmed`.
    public func cancel(_ id: ReservationID) async throws(BookingError) -> Reservation {
        try await move(id, to: .cancelled)
    }

    /// Checks the guest in: from local midnight of the check-in date until (not including) the check-out
    /// moment, both in the listing's time zone.
    /// - Returns: The checked-in reservation.
    /// - Throws: `reservation.notFound`; `reservation.state` unless it is `confirmed` and now is in that window.
    public func checkIn(_ id: ReservationID) async throws(BookingError) -> Reservation {
        try await move(id, to: .checkedIn)
    }

    /// Checks the guest out (at any time: early departures and late ones are both recorded).
    /// - Returns: The checked-out reservation.
    /// - Throws: `reservation.notFound`; `reservation.state` unless it is `checkedIn`.
    public func checkOut(_ id: ReservationID) async throws(BookingError) -> Reservation {
        try await move(id, to: .checkedOut)
    }

    /// The reservation with that id.
    /// - Throws: `reservation.notFound`.
    public func reservation(_ id: ReservationID) async throws(BookingError) -> Reservation {
        try store.read { database throws(BookingError) in try database.requireReservation(id) }
    }

    /// The reservations `guest` made, any status, sorted by check-in then id (the original's `getReservationsForUser`).
    /// - Throws: `user.notFound` for an unknown user.
    public func reservations(ofGuest guest: UserID) async throws(BookingError) -> [Reservation] {
        try store.read { database throws(BookingError) in
            _ = try database.requireUser(guest)
            return try database.reservations(ofGuest: guest)
        }
    }

    /// Every reservation of the listing, any status, sorted by check-in then id (the original's `getReservationsForCouch`).
    /// - Throws: `listing.notFound` for an unknown listing.
    public func reservations(ofListing id: ListingID) async throws(BookingError) -> [Reservation] {
        try store.read { database throws(BookingError) in
            _ = try database.requireListing(id)
            return try database.reservations(ofListing: id)
        }
    }

    /// The listing's reservation `id`, any status, or `nil` when the listing has none by that id: one row,
    /// where ``reservations(ofListing:)`` would read the listing's every stay (automations ask per stay).
    /// - Throws: `listing.notFound` for an unknown listing.
    public func reservation(_ id: ReservationID, ofListing listing: ListingID) async throws(BookingError) -> Reservation? {
        try store.read { database throws(BookingError) in
            _ = try database.requireListing(listing)
            guard let reservation = try database.reservation(id), reservation.listing == listing else { return nil }
            return reservation
        }
    }

    /// The listing with that id.
    /// - Throws: `listing.notFound`.
    public func listing(_ id: ListingID) async throws(BookingError) -> Listing {
        try store.read { database throws(BookingError) in try database.requireListing(id) }
    }

    /// Moves reservation `id` to `next` in one transaction, then tells the observers.
    private func move(_ id: ReservationID, to next: ReservationStatus) async throws(BookingError) -> Reservation {
        let now = clock.now
        let (updated, previous) = try store.write {
            database throws(BookingError) -> (Reservation, ReservationStatus) in
            var reservation = try database.requireReservation(id)
            let previous = reservation.status
            guard previous.canMove(to: next) else {
                throw BookingError(.reservationState,
                                   "Reservation \"\(id)\" is \(previous.rawValue) and cannot become \(next.rawValue); the allowed moves are confirmed → checkedIn → checkedOut and confirmed → cancelled.")
            }
            if next == .checkedIn {
                try Self.checkArrivalWindow(reservation, listing: try database.requireListing(reservation.listing), now: now)
            }
            try database.updateStatus(of: id, to: next)
            reservation.status = next
            return (reservation, previous)
        }
        await notify(updated, previous: previous)
        return updated
    }

    /// Tells every observer, in the order added, that `reservation` changed.
    private func notify(_ reservation: Reservation, previous: ReservationStatus?) async {
        let current = observers.withLock { $0 }
        for observer in current { await observer.reservationDidChange(reservation, previous: previous) }
    }

    /// Throws `reservation.dates` unless both dates are in 1…9999 and check-out is after check-in.
    private static func checkDates(checkIn: CivilDate, checkOut: CivilDate, listing: ListingID) throws(BookingError) {
        for (label, date) in [("Check-in", checkIn), ("Check-out", checkOut)] where !allowedYears.contains(date.year) {
            throw BookingError(.reservationDates,
                               "\(label) \(date) for listing \"\(listing)\" is in year \(date.year), outside 1 … 9999; use a real date such as 2026-01-09.")
        }
        guard checkOut > checkIn else {
            throw BookingError(.reservationDates,
                               "Check-out \(checkOut) is not after check-in \(checkIn) for listing \"\(listing)\"; a stay needs at least one night — check-out must be a later day.")
        }
    }

    /// Throws `reservation.state` unless `now` is from local midnight of the check-in date up to (excluding)
    /// the check-out moment, in the listing's time zone.
    private static func checkArrivalWindow(_ reservation: Reservation, listing: Listing, now: SimInstant)
        throws(BookingError)
    {
        let calendar = try listing.calendar()
        let opens = calendar.startOfDay(reservation.checkIn)
        let closes = listing.checkOutInstant(on: reservation.checkOut, calendar: calendar)
        let local = calendar.localDateTime(at: now)
        guard now >= opens else {
            throw BookingError(.reservationState,
                               "Reservation \"\(reservation.id)\" cannot check in at \(local) (\(listing.timeZone)): the stay starts on \(reservation.checkIn) and arrival opens at local midnight of that day; check in then.")
        }
        guard now < closes else {
            throw BookingError(.reservationState,
                               "Reservation \"\(reservation.id)\" cannot check in at \(local) (\(listing.timeZone)): the stay ended at check-out \(calendar.localDateTime(at: closes)); book a new stay instead.")
        }
    }

    /// The guest's automatic first message of a booking.
    static func greeting(listing: Listing, reservation: Reservation) -> String {
        "Hi! I booked \(listing.name) for \(reservation.checkIn) → \(reservation.checkOut), \(reservation.guests) guest(s)."
    }
}
