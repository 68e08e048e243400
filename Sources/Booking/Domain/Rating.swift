import Simulation

/// A guest's rating of a stay: 1–5 stars and an optional comment; one per reservation, after check-out.
public struct Rating: Hashable, Sendable {
    public var id: RatingID
    public var listing: ListingID
    public var author: UserID
    public var reservation: ReservationID
    /// 1 … 5.
    public var stars: Int
    public var comment: String?
    public var createdAt: SimInstant

    public init(id: RatingID, listing: ListingID, author: UserID, reservation: ReservationID, stars: Int,
                comment: String?, createdAt: SimInstant) {
        self.id = id
        self.listing = listing
        self.author = author
        self.reservation = reservation
        self.stars = stars
        self.comment = comment
        self.createdAt = createdAt
    }
}
