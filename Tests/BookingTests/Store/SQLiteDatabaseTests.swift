import Foundation
import Testing
@testable import Booking

/// The SQLite wrapper: opening, pragmas, typed bindings and typed reading, errors with SQLite's message.
@Suite struct SQLiteDatabaseTests {
    /// A fresh in-memory database with one table of every storage class.
    private func database() throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(location: SQLiteDatabase.inMemoryLocation)
        try database.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, n TEXT)")
        return database
    }

    /// The error `body` threw, or `nil`.
    private func failure<T>(_ body: () throws(BookingError) -> T) -> BookingError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func foreignKeysAreOnAndEnforced() throws {
        let database = try SQLiteDatabase(location: SQLiteDatabase.inMemoryLocation)
        #expect(try database.scalarInt64("PRAGMA foreign_keys") == 1)
        try database.execute("CREATE TABLE parent (id TEXT PRIMARY KEY)")
        try database.execute("CREATE TABLE child (parent_id TEXT NOT NULL REFERENCES parent(id))")
        let error = try #require(failure { () throws(BookingError) in
            try database.execute("INSERT INTO child (parent_id) VALUES (?)", "nobody")
        })
        #expect(error.code == .storeFailed)
        #expect(error.message.contains("FOREIGN KEY constraint failed"))
        #expect(try database.scalarInt64("SELECT COUNT(*) FROM child") == 0)
    }

    @Test func busyTimeoutIsSet() throws {
        let database = try SQLiteDatabase(location: SQLiteDatabase.inMemoryLocation, busyTimeoutMilliseconds: 1_234)
        #expect(try database.scalarInt64("PRAGMA busy_timeout") == 1_234)
    }

    @Test(arguments: [Int64.min, -1, 0, 1, Int64.max])
    func integersRoundTrip(value: Int64) throws {
        let database = try database()
        try database.execute("INSERT INTO t (i) VALUES (?)", .integer(value))
        #expect(try database.scalarInt64("SELECT i FROM t") == value)
    }

    @Test(arguments: [-1.5, 0.0, 0.1, 1e300, -273.15])
    func realsRoundTrip(value: Double) throws {
        let database = try database()
        try database.execute("INSERT INTO t (r) VALUES (?)", .real(value))
        let read = try database.query("SELECT r FROM t") { row throws(BookingError) in try row.double(0) }
        #expect(read == [value])
    }

    @Test(arguments: ["", "plain", "Zoë's \"flat\" — 🏠", "with\u{0}nul", "'); DROP TABLE t; --", String(repeating: "é", count: 10_001)])
    func textRoundTripsVerbatim(value: String) throws {
        let database = try database()
        try database.execute("INSERT INTO t (s) VALUES (?)", .text(value))
        let read = try database.query("SELECT s, typeof(s) FROM t") { row throws(BookingError) in
            (try row.string(0), try row.string(1))
        }
        #expect(read.count == 1)
        #expect(read.first?.0 == value)
        #expect(read.first?.1 == "text")
        #expect(try database.scalarInt64("SELECT COUNT(*) FROM sqlite_master WHERE name = 't'") == 1)
    }

    @Test func nullBindsAndReadsAsNil() throws {
        let database = try database()
        try database.execute("INSERT INTO t (i, n) VALUES (?, ?)", 7, nil)
        let row = try database.queryFirst("SELECT n, i FROM t") { row throws(BookingError) in
            (try row.optionalString(0), try row.optionalInt64(1), row.isNull(0))
        }
        #expect(row?.0 == nil)
        #expect(row?.1 == 7)
        #expect(row?.2 == true)
        #expect(try database.queryFirst("SELECT i FROM t WHERE i = ?", 8) { row throws(BookingError) in try row.int(0) } == nil)
    }

    @Test func readingTheWrongTypeNamesTheColumn() throws {
        let database = try database()
        try database.execute("INSERT INTO t (i, s) VALUES (?, ?)", 1, "one")
        let error = try #require(failure { () throws(BookingError) in
            try database.query("SELECT s FROM t") { row throws(BookingError) in try row.int64(0) }
        })
        #expect(error.code == .storeFailed)
        #expect(error.message.contains("Column \"s\""))
        #expect(error.message.contains("holds text where an integer was expected"))
        let null = try #require(failure { () throws(BookingError) in
            try database.query("SELECT n FROM t") { row throws(BookingError) in try row.string(0) }
        })
        #expect(null.message.contains("holds NULL where text was expected"))
        let missing = try #require(failure { () throws(BookingError) in
            try database.query("SELECT i FROM t") { row throws(BookingError) in try row.string(3) }
        })
        #expect(missing.message.contains("Column 3 does not exist"))
    }

    @Test func wrongParameterCountIsRefused() throws {
        let database = try database()
        let error = try #require(failure { () throws(BookingError) in
            try database.execute("INSERT INTO t (i, s) VALUES (?, ?)", 1)
        })
        #expect(error.code == .storeFailed)
        #expect(error.message.contains("has 2 parameter(s) but 1 value(s) were bound"))
        #expect(try database.scalarInt64("SELECT COUNT(*) FROM t") == 0)
    }

    @Test func badSQLCarriesSQLitesMessage() throws {
        let database = try database()
        let error = try #require(failure { () throws(BookingError) in try database.execute("SELEKT 1") })
        #expect(error.code == .storeFailed)
        #expect(error.message.contains("syntax error"))
        #expect(error.message.contains("SELEKT 1"))
        let missing = try #require(failure { () throws(BookingError) in try database.execute("SELECT * FROM nowhere") })
        #expect(missing.message.contains("no such table: nowhere"))
    }

    @Test func moreThanOneStatementIsRefused() throws {
        let database = try database()
        let error = try #require(failure { () throws(BookingError) in
            try database.execute("INSERT INTO t (i) VALUES (1); INSERT INTO t (i) VALUES (2)")
        })
        #expect(error.message.contains("more than one statement"))
        #expect(try database.scalarInt64("SELECT COUNT(*) FROM t") == 0)
        try database.execute("INSERT INTO t (i) VALUES (1);  ")
        #expect(try database.scalarInt64("SELECT COUNT(*) FROM t") == 1)
    }

    @Test func constraintViolationsCarrySQLitesMessage() throws {
        let database = try SQLiteDatabase(location: SQLiteDatabase.inMemoryLocation)
        try database.execute("CREATE TABLE u (id TEXT PRIMARY KEY NOT NULL, n INTEGER CHECK (n > 0)) STRICT")
        try database.execute("INSERT INTO u VALUES (?, ?)", "a", 1)
        let unique = try #require(failure { () throws(BookingError) in try database.execute("INSERT INTO u VALUES (?, ?)", "a", 2) })
        #expect(unique.message.contains("UNIQUE constraint failed: u.id"))
        let check = try #require(failure { () throws(BookingError) in try database.execute("INSERT INTO u VALUES (?, ?)", "b", 0) })
        #expect(check.message.contains("CHECK constraint failed"))
        let strict = try #require(failure { () throws(BookingError) in try database.execute("INSERT INTO u VALUES (?, ?)", "c", "x") })
        #expect(strict.message.contains("cannot store TEXT value in INTEGER column u.n"))
        #expect(try database.scalarInt64("SELECT COUNT(*) FROM u") == 1)
    }

    @Test func executeReportsChangedRows() throws {
        let database = try database()
        for value in 1...3 { try database.execute("INSERT INTO t (i) VALUES (?)", .int(value)) }
        #expect(try database.execute("UPDATE t SET s = ? WHERE i >= ?", "big", 2) == 2)
        #expect(try database.exists("SELECT 1 FROM t WHERE s = ?", "big"))
        #expect(try !database.exists("SELECT 1 FROM t WHERE s = ?", "small"))
    }

    @Test func openingInAMissingDirectoryFails() throws {
        let directory = try StoreTestDirectory()
        let path = directory.file("missing/booking.sqlite")
        let error = try #require(failure { () throws(BookingError) in try SQLiteDatabase(location: path) })
        #expect(error.code == .storeFailed)
        #expect(error.message.contains(path))
        #expect(error.message.contains("unable to open database file"))
    }
}
