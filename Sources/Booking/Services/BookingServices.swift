/// The booking services wired to one store and one clock: what a scenario world or a server holds.
public final class BookingServices: Sendable {
    /// The database every service uses.
    public let store: BookingStore
    /// Where every service reads "now".
    public let clock: BookingClock
    /// Registering and finding users.
    public let users: UserService
    /// Creating and finding listings.
    public let listings: ListingService
    /// Booking stays and moving them through check-in, check-out and cancellation.
    public let reservations: ReservationService
    /// The messages of each booking's conversation.
    public let conversations: ConversationService
    /// Ratings of stays and listing summaries.
    public let ratings: RatingService

    /// Creates every service over `store`, reading time from `clock`.
    public init(store: BookingStore, clock: BookingClock) {
        self.store = store
        self.clock = clock
        self.users = UserService(store: store, clock: clock)
        self.listings = ListingService(store: store, clock: clock)
        self.reservations = ReservationService(store: store, clock: clock)
        self.conversations = ConversationService(store: store, clock: clock)
        self.ratings = RatingService(store: store, clock: clock)
    }
}
