import Simulation

/// `calendar-<listing>.ics`: a listing's reservations as the iCalendar file a booking platform
/// exports (one all-day `VEVENT` per reservation, check-in date to check-out date), so another
/// calendar, or a later scenario's `calendars`, can import them back.
///
/// Every reservation is an event `UID:<reservation>@<listing>.rental-twin`, `SUMMARY:Reserved`,
/// `STATUS:CONFIRMED` (a cancelled one `STATUS:CANCELLED`, kept so that an importer cancels it),
/// the guest and the twin's status in `DESCRIPTION`, and `DTSTAMP` the end of the run — no wall
/// clock, so the file is byte-identical between runs.
public enum StayCalendar {
    /// The calendar text of `stays` (those of other listings are ignored), in check-in then id order.
    /// - Parameter stamp: `DTSTAMP` of every event: when the calendar was made (the run's end).
    public static func ics(listing: String, stays: [StayRecord], stamp: SimInstant) -> String {
        let events = stays.filter { $0.listing == listing }
            .sorted { ($0.checkIn, $0.reservation) < ($1.checkIn, $1.reservation) }
            .map { stay in
                ICalendarEvent(uid: "\(stay.reservation)@\(listing).rental-twin", summary: "Reserved",
                               description: "Reservation \(stay.reservation)\nGuest: \(stay.guest)\nNights: \(stay.nights)\nStatus: \(stay.status)",
                               start: .date(stay.checkIn), end: .date(stay.checkOut),
                               status: stay.isCancelled ? "CANCELLED" : "CONFIRMED", stamp: stamp)
            }
        return ICalendarText.write(events, productID: "-//RentalTwin//Reservations//EN", calendarName: "\(listing) reservations")
    }
}
