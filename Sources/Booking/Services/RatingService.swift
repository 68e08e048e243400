import Simulation

/// Guests' ratings of their stays and each listing's computed summary (the original's RatingController).
public final class RatingService: Sendable {
    /// Where ratings are stored.
    public let store: BookingStore
    /// Where "now" comes from (a rating's `createdAt`).
    public let clock: BookingClock

    /// The stars a rating may give.
    public static let allowedStars = 1...5
    /// The longest comment, in characters (grapheme clusters).
    public static let maximumCommentCharacters = 10_000

    /// Creates the service over `store`.
    public init(store: BookingStore, clock: BookingClock) {
        self.store = store
        self.clock = clock
    }

    /// Rates the guest's most recent checked-out, not yet rated stay at `listing`.
    /// - Returns: The stored rating (ids `rating-1`, `rating-2`, …).
    /// - Throws: `rating.invalid` for stars outside 1…5 or a comment over 10 000 characters; `user.notFound`;
    ///   `listing.notFound`; `rating.notAllowed` when the guest never stayed there, has not checked out yet,
    ///   or has already rated every checked-out stay there.
    public func rate(guest: UserID, listing: ListingID, stars: Int, comment: String?) async throws(BookingError) -> Rating {
        guard Self.allowedStars.contains(stars) else {
            throw BookingError(.ratingInvalid,
                               "A rating of listing \"\(listing)\" by \"\(guest)\" has \(stars) stars; give 1 to 5 stars.")
        }
        if let comment, comment.count > Self.maximumCommentCharacters {
            throw BookingError(.ratingInvalid,
                               "The comment of \"\(guest)\" on listing \"\(listing)\" has \(comment.count) characters, more than the \(Self.maximumCommentCharacters) allowed; shorten it.")
        }
        let now = clock.now
        return try store.write { database throws(BookingError) -> Rating in
            _ = try database.requireUser(guest)
            _ = try database.requireListing(listing)
            let stay = try Self.stayToRate(guest: guest, listing: listing, in: database)
            let id = RatingID(try database.generateID(sequence: "rating", prefix: "rating-") {
                candidate throws(BookingError) in try database.ratingExists(RatingID(candidate))
            })
            let rating = Rating(id: id, listing: listing, author: guest, reservation: stay.id, stars: stars,
                                comment: comment, createdAt: now)
            try database.insert(rating)
            return rating
        }
    }

    /// The ratings of a listing in the order they were given.
    /// - Throws: `listing.notFound`.
    public func ratings(ofListing listing: ListingID) async throws(BookingError) -> [Rating] {
        try store.read { database throws(BookingError) in
            _ = try database.requireListing(listing)
            return try database.ratings(ofListing: listing)
        }
    }

    /// A listing's rating count, average and 1–5 distribution, computed from its ratings.
    /// - Throws: `listing.notFound`.
    public func summary(ofListing listing: ListingID) async throws(BookingError) -> RatingSummary {
        let stars = try store.read { database throws(BookingError) in
            _ = try database.requireListing(listing)
            return try database.ratingStars(ofListing: listing)
        }
        return RatingSummary(stars: stars)
    }

    /// The guest's latest checked-out, unrated stay at the listing, or `rating.notAllowed` saying why there is none.
    private static func stayToRate(guest: UserID, listing: ListingID, in database: SQLiteDatabase)
        throws(BookingError) -> Reservation
    {
        let stays = try database.reservations(ofGuest: guest, listing: listing).filter { $0.status.holdsNights }
        guard !stays.isEmpty else {
            throw BookingError(.ratingNotAllowed,
                               "User \"\(guest)\" never stayed at listing \"\(listing)\" (no reservation that was not cancelled); only guests may rate a listing, after checking out.")
        }
        let checkedOut = stays.filter { $0.status == .checkedOut }
        guard !checkedOut.isEmpty else {
            let pending = stays.map { "\"\($0.id)\" (\($0.status.rawValue))" }.joined(separator: ", ")
            throw BookingError(.ratingNotAllowed,
                               "User \"\(guest)\" has not checked out of listing \"\(listing)\" yet (reservation \(pending)); rate the stay after check-out.")
        }
        var unrated: [Reservation] = []
        for stay in checkedOut where try !database.isRated(stay.id) { unrated.append(stay) }
        guard let latest = unrated.max(by: { ($0.checkOut, $0.checkIn, $0.id) < ($1.checkOut, $1.checkIn, $1.id) }) else {
            let rated = checkedOut.map { "\"\($0.id)\"" }.joined(separator: ", ")
            throw BookingError(.ratingNotAllowed,
                               "User \"\(guest)\" has already rated every checked-out stay at listing \"\(listing)\" (reservation \(rated)); each stay gets one rating.")
        }
        return latest
    }
}
