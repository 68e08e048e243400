import Simulation

/// Data access for listings.
extension SQLiteDatabase {
    /// The columns a `Listing` is read from, in the order ``decodeListing(_:)`` expects.
    private static let listingColumns =
        "id, owner_id, name, address, city, country, capacity, description, check_in_time_ms, check_out_time_ms, time_zone"

    /// The listing with that id, or `nil`.
    func listing(_ id: ListingID) throws(BookingError) -> Listing? {
        try queryFirst("SELECT \(Self.listingColumns) FROM listings WHERE id = ?", .id(id), row: Self.decodeListing)
    }

    /// The listing with that id, or `listing.notFound`.
    func requireListing(_ id: ListingID) throws(BookingError) -> Listing {
        guard let listing = try listing(id) else { throw .listingNotFound(id) }
        return listing
    }

    /// The listings `owner` owns, sorted by id.
    func listings(ofOwner owner: UserID) throws(BookingError) -> [Listing] {
        try query("SELECT \(Self.listingColumns) FROM listings WHERE owner_id = ? ORDER BY id", .id(owner),
                  row: Self.decodeListing)
    }

    /// The listings in `city` (exact match) not owned by `excluded`, sorted by id.
    func listings(inCity city: String, excluding excluded: UserID?) throws(BookingError) -> [Listing] {
        try query("SELECT \(Self.listingColumns) FROM listings WHERE city = ? AND owner_id IS NOT ? ORDER BY id",
                  .text(city), excluded.map(SQLiteValue.id) ?? .null, row: Self.decodeListing)
    }

    /// Stores a new listing (the caller has validated it).
    func insert(_ listing: Listing) throws(BookingError) {
        try execute(
            """
            INSERT INTO listings (id, owner_id, name, address, city, country, capacity, description,
                                  check_in_time_ms, check_out_time_ms, time_zone)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            .id(listing.id), .id(listing.owner), .text(listing.name), .text(listing.address), .text(listing.city),
            .text(listing.country), .int(listing.capacity), .text(listing.description),
            .integer(listing.checkInTime.millisecondOfDay), .integer(listing.checkOutTime.millisecondOfDay),
            .text(listing.timeZone))
    }

    /// Reads a `Listing` from a row of ``listingColumns``.
    private static func decodeListing(_ row: Statement) throws(BookingError) -> Listing {
        Listing(id: ListingID(try row.string(0)), owner: UserID(try row.string(1)), name: try row.string(2),
                address: try row.string(3), city: try row.string(4), country: try row.string(5),
                capacity: try row.int(6), description: try row.string(7),
                checkInTime: try localTime(row, 8), checkOutTime: try localTime(row, 9), timeZone: try row.string(10))
    }

    /// A local time of day stored as milliseconds since midnight, checked before it is built.
    private static func localTime(_ row: Statement, _ index: Int32) throws(BookingError) -> LocalTime {
        let milliseconds = try row.int64(index)
        guard (0..<86_400_000).contains(milliseconds) else {
            throw BookingError(.storeFailed,
                               "A listing stores the time of day \(milliseconds) ms, outside 0 … 86 399 999; the database is damaged — restore it from a backup.")
        }
        return LocalTime(millisecondOfDay: milliseconds)
    }
}
