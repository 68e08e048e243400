import Simulation
import Testing
@testable import Booking

/// A fresh booking world for one test: an in-memory store, a manual clock, the services, and
/// three users — `host` (owns `flat-1`, Budapest, capacity 3), `guest` and `other`.
struct ServicesTestWorld {
    let store: BookingStore
    let clock: ServicesTestClock
    let services: BookingServices

    /// The tables of the schema, for counting rows (fixed names, not user input).
    static let tables = [
        "users", "listings", "reservations", "conversations", "conversation_participants", "messages", "ratings",
        "sequences", "home_configurations", "home_configuration_items", "lock_audit",
    ]

    /// Builds the world; the clock starts at 2026-01-01T12:00Z.
    static func make(start: SimInstant = ServicesTestClock.utc("2026-01-01", 12)) async throws -> ServicesTestWorld {
        let store = try BookingStore.inMemory()
        let clock = ServicesTestClock(start)
        let services = BookingServices(store: store, clock: clock.bookingClock)
        let world = ServicesTestWorld(store: store, clock: clock, services: services)
        for (id, name) in [("host", "Hanna Host"), ("guest", "Gabor Guest"), ("other", "Olga Other")] {
            _ = try await services.users.register(User(id: UserID(id), externalID: "ext-\(id)", name: name))
        }
        _ = try await services.listings.create(flat1)
        return world
    }

    /// The world's one listing: `flat-1`, owned by `host`, in Budapest, for up to 3 guests, 15:00 / 10:00.
    static let flat1 = Listing(id: "flat-1", owner: "host", name: "Danube view flat", city: "Budapest",
                               country: "Hungary", capacity: 3, timeZone: "Europe/Budapest")

    /// The date `iso` (`YYYY-MM-DD`); traps on a malformed text, which is a bug in the test.
    static func date(_ iso: String) -> CivilDate { CivilDate(iso: iso)! }

    /// Books `flat-1` (or `listing`) for `guest` (default `guest`) for 2 guests.
    @discardableResult
    func book(_ id: ReservationID? = nil, guest: UserID = "guest", listing: ListingID = "flat-1", _ checkIn: String,
              _ checkOut: String, guests: Int = 2) async throws(BookingError) -> Reservation {
        try await services.reservations.book(id: id, guest: guest, listing: listing, checkIn: Self.date(checkIn),
                                             checkOut: Self.date(checkOut), guests: guests)
    }

    /// The number of rows of every table plus the id counters: equal snapshots mean nothing was written.
    func snapshot() throws -> [String: Int64] {
        try store.read { database throws(BookingError) in
            var counts: [String: Int64] = [:]
            for table in Self.tables {
                counts[table] = try database.scalarInt64("SELECT COUNT(*) FROM \(table)")
            }
            for (name, value) in try database.query("SELECT name, value FROM sequences", row: {
                row throws(BookingError) in (try row.string(0), try row.int64(1))
            }) {
                counts["sequence " + name] = value
            }
            return counts
        }
    }

    /// Runs `body`, expecting it to fail with `code` and to leave every table and counter as it was.
    /// - Returns: The error, for checking its sentence.
    @discardableResult
    func expectFailure<T>(_ code: BookingError.Code, sourceLocation: SourceLocation = #_sourceLocation,
                          _ body: () async throws(BookingError) -> T) async throws -> BookingError? {
        let before = try snapshot()
        let error = await Self.error(of: body)
        #expect(error?.code == code, "expected \(code.rawValue), got \(error.map { "\($0)" } ?? "success")",
                sourceLocation: sourceLocation)
        #expect(try snapshot() == before, "a failed call wrote to the store", sourceLocation: sourceLocation)
        return error
    }

    /// The error `body` threw, or `nil` when it succeeded.
    static func error<T>(of body: () async throws(BookingError) -> T) async -> BookingError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }
}
