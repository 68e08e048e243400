import Simulation
import Testing
@testable import Booking

/// Check-in and check-out moments around Budapest's daylight-saving changes of 2026
/// (29 March: 02:00 CET → 03:00 CEST; 25 October: 03:00 CEST → 02:00 CET).
/// Expected instants are written in UTC by hand, independent of the time-zone code.
@Suite struct ReservationDaylightSavingTests {
    private let budapest: LocalCalendar
    init() throws { budapest = try LocalCalendar(identifier: "Europe/Budapest") }

    private func date(_ iso: String) -> CivilDate { ServicesTestWorld.date(iso) }

    @Test func springForwardShortensTheDayBeforeTheStay() {
        let flat = ServicesTestWorld.flat1
        #expect(flat.checkInInstant(on: date("2026-03-28"), calendar: budapest) == ServicesTestClock.utc("2026-03-28", 14))
        #expect(flat.checkInInstant(on: date("2026-03-29"), calendar: budapest) == ServicesTestClock.utc("2026-03-29", 13))
        #expect(flat.checkOutInstant(on: date("2026-03-29"), calendar: budapest) == ServicesTestClock.utc("2026-03-29", 8))
        // 02:30 does not exist on 29 March; it moves forward by the gap to 03:30 CEST (01:30Z).
        var night = flat
        night.checkInTime = LocalTime(hour: 2, minute: 30)!
        #expect(night.checkInInstant(on: date("2026-03-29"), calendar: budapest) == ServicesTestClock.utc("2026-03-29", 1, 30))
    }

    @Test func fallBackLengthensTheDay() {
        let flat = ServicesTestWorld.flat1
        #expect(flat.checkInInstant(on: date("2026-10-24"), calendar: budapest) == ServicesTestClock.utc("2026-10-24", 13))
        #expect(flat.checkInInstant(on: date("2026-10-25"), calendar: budapest) == ServicesTestClock.utc("2026-10-25", 14))
        #expect(flat.checkOutInstant(on: date("2026-10-25"), calendar: budapest) == ServicesTestClock.utc("2026-10-25", 9))
        // 02:30 happens twice on 25 October; the earlier one (CEST, 00:30Z) is taken.
        var night = flat
        night.checkOutTime = LocalTime(hour: 2, minute: 30)!
        #expect(night.checkOutInstant(on: date("2026-10-25"), calendar: budapest) == ServicesTestClock.utc("2026-10-25", 0, 30))
    }

    @Test func checkInWindowAroundSpringForward() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("before", "2026-03-27", "2026-03-29")
        try await world.book("after", guest: "other", "2026-03-29", "2026-03-30")
        // "before" ends at 10:00 CEST on 29 March = 08:00Z (not 09:00Z as in winter).
        world.clock.set(ServicesTestClock.utc("2026-03-29", 8))
        try await world.expectFailure(.reservationState) { () async throws(BookingError) in
            try await world.services.reservations.checkIn("before")
        }
        world.clock.set(ServicesTestClock.utc("2026-03-29", 7, 59, millisecond: 59_999))
        #expect(try await world.services.reservations.checkIn("before").status == .checkedIn)
        // "after" opens at local midnight of 29 March, still CET: 28 March 23:00Z.
        world.clock.set(ServicesTestClock.utc("2026-03-28", 22, 59, millisecond: 59_999))
        try await world.expectFailure(.reservationState) { () async throws(BookingError) in
            try await world.services.reservations.checkIn("after")
        }
        world.clock.set(ServicesTestClock.utc("2026-03-28", 23))
        #expect(try await world.services.reservations.checkIn("after").status == .checkedIn)
    }

    @Test func checkInWindowAroundFallBack() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("before", "2026-10-23", "2026-10-25")
        try await world.book("after", guest: "other", "2026-10-25", "2026-10-26")
        // "before" ends at 10:00 CET on 25 October = 09:00Z (not 08:00Z as in summer).
        world.clock.set(ServicesTestClock.utc("2026-10-25", 9))
        try await world.expectFailure(.reservationState) { () async throws(BookingError) in
            try await world.services.reservations.checkIn("before")
        }
        world.clock.set(ServicesTestClock.utc("2026-10-25", 8, 59, millisecond: 59_999))
        #expect(try await world.services.reservations.checkIn("before").status == .checkedIn)
        // "after" opens at local midnight of 25 October, still CEST: 24 October 22:00Z.
        world.clock.set(ServicesTestClock.utc("2026-10-24", 21, 59, millisecond: 59_999))
        try await world.expectFailure(.reservationState) { () async throws(BookingError) in
            try await world.services.reservations.checkIn("after")
        }
        world.clock.set(ServicesTestClock.utc("2026-10-24", 22))
        #expect(try await world.services.reservations.checkIn("after").status == .checkedIn)
    }

    @Test func aCheckOutInTheRepeatedHourClosesAtTheFirstOccurrence() async throws {
        let world = try await ServicesTestWorld.make()
        var night = ServicesTestWorld.flat1
        night.id = "night-flat"
        night.checkOutTime = LocalTime(hour: 2, minute: 30)!
        _ = try await world.services.listings.create(night)
        try await world.book("r1", listing: "night-flat", "2026-10-24", "2026-10-25")
        // 02:30 local on 25 October first happens at 00:30Z (CEST); at 01:00Z the clock reads 02:00 CET, yet the stay is over.
        world.clock.set(ServicesTestClock.utc("2026-10-25", 1))
        try await world.expectFailure(.reservationState) { () async throws(BookingError) in
            try await world.services.reservations.checkIn("r1")
        }
        world.clock.set(ServicesTestClock.utc("2026-10-25", 0, 29))
        #expect(try await world.services.reservations.checkIn("r1").status == .checkedIn)
    }
}
