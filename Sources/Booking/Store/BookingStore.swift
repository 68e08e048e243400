import Synchronization

/// The booking database: one SQLite connection, migrated to the current schema, shared safely
/// between tasks by serialising every use of it behind a mutex.
///
/// Use ``inMemory()`` for scenario runs and tests, ``open(path:)`` for a file that survives a
/// restart. The services read through ``read(_:)`` and change data only through
/// ``write(_:)``, which runs the whole closure as one `BEGIN IMMEDIATE` transaction — a check
/// and the insert it guards can never interleave with another writer, and a thrown error
/// leaves nothing written.
public final class BookingStore: Sendable {
    /// The database file's path, or `:memory:`.
    public let location: String
    private let connection: Mutex<SQLiteDatabase>

    /// Wraps `database` after migrating it with `migrations`.
    /// - Throws: `store.migration` when a migration fails or the file is newer than this build.
    init(database: sending SQLiteDatabase, migrations: [Migration] = BookingSchema.migrations) throws(BookingError) {
        try database.migrate(migrations)
        self.location = database.location
        self.connection = Mutex(database)
    }

    /// A new, empty, private in-memory database with the current schema.
    /// - Throws: `store.failed` only if SQLite itself cannot start.
    public static func inMemory() throws(BookingError) -> BookingStore {
        try BookingStore(database: SQLiteDatabase(location: SQLiteDatabase.inMemoryLocation))
    }

    /// Opens the database file at `path`, creating it when missing and applying only the migrations it lacks.
    /// - Parameter path: A file path whose directory exists (an empty path is refused).
    /// - Throws: `store.failed` when the file cannot be opened; `store.migration` when migrating fails.
    public static func open(path: String) throws(BookingError) -> BookingStore {
        guard !path.isEmpty, path != SQLiteDatabase.inMemoryLocation else {
            throw BookingError(.storeFailed,
                               "The database path \"\(path)\" is not a file path; pass a path such as \"/var/lib/rental-twin/booking.sqlite\" or use BookingStore.inMemory().")
        }
        return try BookingStore(database: SQLiteDatabase(location: path))
    }

    /// The schema version of the database (the number of migrations applied).
    public func schemaVersion() throws(BookingError) -> Int {
        try read { database throws(BookingError) in try database.userVersion() }
    }

    /// The schema version this build migrates every database to.
    public static var currentSchemaVersion: Int { BookingSchema.migrations.count }

    /// Runs `body` with exclusive use of the connection, without a transaction (for queries).
    func read<T: Sendable>(_ body: @Sendable (SQLiteDatabase) throws(BookingError) -> T) throws(BookingError) -> T {
        try connection.withLock { database throws(BookingError) -> T in try body(database) }
    }

    /// Runs `body` with exclusive use of the connection inside one transaction, committed when
    /// `body` returns and rolled back when it throws.
    @discardableResult
    func write<T: Sendable>(_ body: @Sendable (SQLiteDatabase) throws(BookingError) -> T) throws(BookingError) -> T {
        try connection.withLock { database throws(BookingError) -> T in try database.transaction(body) }
    }
}
