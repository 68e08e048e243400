import Foundation
import Simulation

/// The one error type of the `Booking` module: a stable code (the codes of SCENARIO-FORMAT.md and
/// a few more) and a sentence for humans that says what, where and what to do.
public struct BookingError: CodedError, Equatable {
    /// Stable, machine-readable codes. Scenario files match them with `expectError`.
    public enum Code: String, Sendable, CaseIterable {
        case userNotFound = "user.notFound"
        case userInvalid = "user.invalid"
        case userDuplicate = "user.duplicate"
        case listingNotFound = "listing.notFound"
        case listingInvalid = "listing.invalid"
        case reservationNotFound = "reservation.notFound"
        case reservationOverlap = "reservation.overlap"
        case reservationCapacity = "reservation.capacity"
        case reservationDates = "reservation.dates"
        case reservationState = "reservation.state"
        case reservationOwnListing = "reservation.ownListing"
        case reservationDuplicate = "reservation.duplicate"
        case conversationNotFound = "conversation.notFound"
        case messageNotParticipant = "message.notParticipant"
        case messageInvalid = "message.invalid"
        case ratingNotAllowed = "rating.notAllowed"
        case ratingInvalid = "rating.invalid"
        case lockAccessDenied = "lock.accessDenied"
        case deviceAccessDenied = "device.accessDenied"
        case configurationNotFound = "configuration.notFound"
        case configurationInvalid = "configuration.invalid"
        case propertyNotFound = "property.notFound"
        // Errors of the openHAB seam, passed through with openHAB's meaning.
        case itemNotFound = "item.notFound"
        case itemNameInvalid = "item.nameInvalid"
        case commandInvalid = "command.invalid"
        case thingNotFound = "thing.notFound"
        case thingOffline = "thing.offline"
        case smartHomeFailed = "smartHome.failed"
        // Errors of the weather seam.
        case weatherUnavailable = "weather.unavailable"
        // The store.
        case storeFailed = "store.failed"
        case migrationFailed = "store.migration"
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// What went wrong, where, and what to do.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
