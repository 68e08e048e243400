import Simulation

/// Data access for reservations.
extension SQLiteDatabase {
    /// The columns a `Reservation` is read from, in the order ``decodeReservation(_:)`` expects.
    private static let reservationColumns =
        "id, listing_id, guest_id, check_in_day, check_out_day, guests, status, created_at_ms"

    /// The reservation with that id, or `nil`.
    func reservation(_ id: ReservationID) throws(BookingError) -> Reservation? {
        try queryFirst("SELECT \(Self.reservationColumns) FROM reservations WHERE id = ?", .id(id),
                       row: Self.decodeReservation)
    }

    /// The reservation with that id, or `reservation.notFound`.
    func requireReservation(_ id: ReservationID) throws(BookingError) -> Reservation {
        guard let reservation = try reservation(id) else { throw .reservationNotFound(id) }
        return reservation
    }

    /// The reservations `guest` made, any status, sorted by check-in then id.
    func reservations(ofGuest guest: UserID) throws(BookingError) -> [Reservation] {
        try query("SELECT \(Self.reservationColumns) FROM reservations WHERE guest_id = ? ORDER BY check_in_day, id",
                  .id(guest), row: Self.decodeReservation)
    }

    /// The reservations of `listing`, any status, sorted by check-in then id.
    func reservations(ofListing listing: ListingID) throws(BookingError) -> [Reservation] {
        try query("SELECT \(Self.reservationColumns) FROM reservations WHERE listing_id = ? ORDER BY check_in_day, id",
                  .id(listing), row: Self.decodeReservation)
    }

    /// The reservations `guest` made of `listing`, any status, sorted by check-in then id.
    func reservations(ofGuest guest: UserID, listing: ListingID) throws(BookingError) -> [Reservation] {
        try query(
            """
            SELECT \(Self.reservationColumns) FROM reservations
            WHERE guest_id = ? AND listing_id = ? ORDER BY check_in_day, id
            """,
            .id(guest), .id(listing), row: Self.decodeReservation)
    }

    /// The earliest reservation of `listing` that still holds a night of `[checkIn, checkOut)`, or `nil`
    /// when those nights are free (half-open ranges: a stay ending on `checkIn` does not count).
    func firstOverlap(listing: ListingID, checkIn: CivilDate, checkOut: CivilDate) throws(BookingError) -> Reservation? {
        try queryFirst(
            """
            SELECT \(Self.reservationColumns) FROM reservations
            WHERE listing_id = ? AND status <> ? AND check_in_day < ? AND check_out_day > ?
            ORDER BY check_in_day, id LIMIT 1
            """,
            .id(listing), .text(ReservationStatus.cancelled.rawValue), .integer(checkOut.daysSinceEpoch),
            .integer(checkIn.daysSinceEpoch), row: Self.decodeReservation)
    }

    /// Stores a new reservation (the caller has validated it and checked availability in the same transaction).
    func insert(_ reservation: Reservation) throws(BookingError) {
        try execute(
            """
            INSERT INTO reservations (id, listing_id, guest_id, check_in_day, check_out_day, guests, status, created_at_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            .id(reservation.id), .id(reservation.listing), .id(reservation.guest),
            .integer(reservation.checkIn.daysSinceEpoch), .integer(reservation.checkOut.daysSinceEpoch),
            .int(reservation.guests), .text(reservation.status.rawValue),
            .integer(reservation.createdAt.unixMilliseconds))
    }

    /// Sets the status of reservation `id`.
    /// - Throws: `reservation.notFound` when no row was changed.
    func updateStatus(of id: ReservationID, to status: ReservationStatus) throws(BookingError) {
        let changed = try execute("UPDATE reservations SET status = ? WHERE id = ?", .text(status.rawValue), .id(id))
        guard changed == 1 else { throw .reservationNotFound(id) }
    }

    /// Reads a `Reservation` from a row of ``reservationColumns``.
    private static func decodeReservation(_ row: Statement) throws(BookingError) -> Reservation {
        let statusText = try row.string(6)
        guard let status = ReservationStatus(rawValue: statusText) else {
            throw BookingError(.storeFailed,
                               "A reservation stores the unknown status \"\(statusText)\"; the database is damaged — restore it from a backup.")
        }
        return Reservation(id: ReservationID(try row.string(0)), listing: ListingID(try row.string(1)),
                           guest: UserID(try row.string(2)), checkIn: CivilDate(daysSinceEpoch: try row.int64(3)),
                           checkOut: CivilDate(daysSinceEpoch: try row.int64(4)), guests: try row.int(5),
                           status: status, createdAt: SimInstant(unixMilliseconds: try row.int64(7)))
    }
}
