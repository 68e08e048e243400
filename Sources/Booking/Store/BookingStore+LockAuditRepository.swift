import Simulation

/// The lock audit log, stored append-only in the `lock_audit` table.
extension BookingStore: LockAuditRepository {
    /// Appends one entry.
    /// - Throws: `listing.notFound` when the entry names an unknown listing.
    public func append(_ entry: LockAuditEntry) async throws(BookingError) {
        try write { database throws(BookingError) in
            _ = try database.requireListing(entry.listing)
            try database.execute(
                """
                INSERT INTO lock_audit (at_ms, listing_id, item, user_id, operation, outcome, reason)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                .integer(entry.at.unixMilliseconds), .id(entry.listing), .text(entry.item), .id(entry.user),
                .text(entry.operation.rawValue), .text(entry.outcome.rawValue), .text(entry.reason))
        }
    }

    /// Every entry in order of appending, or only those of `listing` when it is given.
    public func entries(listing: ListingID?) async throws(BookingError) -> [LockAuditEntry] {
        try read { database throws(BookingError) in
            try database.query(
                """
                SELECT at_ms, listing_id, item, user_id, operation, outcome, reason FROM lock_audit
                WHERE ?1 IS NULL OR listing_id = ?1 ORDER BY sequence
                """,
                listing.map(SQLiteValue.id) ?? .null, row: Self.decodeAuditEntry)
        }
    }

    /// Reads one audit line.
    private static func decodeAuditEntry(_ row: Statement) throws(BookingError) -> LockAuditEntry {
        let operationText = try row.string(4)
        let outcomeText = try row.string(5)
        guard let operation = LockAuditEntry.Operation(rawValue: operationText),
              let outcome = LockAuditEntry.Outcome(rawValue: outcomeText)
        else {
            throw BookingError(.storeFailed,
                               "A lock audit line stores the unknown operation \"\(operationText)\" or outcome \"\(outcomeText)\"; the database is damaged — restore it from a backup.")
        }
        return LockAuditEntry(at: SimInstant(unixMilliseconds: try row.int64(0)), listing: ListingID(try row.string(1)),
                              item: try row.string(2), user: UserID(try row.string(3)), operation: operation,
                              outcome: outcome, reason: try row.string(6))
    }
}
