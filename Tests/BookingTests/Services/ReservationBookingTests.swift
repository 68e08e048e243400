import Simulation
import Testing
@testable import Booking

/// The booking rules of BOOKING.md, each with its error code, and nothing written on failure.
@Suite struct ReservationBookingTests {
    @Test func bookingCreatesAConfirmedReservation() async throws {
        let world = try await ServicesTestWorld.make()
        world.clock.set(ServicesTestClock.utc("2026-01-02", 8, 30))
        let reservation = try await world.book("r1", "2026-01-09", "2026-01-11", guests: 3)
        let expected = Reservation(id: "r1", listing: "flat-1", guest: "guest", checkIn: ServicesTestWorld.date("2026-01-09"),
                                   checkOut: ServicesTestWorld.date("2026-01-11"), guests: 3, status: .confirmed,
                                   createdAt: ServicesTestClock.utc("2026-01-02", 8, 30))
        #expect(reservation == expected)
        #expect(reservation.nights == 2)
        #expect(try await world.services.reservations.reservation("r1") == expected)
        #expect(try await world.services.reservations.reservations(ofGuest: "guest") == [expected])
        #expect(try await world.services.reservations.reservations(ofListing: "flat-1") == [expected])
        #expect(try await world.services.reservations.listing("flat-1") == ServicesTestWorld.flat1)
    }

    @Test func generatedIdsAreDeterministicAndSkipTakenOnes() async throws {
        let world = try await ServicesTestWorld.make()
        #expect(try await world.book(nil, "2026-01-01", "2026-01-02").id == "res-1")
        try await world.book("res-2", "2026-01-02", "2026-01-03")
        #expect(try await world.book(nil, "2026-01-03", "2026-01-04").id == "res-3")
        // A failed booking does not use up a number.
        try await world.expectFailure(.reservationOverlap) { () async throws(BookingError) in
            try await world.book(nil, "2026-01-03", "2026-01-04")
        }
        #expect(try await world.book(nil, "2026-01-04", "2026-01-05").id == "res-4")
    }

    @Test func unknownGuestOrListing() async throws {
        let world = try await ServicesTestWorld.make()
        let guest = try await world.expectFailure(.userNotFound) { () async throws(BookingError) in
            try await world.book("r1", guest: "ghost", "2026-01-09", "2026-01-11")
        }
        #expect(guest?.message == "User \"ghost\" does not exist; register the user first or check the id.")
        let listing = try await world.expectFailure(.listingNotFound) { () async throws(BookingError) in
            try await world.book("r1", listing: "flat-9", "2026-01-09", "2026-01-11")
        }
        #expect(listing?.message == "Listing \"flat-9\" does not exist; create the listing first or check the id.")
    }

