import Simulation
import Testing
@testable import Booking

/// `BookingStore`: in-memory and file databases, survival across re-opening, and the repositories.
@Suite struct BookingStoreTests {
    private static let flat = Listing(id: "flat-1", owner: "host", name: "Danube view flat", city: "Budapest",
                                      country: "Hungary", capacity: 3, timeZone: "Europe/Budapest")

    /// A store with `host`, `guest` and `flat-1`.
    private func seeded(_ store: BookingStore, clock: BookingClock = BookingClock { .epoch }) async throws -> BookingServices {
        let services = BookingServices(store: store, clock: clock)
        _ = try await services.users.register(User(id: "host", externalID: "ext-host", name: "Hanna Host"))
        _ = try await services.users.register(User(id: "guest", externalID: "ext-guest", name: "Gabor Guest", email: "g@example.org"))
        _ = try await services.listings.create(Self.flat)
        return services
    }

    @Test func inMemoryStoresArePrivateAndMigrated() async throws {
        let first = try BookingStore.inMemory()
        let second = try BookingStore.inMemory()
        #expect(try first.schemaVersion() == BookingStore.currentSchemaVersion)
        #expect(first.location == ":memory:")
        _ = try await seeded(first)
        let users = try await BookingServices(store: second, clock: BookingClock { .epoch }).users.users()
        #expect(users.isEmpty)
    }

