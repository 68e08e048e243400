/// Versioned schema migrations, tracked in SQLite's `PRAGMA user_version`.
extension SQLiteDatabase {
    /// The schema version recorded in the database (0 for a new, empty database).
    func userVersion() throws(BookingError) -> Int {
        Int(try scalarInt64("PRAGMA user_version"))
    }

    /// Brings the database up to the newest of `migrations`, applying only those newer than its
    /// current version, each in its own transaction together with the new `user_version`.
    ///
    /// Re-opening a migrated database applies nothing; a database migrated by an older build gets
    /// only the missing steps. Two connections migrating at once are safe: the version is read again
    /// inside each step's `BEGIN IMMEDIATE` transaction.
    /// - Parameter migrations: Steps with versions 1, 2, 3, … in order.
    /// - Returns: The versions applied now, in order (empty when the database was up to date).
    /// - Throws: `store.migration` when the list is malformed, the database is newer than the list,
    ///   or a step fails (that step is rolled back; earlier steps stay applied).
    @discardableResult
    func migrate(_ migrations: [Migration]) throws(BookingError) -> [Int] {
        for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
            throw BookingError(.migrationFailed,
                               "Migration \"\(migration.name)\" has version \(migration.version) but is number \(offset + 1) in the list; versions must run 1, 2, 3, … without gaps.")
        }
        let latest = migrations.count
        let current = try userVersion()
        guard current <= latest else {
            throw BookingError(.migrationFailed,
                               "The database at \"\(location)\" has schema version \(current), newer than the \(latest) this build knows; open it with a newer build or use another file.")
        }
        var applied: [Int] = []
        for migration in migrations where migration.version > current {
            let didApply: Bool
            do {
                didApply = try transaction { database throws(BookingError) -> Bool in
                    guard try database.userVersion() < migration.version else { return false }
                    for sql in migration.statements { try database.execute(sql) }
                    // PRAGMA takes no parameters; the version is an integer from the migration list, not user input.
                    try database.execute("PRAGMA user_version = \(migration.version)")
                    return true
                }
            } catch {
                throw BookingError(.migrationFailed,
                                   "Migration \(migration.version) (\(migration.name)) of \"\(location)\" failed and was rolled back, leaving schema version \(migration.version - 1): \(error.message)")
            }
            if didApply { applied.append(migration.version) }
        }
        return applied
    }
}
