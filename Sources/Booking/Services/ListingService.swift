import Foundation
import Simulation

/// Creates and finds listings (the original's CouchController: create, get, a user's listings, city search).
public final class ListingService: Sendable {
    /// Where listings are stored.
    public let store: BookingStore
    /// Where "now" comes from.
    public let clock: BookingClock

    /// Creates the service over `store`.
    public init(store: BookingStore, clock: BookingClock) {
        self.store = store
        self.clock = clock
    }

    /// Creates a listing.
    /// - Returns: The stored listing.
    /// - Throws: `listing.invalid` for an empty id, name or city, a capacity below 1, an unknown IANA time zone
    ///   or an id that is taken; `user.notFound` when the owner is not registered.
    public func create(_ listing: Listing) async throws(BookingError) -> Listing {
        try Self.validate(listing)
        return try store.write { database throws(BookingError) in
            _ = try database.requireUser(listing.owner)
            guard try database.listing(listing.id) == nil else {
                throw BookingError(.listingInvalid, "A listing with id \"\(listing.id)\" already exists; choose another id.")
            }
            try database.insert(listing)
            return listing
        }
    }

    /// The listing with that id.
    /// - Throws: `listing.notFound`.
    public func listing(_ id: ListingID) async throws(BookingError) -> Listing {
        try store.read { database throws(BookingError) in try database.requireListing(id) }
    }

    /// The listings `owner` lists, sorted by id (the original's `getAllCouchesForUser`).
    /// - Throws: `user.notFound` for an unknown owner.
    public func listings(ofOwner owner: UserID) async throws(BookingError) -> [Listing] {
        try store.read { database throws(BookingError) in
            _ = try database.requireUser(owner)
            return try database.listings(ofOwner: owner)
        }
    }

    /// The listings in `city` except those of `excluded` — what a user searching a city may book
    /// (the original's `getAllCouchesForCityExceptUserId`), sorted by id.
    /// - Parameters:
    ///   - city: The city as written on the listings (exact, case-sensitive match).
    ///   - excluded: The asking user, whose own listings are left out; `nil` leaves none out.
    public func listings(inCity city: String, excluding excluded: UserID?) async throws(BookingError) -> [Listing] {
        try store.read { database throws(BookingError) in try database.listings(inCity: city, excluding: excluded) }
    }

    /// Checks the fields of a new listing that need no database.
    private static func validate(_ listing: Listing) throws(BookingError) {
        func blank(_ text: String) -> Bool { text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        guard !blank(listing.id.rawValue) else {
            throw BookingError(.listingInvalid, "Listing \"\(listing.name)\" has an empty id; give it an id such as \"flat-1\".")
        }
        guard !blank(listing.name) else {
            throw BookingError(.listingInvalid, "Listing \"\(listing.id)\" has an empty name; give it a name such as \"Danube view flat\".")
        }
        guard !blank(listing.city) else {
            throw BookingError(.listingInvalid, "Listing \"\(listing.id)\" has an empty city; name the city it is in, e.g. \"Budapest\".")
        }
        guard listing.capacity >= 1 else {
            throw BookingError(.listingInvalid,
                               "Listing \"\(listing.id)\" has capacity \(listing.capacity); it must take at least 1 guest.")
        }
        do {
            _ = try LocalCalendar(identifier: listing.timeZone)
        } catch {
            throw BookingError(.listingInvalid,
                               "Listing \"\(listing.id)\" has the time zone \"\(listing.timeZone)\", which is not a known IANA zone; write e.g. \"Europe/Budapest\".")
        }
    }
}
