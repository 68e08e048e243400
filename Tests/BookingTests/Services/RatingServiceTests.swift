import Simulation
import Testing
@testable import Booking

/// Rating stays: only after check-out, once per stay, 1–5 stars; summaries computed from the ratings.
@Suite struct RatingServiceTests {
    /// Books `id` for `guest` and takes it through check-in and check-out.
    private func stay(_ world: ServicesTestWorld, _ id: ReservationID, guest: UserID = "guest", _ checkIn: String,
                      _ checkOut: String) async throws {
        try await world.book(id, guest: guest, checkIn, checkOut)
        let arrival = ServicesTestWorld.date(checkIn)
        world.clock.set(ServicesTestClock.utc(arrival.description, 14))
        _ = try await world.services.reservations.checkIn(id)
        _ = try await world.services.reservations.checkOut(id)
    }

    @Test func aCheckedOutGuestRatesTheirStay() async throws {
        let world = try await ServicesTestWorld.make()
        try await stay(world, "r1", "2026-01-09", "2026-01-11")
        world.clock.set(ServicesTestClock.utc("2026-01-12", 9))
        let rating = try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: 5, comment: "Lovely view.")
        #expect(rating == Rating(id: "rating-1", listing: "flat-1", author: "guest", reservation: "r1", stars: 5,
                                 comment: "Lovely view.", createdAt: ServicesTestClock.utc("2026-01-12", 9)))
        #expect(try await world.services.ratings.ratings(ofListing: "flat-1") == [rating])
    }

    @Test func theMostRecentUnratedStayIsRatedFirst() async throws {
        let world = try await ServicesTestWorld.make()
        try await stay(world, "z-early", "2026-01-09", "2026-01-11")
        try await stay(world, "a-late", "2026-02-09", "2026-02-11")
        let first = try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: 4, comment: nil)
        let second = try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: 2, comment: nil)
        #expect(first.reservation == "a-late")
        #expect(second.reservation == "z-early")
        let third = try await world.expectFailure(.ratingNotAllowed) { () async throws(BookingError) in
            try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: 3, comment: nil)
        }
        #expect(third?.message == "User \"guest\" has already rated every checked-out stay at listing \"flat-1\" (reservation \"z-early\", \"a-late\"); each stay gets one rating.")
    }

    @Test func someoneWhoNeverStayedCannotRate() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        _ = try await world.services.reservations.cancel("r1")
        for guest: UserID in ["guest", "other", "host"] {
            let error = try await world.expectFailure(.ratingNotAllowed) { () async throws(BookingError) in
                try await world.services.ratings.rate(guest: guest, listing: "flat-1", stars: 5, comment: nil)
            }
            #expect(error?.message == "User \"\(guest)\" never stayed at listing \"flat-1\" (no reservation that was not cancelled); only guests may rate a listing, after checking out.")
        }
    }

    @Test func aStayThatIsNotCheckedOutCannotBeRatedYet() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        let confirmed = try await world.expectFailure(.ratingNotAllowed) { () async throws(BookingError) in
            try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: 5, comment: nil)
        }
        #expect(confirmed?.message == "User \"guest\" has not checked out of listing \"flat-1\" yet (reservation \"r1\" (confirmed)); rate the stay after check-out.")
        world.clock.set(ServicesTestClock.utc("2026-01-09", 14))
        _ = try await world.services.reservations.checkIn("r1")
        let checkedIn = try await world.expectFailure(.ratingNotAllowed) { () async throws(BookingError) in
            try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: 5, comment: nil)
        }
        #expect(checkedIn?.message.contains("\"r1\" (checkedIn)") == true)
        _ = try await world.services.reservations.checkOut("r1")
        #expect(try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: 5, comment: nil).reservation == "r1")
    }

    @Test(arguments: [0, 6, -1, Int.max])
    func starsOutsideOneToFiveAreInvalid(stars: Int) async throws {
        let world = try await ServicesTestWorld.make()
        try await stay(world, "r1", "2026-01-09", "2026-01-11")
        let error = try await world.expectFailure(.ratingInvalid) { () async throws(BookingError) in
            try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: stars, comment: nil)
        }
        #expect(error?.message == "A rating of listing \"flat-1\" by \"guest\" has \(stars) stars; give 1 to 5 stars.")
    }

    @Test func commentsOverTenThousandCharactersAreInvalid() async throws {
        let world = try await ServicesTestWorld.make()
        try await stay(world, "r1", "2026-01-09", "2026-01-11")
        let error = try await world.expectFailure(.ratingInvalid) { () async throws(BookingError) in
            try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: 5,
                                                  comment: String(repeating: "x", count: 10_001))
        }
        #expect(error?.message == "The comment of \"guest\" on listing \"flat-1\" has 10001 characters, more than the 10000 allowed; shorten it.")
        let longest = String(repeating: "x", count: 10_000)
        #expect(try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: 5, comment: longest).comment == longest)
    }

    @Test func unknownGuestOrListing() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.expectFailure(.userNotFound) { () async throws(BookingError) in
            try await world.services.ratings.rate(guest: "ghost", listing: "flat-1", stars: 5, comment: nil)
        }
        try await world.expectFailure(.listingNotFound) { () async throws(BookingError) in
            try await world.services.ratings.rate(guest: "guest", listing: "flat-9", stars: 5, comment: nil)
        }
        try await world.expectFailure(.listingNotFound) { () async throws(BookingError) in
            try await world.services.ratings.ratings(ofListing: "flat-9")
        }
        try await world.expectFailure(.listingNotFound) { () async throws(BookingError) in
            try await world.services.ratings.summary(ofListing: "flat-9")
        }
    }

    @Test func theSummaryIsComputedFromTheRatings() async throws {
        let world = try await ServicesTestWorld.make()
        #expect(try await world.services.ratings.summary(ofListing: "flat-1") == RatingSummary(stars: []))
        let empty = try await world.services.ratings.summary(ofListing: "flat-1")
        #expect(empty.count == 0)
        #expect(empty.average == nil)
        #expect(empty.distribution == [0, 0, 0, 0, 0])
        try await stay(world, "r1", "2026-01-09", "2026-01-11")
        try await stay(world, "r2", guest: "other", "2026-01-11", "2026-01-13")
        try await stay(world, "r3", "2026-01-13", "2026-01-14")
        _ = try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: 5, comment: nil)
        _ = try await world.services.ratings.rate(guest: "other", listing: "flat-1", stars: 4, comment: "Good.")
        _ = try await world.services.ratings.rate(guest: "guest", listing: "flat-1", stars: 4, comment: nil)
        let summary = try await world.services.ratings.summary(ofListing: "flat-1")
        #expect(summary.count == 3)
        #expect(summary.average == 13.0 / 3.0)
        #expect(summary.distribution == [0, 0, 0, 2, 1])
        #expect(try await world.services.ratings.ratings(ofListing: "flat-1").map(\.reservation) == ["r3", "r2", "r1"])
    }
}
