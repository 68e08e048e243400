import Simulation

/// Data access for ratings.
extension SQLiteDatabase {
    /// The ratings of `listing` in the order they were given.
    func ratings(ofListing listing: ListingID) throws(BookingError) -> [Rating] {
        try query(
            """
            SELECT id, listing_id, author_id, reservation_id, stars, comment, created_at_ms FROM ratings
            WHERE listing_id = ? ORDER BY sequence
            """,
            .id(listing)
        ) { row throws(BookingError) in
            Rating(id: RatingID(try row.string(0)), listing: ListingID(try row.string(1)),
                   author: UserID(try row.string(2)), reservation: ReservationID(try row.string(3)),
                   stars: try row.int(4), comment: try row.optionalString(5),
                   createdAt: SimInstant(unixMilliseconds: try row.int64(6)))
        }
    }

    /// The stars of every rating of `listing` (for summaries, without loading comments).
    func ratingStars(ofListing listing: ListingID) throws(BookingError) -> [Int] {
        try query("SELECT stars FROM ratings WHERE listing_id = ? ORDER BY sequence", .id(listing)) {
            row throws(BookingError) in try row.int(0)
        }
    }

    /// Whether the stay `reservation` has been rated.
    func isRated(_ reservation: ReservationID) throws(BookingError) -> Bool {
        try exists("SELECT 1 FROM ratings WHERE reservation_id = ?", .id(reservation))
    }

    /// Whether a rating with that id exists.
    func ratingExists(_ id: RatingID) throws(BookingError) -> Bool {
        try exists("SELECT 1 FROM ratings WHERE id = ?", .id(id))
    }

    /// Stores a new rating (the caller has checked that the stay is checked out and unrated).
    func insert(_ rating: Rating) throws(BookingError) {
        try execute(
            """
            INSERT INTO ratings (id, listing_id, author_id, reservation_id, stars, comment, created_at_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            .id(rating.id), .id(rating.listing), .id(rating.author), .id(rating.reservation), .int(rating.stars),
            .optionalText(rating.comment), .integer(rating.createdAt.unixMilliseconds))
    }
}