    @Test func reopeningAFileKeepsEverything() async throws {
        let directory = try StoreTestDirectory()
        let path = directory.file("booking.sqlite")
        let bookedAt = SimInstant(unixMilliseconds: 1_767_268_800_123)
        let configuration = HomeConfiguration(id: "flat-1-heating", listing: "flat-1", type: .heating, name: "heating",
                                              thingUID: "twin:thermostat:flat-1-heating",
                                              items: ["switch": "flat_1_heating_switch", "setpoint": "flat_1_heating_setpoint"])
        let audit = LockAuditEntry(at: bookedAt, listing: "flat-1", item: "flat_1_door_lock", user: "guest",
                                   operation: .unlock, outcome: .denied, reason: "no stay covers now")
        let booked: Reservation
        do {
            let store = try BookingStore.open(path: path)
            let clock = ServicesTestClock(bookedAt)
            let services = try await seeded(store, clock: clock.bookingClock)
            booked = try await services.reservations.book(id: "r1", guest: "guest", listing: "flat-1",
                                                          checkIn: CivilDate(iso: "2026-01-09")!,
                                                          checkOut: CivilDate(iso: "2026-01-11")!, guests: 2)
            clock.set(ServicesTestClock.utc("2026-01-09", 15))
            _ = try await services.reservations.checkIn("r1")
            _ = try await services.reservations.checkOut("r1")
            _ = try await services.conversations.send(from: "host", reservation: "r1", text: "Welcome!")
            _ = try await services.ratings.rate(guest: "guest", listing: "flat-1", stars: 4, comment: nil)
            try await store.insert(configuration)
            try await store.append(audit)
        }
        let store = try BookingStore.open(path: path)
        #expect(try store.schemaVersion() == 2)
        let services = BookingServices(store: store, clock: BookingClock { .epoch })
        #expect(try await services.users.user("guest") == User(id: "guest", externalID: "ext-guest", name: "Gabor Guest", email: "g@example.org"))
        #expect(try await services.listings.listing("flat-1") == Self.flat)
        var expected = booked
        expected.status = .checkedOut
        #expect(try await services.reservations.reservation("r1") == expected)
        #expect(expected.createdAt == bookedAt)
        let conversation = try await services.conversations.conversation(forReservation: "r1")
        #expect(conversation.participants == ["guest", "host"])
        #expect(try await services.conversations.messages(in: conversation.id).map(\.text) == [
            "Hi! I booked Danube view flat for 2026-01-09 → 2026-01-11, 2 guest(s).", "Welcome!",
        ])
        let ratings = try await services.ratings.ratings(ofListing: "flat-1")
        #expect(ratings.map(\.stars) == [4])
        #expect(ratings.first?.comment == nil)
        #expect(try await store.configuration("flat-1-heating") == configuration)
        #expect(try await store.entries(listing: nil) == [audit])
        // Counters survive too: the next generated id continues after the stored ones.
        let next = try await services.reservations.book(guest: "guest", listing: "flat-1",
                                                        checkIn: CivilDate(iso: "2026-02-01")!,
                                                        checkOut: CivilDate(iso: "2026-02-02")!, guests: 1)
        #expect(next.id == "res-1")
        #expect(try await services.conversations.conversation(forReservation: next.id).id == "conv-2")
    }

    @Test func openRefusesAnEmptyPath() throws {
        var thrown: BookingError?
        do { _ = try BookingStore.open(path: "") } catch { thrown = error }
        #expect(thrown?.code == .storeFailed)
        #expect(thrown?.message.contains("is not a file path") == true)
    }

    @Test func homeConfigurationsAreStoredWithTheirItems() async throws {
        let store = try BookingStore.inMemory()
        _ = try await seeded(store)
        let lock = HomeConfiguration(id: "c-lock", listing: "flat-1", type: .lock, name: "door", thingUID: "twin:lock:door",
                                     items: ["lock": "flat_1_door_lock", "door": "flat_1_door_door", "battery": "flat_1_door_battery"])
        let watcher = HomeConfiguration(id: "c-watch", listing: "flat-1", type: .weatherWatcher, name: "automation",
                                        thingUID: "", items: [:])
        try await store.insert(lock)
        try await store.insert(watcher)
        #expect(try await store.configuration("c-lock") == lock)
        #expect(try await store.configurations(ofListing: "flat-1") == [watcher, lock])  // sorted by name
        #expect(try await store.configurations(ofListing: "flat-2") == [])
    }

    @Test func homeConfigurationErrorsWriteNothing() async throws {
        let store = try BookingStore.inMemory()
        _ = try await seeded(store)
        let heating = HomeConfiguration(id: "c1", listing: "flat-1", type: .heating, name: "heating", thingUID: "t",
                                        items: ["switch": "s"])
        try await store.insert(heating)
        var changed = heating
        changed.items = ["switch": "other", "setpoint": "p"]
        let duplicate = await error { () async throws(BookingError) in try await store.insert(changed) }
        #expect(duplicate?.code == .configurationInvalid)
        #expect(duplicate?.message.contains("\"c1\" already exists") == true)
        var elsewhere = heating
        elsewhere.id = "c2"
        elsewhere.listing = "flat-9"
        let unknown = await error { () async throws(BookingError) in try await store.insert(elsewhere) }
        #expect(unknown?.code == .listingNotFound)
        var empty = heating
        empty.id = ""
        #expect(await error { () async throws(BookingError) in try await store.insert(empty) }?.code == .configurationInvalid)
        #expect(try await store.configuration("c1") == heating)
        let itemCount = try store.read { database throws(BookingError) in
            try database.scalarInt64("SELECT COUNT(*) FROM home_configuration_items")
        }
        #expect(itemCount == 1)
        let missing = await error { () async throws(BookingError) in _ = try await store.configuration("c9") }
        #expect(missing?.code == .configurationNotFound)
        #expect(missing?.message.contains("\"c9\"") == true)
    }

    @Test func lockAuditKeepsOrderAndFiltersByListing() async throws {
        let store = try BookingStore.inMemory()
        let services = try await seeded(store)
        var second = Self.flat
        second.id = "flat-2"
        _ = try await services.listings.create(second)
        func entry(_ at: Int64, _ listing: ListingID, _ user: UserID, _ operation: LockAuditEntry.Operation,
                   _ outcome: LockAuditEntry.Outcome) -> LockAuditEntry {
            LockAuditEntry(at: SimInstant(unixMilliseconds: at), listing: listing, item: "door_lock", user: user,
                           operation: operation, outcome: outcome, reason: "reason at \(at)")
        }
        let entries = [
            entry(10, "flat-1", "guest", .unlock, .allowed), entry(9, "flat-2", "guest", .lock, .denied),
            entry(8, "flat-1", "guest", .unlock, .failed), entry(7, "flat-2", "stranger", .unlock, .denied),
        ]
        for entry in entries { try await store.append(entry) }
        #expect(try await store.entries(listing: nil) == entries)  // appending order, not time order
        #expect(try await store.entries(listing: "flat-2") == [entries[1], entries[3]])
        #expect(try await store.entries(listing: "flat-9") == [])
        var orphan = entries[0]
        orphan.listing = "flat-9"
        #expect(await error { () async throws(BookingError) in try await store.append(orphan) }?.code == .listingNotFound)
        #expect(try await store.entries(listing: nil).count == 4)
    }

    /// The error `body` threw, or `nil`.
    private func error(_ body: () async throws(BookingError) -> Void) async -> BookingError? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }
}
