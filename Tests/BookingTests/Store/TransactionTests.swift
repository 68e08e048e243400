import Testing
@testable import Booking

/// `SQLiteDatabase.transaction`: commit on return, rollback on throw, savepoints when nested, and
/// `BEGIN IMMEDIATE` taking the write lock at once.
@Suite struct TransactionTests {
    /// A fresh in-memory database with a table `t (id TEXT PRIMARY KEY)`.
    private func database() throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(location: SQLiteDatabase.inMemoryLocation)
        try database.execute("CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL) STRICT")
        return database
    }

    private func count(_ database: SQLiteDatabase) throws -> Int64 {
        try database.scalarInt64("SELECT COUNT(*) FROM t")
    }

    @Test func returningCommits() throws {
        let database = try database()
        let result = try database.transaction { db throws(BookingError) -> Int in
            try db.execute("INSERT INTO t VALUES (?)", "a")
            try db.execute("INSERT INTO t VALUES (?)", "b")
            #expect(db.isInTransaction)
            return 2
        }
        #expect(result == 2)
        #expect(!database.isInTransaction)
        #expect(try count(database) == 2)
    }

    @Test func aFailingInsertLeavesNothing() throws {
        let database = try database()
        var thrown: BookingError?
        do {
            try database.transaction { db throws(BookingError) in
                try db.execute("INSERT INTO t VALUES (?)", "a")
                try db.execute("INSERT INTO t VALUES (?)", "a")  // primary key violation
            }
        } catch {
            thrown = error
        }
        #expect(thrown?.code == .storeFailed)
        #expect(thrown?.message.contains("UNIQUE constraint failed: t.id") == true)
        #expect(try count(database) == 0)
        #expect(!database.isInTransaction)
        // The connection is usable afterwards and not stuck in a transaction.
        try database.execute("INSERT INTO t VALUES (?)", "c")
        #expect(try count(database) == 1)
    }

    @Test func aServiceErrorRollsBackToo() throws {
        let database = try database()
        var thrown: BookingError?
        do {
            try database.transaction { db throws(BookingError) in
                try db.execute("INSERT INTO t VALUES (?)", "a")
                throw BookingError(.reservationOverlap, "test")
            }
        } catch {
            thrown = error
        }
        #expect(thrown == BookingError(.reservationOverlap, "test"))
        #expect(try count(database) == 0)
    }

    @Test func nestedFailureUndoesOnlyTheInnerWork() throws {
        let database = try database()
        try database.transaction { db throws(BookingError) in
            try db.execute("INSERT INTO t VALUES (?)", "outer")
            do throws(BookingError) {
                try db.transaction { inner throws(BookingError) in
                    try inner.execute("INSERT INTO t VALUES (?)", "inner")
                    try inner.execute("INSERT INTO t VALUES (?)", "outer")  // fails
                }
            } catch {
                #expect(error.code == .storeFailed)
            }
            _ = try db.transaction { inner throws(BookingError) in try inner.execute("INSERT INTO t VALUES (?)", "kept") }
        }
        let ids = try database.query("SELECT id FROM t ORDER BY id") { row throws(BookingError) in try row.string(0) }
        #expect(ids == ["kept", "outer"])
    }

    @Test func nestedFailureThatEscapesRollsBackEverything() throws {
        let database = try database()
        do {
            try database.transaction { db throws(BookingError) in
                try db.execute("INSERT INTO t VALUES (?)", "outer")
                try db.transaction { inner throws(BookingError) in
                    try inner.execute("INSERT INTO t VALUES (?)", "inner")
                    throw BookingError(.storeFailed, "inner failed")
                }
            }
            Issue.record("the transaction should have thrown")
        } catch {
            #expect(error.message == "inner failed")
        }
        #expect(try count(database) == 0)
    }

    @Test func beginImmediateTakesTheWriteLockAtOnce() throws {
        let directory = try StoreTestDirectory()
        let path = directory.file("lock.sqlite")
        let first = try SQLiteDatabase(location: path, busyTimeoutMilliseconds: 10)
        try first.execute("CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL) STRICT")
        let second = try SQLiteDatabase(location: path, busyTimeoutMilliseconds: 10)
        try first.transaction { _ throws(BookingError) in
            // No write has happened yet in `first`, yet a second writer must already be shut out.
            do throws(BookingError) {
                _ = try second.transaction { db throws(BookingError) in try db.execute("INSERT INTO t VALUES (?)", "x") }
                Issue.record("the second connection wrote while the first held a transaction")
            } catch {
                #expect(error.code == .storeFailed)
                #expect(error.message.contains("database is locked"))
            }
        }
        _ = try second.transaction { db throws(BookingError) in try db.execute("INSERT INTO t VALUES (?)", "y") }
        #expect(try count(first) == 1)
    }
}
