import Booking
import Simulation

/// How a listing's calendar feeds become bookings, as far as the file alone says: which events are stays,
/// the reservation id an event books under and the guest each calendar books as. The world's calendar sync
/// books by these, and the validator checks ids against them.
package enum CalendarStays {
    /// The guest user of a listing's `n`-th calendar (1-based).
    package static func guestID(listing: String, index: Int) -> String { "\(listing)-calendar-\(index)" }

    /// Whether the event is a stay, not an owner's block.
    package static func isStay(_ event: ICalendarEvent) -> Bool {
        let summary = (event.summary ?? "").lowercased()
        return !summary.contains("not available") && !summary.contains("blocked")
    }

    /// `r1@flat-1.rental-twin` → `r1` (the twin's own export); any other UID as it is.
    package static func reservationID(_ event: ICalendarEvent, listing: ListingID) -> ReservationID {
        let own = "@\(listing.rawValue).rental-twin"
        return ReservationID(event.uid.hasSuffix(own) ? String(event.uid.dropLast(own.count)) : event.uid)
    }
}
