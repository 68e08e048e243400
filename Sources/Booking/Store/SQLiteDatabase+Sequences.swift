/// Deterministic id generation from named counters stored in the database.
extension SQLiteDatabase {
    /// The next value of the counter `name` (1 for a new counter); rolled back with the transaction it ran in.
    func nextSequenceValue(_ name: String) throws(BookingError) -> Int64 {
        let values = try query(
            """
            INSERT INTO sequences (name, value) VALUES (?, 1)
            ON CONFLICT (name) DO UPDATE SET value = value + 1
            RETURNING value
            """,
            .text(name), row: { row throws(BookingError) in try row.int64(0) })
        guard let value = values.first else {
            throw BookingError(.storeFailed, "The id counter \"\(name)\" returned no value; this is a bug in the store.")
        }
        return value
    }

    /// A fresh id `prefix` + n from the counter `sequence`, skipping values that `isTaken` reports as used
    /// (for example an id a scenario chose itself), so the same history always yields the same ids.
    func generateID(sequence: String, prefix: String, isTaken: (String) throws(BookingError) -> Bool)
        throws(BookingError) -> String
    {
        while true {
            let candidate = prefix + String(try nextSequenceValue(sequence))
            if try !isTaken(candidate) { return candidate }
        }
    }
}
