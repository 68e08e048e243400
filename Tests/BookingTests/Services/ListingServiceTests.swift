import Simulation
import Testing
@testable import Booking

/// Creating listings and the original's queries: by id, by owner, by city except the asking user's.
@Suite struct ListingServiceTests {
    /// `flat-1` changed by `change`.
    private static func flat(_ change: (inout Listing) -> Void) -> Listing {
        var listing = ServicesTestWorld.flat1
        listing.id = "flat-new"
        change(&listing)
        return listing
    }

    @Test func createsAndFindsAListing() async throws {
        let world = try await ServicesTestWorld.make()
        let loft = Self.flat {
            $0.id = "loft"
            $0.owner = "other"
            $0.city = "Vienna"
            $0.timeZone = "Europe/Vienna"
            $0.checkInTime = LocalTime(hour: 14, minute: 30)!
        }
        #expect(try await world.services.listings.create(loft) == loft)
        #expect(try await world.services.listings.listing("loft") == loft)
        #expect(try await world.services.listings.listing("flat-1") == ServicesTestWorld.flat1)
    }

    @Test func queriesAreSortedByIdAndCitySearchExcludesTheAskingUser() async throws {
        let world = try await ServicesTestWorld.make()
        for (id, owner, city) in [("b-flat", "host", "Budapest"), ("a-flat", "other", "Budapest"), ("c-flat", "host", "Szeged")] {
            _ = try await world.services.listings.create(Self.flat {
                $0.id = ListingID(id)
                $0.owner = UserID(owner)
                $0.city = city
            })
        }
        let listings = world.services.listings
        #expect(try await listings.listings(ofOwner: "host").map(\.id) == ["b-flat", "c-flat", "flat-1"])
        #expect(try await listings.listings(ofOwner: "guest").isEmpty)
        #expect(try await listings.listings(inCity: "Budapest", excluding: "host").map(\.id) == ["a-flat"])
        #expect(try await listings.listings(inCity: "Budapest", excluding: "other").map(\.id) == ["b-flat", "flat-1"])
        #expect(try await listings.listings(inCity: "Budapest", excluding: "guest").map(\.id) == ["a-flat", "b-flat", "flat-1"])
        #expect(try await listings.listings(inCity: "Budapest", excluding: nil).count == 3)
        #expect(try await listings.listings(inCity: "Debrecen", excluding: "guest").isEmpty)
        try await world.expectFailure(.userNotFound) { () async throws(BookingError) in
            try await listings.listings(ofOwner: "ghost")
        }
    }

    @Test(arguments: [
        ("empty name", flat { $0.name = " " }),
        ("empty city", flat { $0.city = "" }),
        ("capacity 0", flat { $0.capacity = 0 }),
        ("capacity -2", flat { $0.capacity = -2 }),
        ("unknown zone", flat { $0.timeZone = "Mars/Olympus_Mons" }),
        ("empty zone", flat { $0.timeZone = "" }),
        ("empty id", flat { $0.id = "" }),
        ("duplicate id", flat { $0.id = "flat-1" }),
    ])
    func invalidListingsAreRefused(label: String, listing: Listing) async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.listingInvalid) { () async throws(BookingError) in
            try await world.services.listings.create(listing)
        }
        #expect(error?.message.hasSuffix(".") == true, "\(label)")
    }

    @Test func messagesNameTheProblem() async throws {
        let world = try await ServicesTestWorld.make()
        let zone = try await world.expectFailure(.listingInvalid) { () async throws(BookingError) in
            try await world.services.listings.create(Self.flat { $0.timeZone = "Mars/Olympus_Mons" })
        }
        #expect(zone?.message == "Listing \"flat-new\" has the time zone \"Mars/Olympus_Mons\", which is not a known IANA zone; write e.g. \"Europe/Budapest\".")
        let capacity = try await world.expectFailure(.listingInvalid) { () async throws(BookingError) in
            try await world.services.listings.create(Self.flat { $0.capacity = 0 })
        }
        #expect(capacity?.message == "Listing \"flat-new\" has capacity 0; it must take at least 1 guest.")
        let duplicate = try await world.expectFailure(.listingInvalid) { () async throws(BookingError) in
            try await world.services.listings.create(Self.flat { $0.id = "flat-1" })
        }
        #expect(duplicate?.message == "A listing with id \"flat-1\" already exists; choose another id.")
    }

    @Test func theOwnerMustExist() async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.userNotFound) { () async throws(BookingError) in
            try await world.services.listings.create(Self.flat { $0.owner = "ghost" })
        }
        #expect(error?.message.contains("\"ghost\"") == true)
    }

    @Test func unknownListingsAreNotFound() async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.listingNotFound) { () async throws(BookingError) in
            try await world.services.listings.listing("flat-9")
        }
        #expect(error?.message == "Listing \"flat-9\" does not exist; create the listing first or check the id.")
    }
}
