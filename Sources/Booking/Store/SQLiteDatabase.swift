import CSQLite

/// One connection to an SQLite database (a file or a private in-memory database), with foreign
/// keys on, a busy timeout, prepared statements and `BEGIN IMMEDIATE` transactions.
///
/// A connection is not thread-safe by itself; ``BookingStore`` owns one and serialises access
/// to it. Every value reaches SQL through a bound parameter, never by splicing text into SQL.
final class SQLiteDatabase {
    /// Where the database lives: a path for a file, or `:memory:`.
    let location: String
    /// The `sqlite3 *` handle; closed in `deinit`.
    let handle: OpaquePointer
    /// How deep the current `transaction` calls are nested (0 outside any transaction).
    private var transactionDepth = 0
    /// Compiled statements of the helpers below, by SQL text, with whether one is being run.
    private var statementCache: [String: (statement: Statement, inUse: Bool)] = [:]
    /// How many SQL texts the cache keeps; statements beyond it are compiled per call.
    private static let statementCacheLimit = 128

    /// The location of a private, empty in-memory database that disappears with the connection.
    static let inMemoryLocation = ":memory:"

    /// Opens (creating if needed) the database at `location` and switches foreign keys on.
    /// - Parameters:
    ///   - location: A file path, or ``inMemoryLocation``.
    ///   - busyTimeoutMilliseconds: How long a statement waits for another connection's lock before failing.
    /// - Throws: `store.failed` when the file cannot be opened or configured.
    init(location: String, busyTimeoutMilliseconds: Int32 = 5_000) throws(BookingError) {
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let status = sqlite3_open_v2(location, &pointer, flags, nil)
        guard let opened = pointer else {
            throw BookingError(.storeFailed,
                               "SQLite could not open the database at \"\(location)\" (code \(status)); check that the directory exists and is writable.")
        }
        guard status == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(opened))
            sqlite3_close_v2(opened)
            throw BookingError(.storeFailed,
                               "SQLite could not open the database at \"\(location)\": \(message) (code \(status)); check the path and its permissions.")
        }
        self.location = location
        self.handle = opened
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
        guard try scalarInt64("PRAGMA foreign_keys") == 1 else {
            throw BookingError(.storeFailed,
                               "SQLite at \"\(location)\" refused to enable foreign keys; use an SQLite built without SQLITE_OMIT_FOREIGN_KEY.")
        }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Compiles one SQL statement; bind its `?` parameters before stepping it.
    /// - Throws: `store.failed` with SQLite's message when the SQL does not compile.
    func prepare(_ sql: String) throws(BookingError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs `body` with the compiled statement for `sql`, compiling it only the first time.
    ///
    /// The statement is reset when `body` returns, so a half-read query holds no lock. A
    /// statement already being run (a nested use of the same SQL) is compiled afresh instead.
    private func withStatement<T>(_ sql: String, _ body: (Statement) throws(BookingError) -> T) throws(BookingError) -> T {
        if let entry = statementCache[sql], !entry.inUse {
            statementCache[sql]?.inUse = true
            defer {
                entry.statement.reset()
                statementCache[sql]?.inUse = false
            }
            return try body(entry.statement)
        }
        let statement = try prepare(sql)
        guard statementCache[sql] == nil, statementCache.count < Self.statementCacheLimit else {
            return try body(statement)
        }
        statementCache[sql] = (statement, true)
        defer {
            statement.reset()
            statementCache[sql]?.inUse = false
        }
        return try body(statement)
    }

    /// Runs one statement that returns no rows (or whose rows are ignored), binding `values` to its parameters in order.
    /// - Returns: The number of rows the statement inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ values: SQLiteValue...) throws(BookingError) -> Int {
        try withStatement(sql) { statement throws(BookingError) in
            try statement.bind(values)
            while try statement.step() {}
            return Int(sqlite3_changes(handle))
        }
    }

    /// Runs a query, binding `values`, and turns each result row into a `T`.
    /// - Returns: The rows in the order SQLite returned them.
    func query<T>(_ sql: String, _ values: SQLiteValue..., row transform: (Statement) throws(BookingError) -> T)
        throws(BookingError) -> [T]
    {
        try withStatement(sql) { statement throws(BookingError) in
            try statement.bind(values)
            var rows: [T] = []
            while try statement.step() { rows.append(try transform(statement)) }
            return rows
        }
    }

    /// Runs a query, binding `values`, and turns its first row (if any) into a `T`.
    func queryFirst<T>(_ sql: String, _ values: SQLiteValue..., row transform: (Statement) throws(BookingError) -> T)
        throws(BookingError) -> T?
    {
        try withStatement(sql) { statement throws(BookingError) in
            try statement.bind(values)
            guard try statement.step() else { return nil }
            return try transform(statement)
        }
    }

    /// The integer in the first column of the first row of a query (for `COUNT(*)`, pragmas and the like).
    /// - Throws: `store.failed` when the query returns no row or the column is not an integer.
    func scalarInt64(_ sql: String, _ values: SQLiteValue...) throws(BookingError) -> Int64 {
        try withStatement(sql) { statement throws(BookingError) in
            try statement.bind(values)
            guard try statement.step() else {
                throw BookingError(.storeFailed, "The query \"\(sql)\" returned no row where one integer was expected; this is a bug in the store.")
            }
            return try statement.int64(0)
        }
    }

    /// Whether the query returns at least one row.
    func exists(_ sql: String, _ values: SQLiteValue...) throws(BookingError) -> Bool {
        try withStatement(sql) { statement throws(BookingError) in
            try statement.bind(values)
            return try statement.step()
        }
    }

    /// Whether a transaction is open on this connection.
    var isInTransaction: Bool { transactionDepth > 0 }

    /// Runs `body` in one transaction: `BEGIN IMMEDIATE` (taking the write lock at once, so a
    /// read-check-write sequence cannot interleave with another connection), `COMMIT` when
    /// `body` returns, `ROLLBACK` when it throws — nothing of a failed body stays written.
    ///
    /// A nested call runs inside a savepoint, so an inner failure undoes only the inner work
    /// if the outer body catches it.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw (after rolling back), or `store.failed` if SQLite cannot begin or commit.
    func transaction<T>(_ body: (SQLiteDatabase) throws(BookingError) -> T) throws(BookingError) -> T {
        let depth = transactionDepth
        let savepoint = "nested_\(depth)"  // an integer counter, not user input
        try execute(depth == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        let result: T
        do {
            result = try body(self)
        } catch {
            transactionDepth -= 1
            rollBack(depth == 0 ? ["ROLLBACK"] : ["ROLLBACK TO \(savepoint)", "RELEASE \(savepoint)"])
            throw error
        }
        transactionDepth -= 1
        do {
            try execute(depth == 0 ? "COMMIT" : "RELEASE \(savepoint)")
        } catch {
            rollBack(depth == 0 ? ["ROLLBACK"] : ["ROLLBACK TO \(savepoint)", "RELEASE \(savepoint)"])
            throw error
        }
        return result
    }

    /// Undoes an open transaction or savepoint, ignoring errors (SQLite may already have rolled back by itself).
    private func rollBack(_ statements: [String]) {
        for sql in statements where sqlite3_get_autocommit(handle) == 0 {
            sqlite3_exec(handle, sql, nil, nil, nil)
        }
    }

    /// The `store.failed` error for SQLite status `status`, with SQLite's own message and what was being done.
    func failure(_ status: Int32, while doing: String) -> BookingError {
        let message = String(cString: sqlite3_errmsg(handle))
        return BookingError(.storeFailed,
                            "SQLite failed while \(doing) in \"\(location)\": \(message) (code \(status)); the statement had no effect — check the input, then retry.")
    }
}
