import Simulation
import Testing
@testable import Reports

/// `calendar-<listing>.ics` reads back as the listing's reservations.
@Suite("calendar-<listing>.ics")
struct StayCalendarTests {
    @Test func theCalendarRoundTripsToTheSameReservations() throws {
        func date(_ d: Int) throws -> CivilDate { try #require(CivilDate(year: 2026, month: 1, day: d)) }
        let at = SimInstant(unixMilliseconds: 0)
        let stays = [
            StayRecord(reservation: "r2", listing: "flat-1", guest: "Greta, \"G\"", checkIn: try date(12), checkOut: try date(14),
                       nights: 2, status: "cancelled", windowStart: at, windowEnd: at),
            StayRecord(reservation: "r1", listing: "flat-1", guest: "guest", checkIn: try date(9), checkOut: try date(11),
                       nights: 2, status: "checkedOut", windowStart: at, windowEnd: at),
            StayRecord(reservation: "x", listing: "flat-2", guest: "other", checkIn: try date(9), checkOut: try date(10),
                       nights: 1, status: "confirmed", windowStart: at, windowEnd: at),
        ]
        let text = StayCalendar.ics(listing: "flat-1", stays: stays, stamp: SimInstant(unixMilliseconds: 1_768_176_000_000))
        let events = try ICalendarText.parse(text, name: "calendar-flat-1.ics")
        #expect(events.map(\.uid) == ["r1@flat-1.rental-twin", "r2@flat-1.rental-twin"])
        #expect(events.map(\.start) == [.date(try date(9)), .date(try date(12))])
        #expect(events.map(\.end) == [.date(try date(11)), .date(try date(14))])
        #expect(events.map(\.status) == ["CONFIRMED", "CANCELLED"])
        #expect(events[1].description == "Reservation r2\nGuest: Greta, \"G\"\nNights: 2\nStatus: cancelled")
        #expect(events.allSatisfy { $0.stamp == SimInstant(unixMilliseconds: 1_768_176_000_000) })
        // The same stays give the same bytes.
        #expect(StayCalendar.ics(listing: "flat-1", stays: stays.reversed(), stamp: SimInstant(unixMilliseconds: 1_768_176_000_000)) == text)
    }
}