    @Test(arguments: [("2026-01-11", "2026-01-09"), ("2026-01-09", "2026-01-09"), ("2026-01-10", "2025-01-11")])
    func checkOutMustBeAfterCheckIn(checkIn: String, checkOut: String) async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.reservationDates) { () async throws(BookingError) in
            try await world.book("r1", checkIn, checkOut)
        }
        #expect(error?.message == "Check-out \(checkOut) is not after check-in \(checkIn) for listing \"flat-1\"; a stay needs at least one night — check-out must be a later day.")
    }

    @Test func yearsOutsideOneToNineThousandNineHundredNinetyNineAreRefused() async throws {
        let world = try await ServicesTestWorld.make()
        let yearZero = try #require(CivilDate(year: 0, month: 12, day: 30))
        let error = try await world.expectFailure(.reservationDates) { () async throws(BookingError) in
            try await world.services.reservations.book(id: "r1", guest: "guest", listing: "flat-1", checkIn: yearZero,
                                                       checkOut: yearZero.adding(days: 1), guests: 1)
        }
        #expect(error?.message == "Check-in 0000-12-30 for listing \"flat-1\" is in year 0, outside 1 … 9999; use a real date such as 2026-01-09.")
        let late = try #require(CivilDate(year: 9999, month: 12, day: 31))
        let tooLate = try await world.expectFailure(.reservationDates) { () async throws(BookingError) in
            try await world.services.reservations.book(id: "r1", guest: "guest", listing: "flat-1", checkIn: late,
                                                       checkOut: late.adding(days: 1), guests: 1)
        }
        #expect(tooLate?.message.contains("Check-out 10000-01-01") == true)
        // Year 1 passes the year rule but lies in the past of the simulated clock.
        let early = try #require(CivilDate(year: 1, month: 1, day: 1))
        let past = try await world.expectFailure(.reservationDates) { () async throws(BookingError) in
            try await world.services.reservations.book(id: "r-early", guest: "guest", listing: "flat-1",
                                                       checkIn: early, checkOut: early.adding(days: 1), guests: 1)
        }
        #expect(past?.message.hasPrefix("Check-in 0001-01-01 is in the past") == true)
    }

    @Test func aCheckInBeforeTodayIsRefusedButTodayIsFine() async throws {
        let world = try await ServicesTestWorld.make()
        let today = world.services.clock.now
        let calendar = try LocalCalendar(identifier: "Europe/Budapest")
        let date = calendar.date(at: today)
        let error = try await world.expectFailure(.reservationDates) { () async throws(BookingError) in
            try await world.services.reservations.book(id: "r0", guest: "guest", listing: "flat-1", checkIn: date.adding(days: -1),
                                                       checkOut: date.adding(days: 1), guests: 1)
        }
        #expect(error?.message.contains("is in the past") == true)
        let booked = try await world.services.reservations.book(id: "r1", guest: "guest", listing: "flat-1", checkIn: date,
                                                                checkOut: date.adding(days: 1), guests: 1)
        #expect(booked.checkIn == date)
    }

    @Test(arguments: [0, -1, 4, 100])
    func guestsMustFitTheCapacity(guests: Int) async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.reservationCapacity) { () async throws(BookingError) in
            try await world.book("r1", "2026-01-09", "2026-01-11", guests: guests)
        }
        #expect(error?.message.hasPrefix("Listing \"flat-1\" takes 1 to 3 guest(s), so a booking for \(guests) guest(s) is not possible") == true)
    }

    @Test(arguments: [1, 3])
    func guestsAtTheLimitsAreFine(guests: Int) async throws {
        let world = try await ServicesTestWorld.make()
        #expect(try await world.book("r1", "2026-01-09", "2026-01-11", guests: guests).guests == guests)
    }

    @Test func anOwnerCannotBookTheirOwnListing() async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.reservationOwnListing) { () async throws(BookingError) in
            try await world.book("r1", guest: "host", "2026-01-09", "2026-01-11")
        }
        #expect(error?.message == "User \"host\" owns listing \"flat-1\" and cannot book it; book it as another user.")
    }

    @Test func aTakenIdIsADuplicate() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        let error = try await world.expectFailure(.reservationDuplicate) { () async throws(BookingError) in
            try await world.book("r1", guest: "other", "2026-02-09", "2026-02-11")
        }
        #expect(error?.message == "A reservation with id \"r1\" already exists; choose another id, or leave the id out to get a generated one.")
    }

    @Test(arguments: [
        ("2026-01-10", "2026-01-12"), ("2026-01-08", "2026-01-10"), ("2026-01-09", "2026-01-11"),
        ("2026-01-10", "2026-01-11"), ("2026-01-01", "2026-01-31"),
    ])
    func overlappingNightsAreRefused(checkIn: String, checkOut: String) async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        let error = try await world.expectFailure(.reservationOverlap) { () async throws(BookingError) in
            try await world.book("r2", guest: "other", checkIn, checkOut)
        }
        #expect(error?.message == "Listing \"flat-1\" is already booked for the nights 2026-01-09 → 2026-01-11 (reservation \"r1\"), which overlap \(checkIn) → \(checkOut); choose other dates (a stay may start on the day another ends).")
    }

    @Test func backToBackStaysAreFine() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("middle", "2026-01-09", "2026-01-11")
        try await world.book("after", guest: "other", "2026-01-11", "2026-01-12")
        try await world.book("before", "2026-01-07", "2026-01-09")
        let ids = try await world.services.reservations.reservations(ofListing: "flat-1").map(\.id)
        #expect(ids == ["before", "middle", "after"])  // by check-in, not by id
    }

    @Test func cancellingFreesTheNights() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        try await world.expectFailure(.reservationOverlap) { () async throws(BookingError) in
            try await world.book("r2", guest: "other", "2026-01-10", "2026-01-12")
        }
        let cancelled = try await world.services.reservations.cancel("r1")
        #expect(cancelled.status == .cancelled)
        let rebooked = try await world.book("r2", guest: "other", "2026-01-10", "2026-01-12")
        #expect(rebooked.status == .confirmed)
        // The cancelled stay stays on record.
        #expect(try await world.services.reservations.reservations(ofListing: "flat-1").map(\.status) == [.cancelled, .confirmed])
    }

    @Test func checkedInAndCheckedOutStaysStillHoldTheirNights() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        world.clock.set(ServicesTestClock.utc("2026-01-09", 14))
        _ = try await world.services.reservations.checkIn("r1")
        try await world.expectFailure(.reservationOverlap) { () async throws(BookingError) in
            try await world.book("r2", guest: "other", "2026-01-10", "2026-01-12")
        }
        _ = try await world.services.reservations.checkOut("r1")
        try await world.expectFailure(.reservationOverlap) { () async throws(BookingError) in
            try await world.book("r2", guest: "other", "2026-01-10", "2026-01-12")
        }
    }

    @Test func otherListingsDoNotConflict() async throws {
        let world = try await ServicesTestWorld.make()
        var second = ServicesTestWorld.flat1
        second.id = "flat-2"
        _ = try await world.services.listings.create(second)
        try await world.book("r1", "2026-01-09", "2026-01-11")
        try await world.book("r2", listing: "flat-2", "2026-01-09", "2026-01-11")
        #expect(try await world.services.reservations.reservations(ofGuest: "guest").map(\.id) == ["r1", "r2"])
    }

    @Test func aFailureLateInTheBookingLeavesNoReservationConversationOrMessage() async throws {
        let world = try await ServicesTestWorld.make()
        // Make the last write of a booking (the automatic first message) fail inside SQLite.
        try world.store.write { database throws(BookingError) in
            try database.execute("""
                CREATE TRIGGER refuse_messages BEFORE INSERT ON messages
                BEGIN SELECT RAISE(ABORT, 'messages are switched off for this test'); END
                """)
        }
        let error = try await world.expectFailure(.storeFailed) { () async throws(BookingError) in
            try await world.book(nil, "2026-01-09", "2026-01-11")
        }
        #expect(error?.message.contains("messages are switched off for this test") == true)
        #expect(try await world.services.reservations.reservations(ofListing: "flat-1").isEmpty)
        #expect(try await world.services.conversations.conversations(ofUser: "guest").isEmpty)
        try world.store.write { database throws(BookingError) in try database.execute("DROP TRIGGER refuse_messages") }
        #expect(try await world.book(nil, "2026-01-09", "2026-01-11").id == "res-1")
    }

    @Test func queriesOfUnknownIdsFail() async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.reservationNotFound) { () async throws(BookingError) in
            try await world.services.reservations.reservation("r9")
        }
        #expect(error?.message == "Reservation \"r9\" does not exist; book it first or check the id.")
        try await world.expectFailure(.userNotFound) { () async throws(BookingError) in
            try await world.services.reservations.reservations(ofGuest: "ghost")
        }
        try await world.expectFailure(.listingNotFound) { () async throws(BookingError) in
            try await world.services.reservations.reservations(ofListing: "flat-9")
        }
        try await world.expectFailure(.listingNotFound) { () async throws(BookingError) in
            try await world.services.reservations.listing("flat-9")
        }
    }
}
