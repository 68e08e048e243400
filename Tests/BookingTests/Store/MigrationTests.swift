import Testing
@testable import Booking

/// Versioned migrations through `PRAGMA user_version`: from empty, re-open, partial, failing and malformed lists.
@Suite struct MigrationTests {
    /// The user tables of a database, sorted.
    private func tables(_ database: SQLiteDatabase) throws -> [String] {
        try database.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") {
            row throws(BookingError) in try row.string(0)
        }
    }

    /// Two tiny test migrations whose second step would fail if run twice (no `IF NOT EXISTS`).
    private let steps = [
        Migration(version: 1, name: "a", statements: ["CREATE TABLE a (x INTEGER)"]),
        Migration(version: 2, name: "b", statements: ["CREATE TABLE b (y INTEGER)", "INSERT INTO b VALUES (42)"]),
    ]

    @Test func migratesAnEmptyDatabaseToTheCurrentSchema() throws {
        let database = try SQLiteDatabase(location: SQLiteDatabase.inMemoryLocation)
        #expect(try database.userVersion() == 0)
        #expect(try database.migrate(BookingSchema.migrations) == [1, 2])
        #expect(try database.userVersion() == 2)
        #expect(try tables(database) == [
            "conversation_participants", "conversations", "home_configuration_items", "home_configurations",
            "listings", "lock_audit", "messages", "ratings", "reservations", "sequences", "users",
        ])
        #expect(try database.migrate(BookingSchema.migrations) == [])
        #expect(BookingStore.currentSchemaVersion == 2)
    }

    @Test func queriesUseTheirIndices() throws {
        let database = try SQLiteDatabase(location: SQLiteDatabase.inMemoryLocation)
        try database.migrate(BookingSchema.migrations)
        let plan = try database.query(
            "EXPLAIN QUERY PLAN SELECT id FROM reservations WHERE listing_id = ? AND check_in_day < ? ORDER BY check_in_day, id",
            "flat-1", 10) { row throws(BookingError) in try row.string(3) }
        #expect(plan.contains { $0.contains("reservations_by_listing") })
        let city = try database.query("EXPLAIN QUERY PLAN SELECT id FROM listings WHERE city = ? ORDER BY id", "Budapest") {
            row throws(BookingError) in try row.string(3)
        }
        #expect(city.contains { $0.contains("listings_by_city") })
    }

    @Test func reopeningAppliesOnlyMissingSteps() throws {
        let directory = try StoreTestDirectory()
        let path = directory.file("steps.sqlite")
        do {
            let database = try SQLiteDatabase(location: path)
            #expect(try database.migrate(Array(steps.prefix(1))) == [1])
            try database.execute("INSERT INTO a VALUES (?)", 7)
        }
        let reopened = try SQLiteDatabase(location: path)
        #expect(try reopened.userVersion() == 1)
        #expect(try reopened.migrate(steps) == [2])
        #expect(try reopened.scalarInt64("SELECT x FROM a") == 7)
        #expect(try reopened.scalarInt64("SELECT COUNT(*) FROM b") == 1)
        let third = try SQLiteDatabase(location: path)
        #expect(try third.migrate(steps) == [])
        #expect(try third.scalarInt64("SELECT COUNT(*) FROM b") == 1)
    }

    @Test func aFailingStepIsRolledBackAndKeepsTheOldVersion() throws {
        let database = try SQLiteDatabase(location: SQLiteDatabase.inMemoryLocation)
        let broken = steps + [Migration(version: 3, name: "broken", statements: [
            "CREATE TABLE c (z INTEGER)", "INSERT INTO nowhere VALUES (1)",
        ])]
        var thrown: BookingError?
        do { try database.migrate(broken) } catch { thrown = error }
        let error = try #require(thrown)
        #expect(error.code == .migrationFailed)
        #expect(error.message.contains("Migration 3 (broken)"))
        #expect(error.message.contains("leaving schema version 2"))
        #expect(error.message.contains("no such table: nowhere"))
        #expect(try database.userVersion() == 2)
        #expect(try tables(database) == ["a", "b"])
    }

    @Test func versionsMustRunWithoutGaps() throws {
        let database = try SQLiteDatabase(location: SQLiteDatabase.inMemoryLocation)
        var thrown: BookingError?
        do { try database.migrate([steps[1]]) } catch { thrown = error }
        #expect(thrown?.code == .migrationFailed)
        #expect(thrown?.message.contains("has version 2 but is number 1") == true)
        #expect(try database.userVersion() == 0)
    }

    @Test func aNewerDatabaseIsRefused() throws {
        let database = try SQLiteDatabase(location: SQLiteDatabase.inMemoryLocation)
        try database.migrate(steps)
        var thrown: BookingError?
        do { try database.migrate(Array(steps.prefix(1))) } catch { thrown = error }
        #expect(thrown?.code == .migrationFailed)
        #expect(thrown?.message.contains("schema version 2, newer than the 1 this build knows") == true)
    }

    @Test func aStoreOnAPartlyMigratedFileGetsTheRest() async throws {
        let directory = try StoreTestDirectory()
        let path = directory.file("booking.sqlite")
        do {
            let database = try SQLiteDatabase(location: path)
            #expect(try database.migrate([BookingSchema.core]) == [1])
            try database.insert(User(id: "host", externalID: "ext-host", name: "Hanna Host"))
        }
        let store = try BookingStore.open(path: path)
        #expect(try store.schemaVersion() == 2)
        let services = BookingServices(store: store, clock: BookingClock { .epoch })
        #expect(try await services.users.user("host").name == "Hanna Host")
    }
}
