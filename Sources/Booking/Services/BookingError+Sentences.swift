/// The sentences of errors that several services raise, so each reads the same everywhere.
extension BookingError {
    /// `user.notFound` for `id`.
    static func userNotFound(_ id: UserID) -> BookingError {
        BookingError(.userNotFound, "User \"\(id)\" does not exist; register the user first or check the id.")
    }

    /// `listing.notFound` for `id`.
    static func listingNotFound(_ id: ListingID) -> BookingError {
        BookingError(.listingNotFound, "Listing \"\(id)\" does not exist; create the listing first or check the id.")
    }

    /// `reservation.notFound` for `id`.
    static func reservationNotFound(_ id: ReservationID) -> BookingError {
        BookingError(.reservationNotFound,
                     "Reservation \"\(id)\" does not exist; book it first or check the id.")
    }

    /// `conversation.notFound` for `id`.
    static func conversationNotFound(_ id: ConversationID) -> BookingError {
        BookingError(.conversationNotFound,
                     "Conversation \"\(id)\" does not exist; conversations are opened by bookings — look it up by its reservation.")
    }
}
