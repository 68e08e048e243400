import CSQLite

/// A compiled SQL statement of one ``SQLiteDatabase``: bind typed parameters, step through
/// rows, read typed columns. Finalised when released.
///
/// Column readers check SQLite's storage class, so a schema mistake surfaces as a
/// `store.failed` sentence naming the column instead of a silently converted value.
final class Statement {
    /// The SQL text, for error messages.
    let sql: String
    /// Unowned: the database caches its statements, and a statement never outlives its use on it.
    private unowned let database: SQLiteDatabase
    private let handle: OpaquePointer

    /// SQLite's `SQLITE_TRANSIENT`: copy bound text before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Compiles `sql` on `database`.
    /// - Throws: `store.failed` when the SQL does not compile or contains more than one statement.
    init(database: SQLiteDatabase, sql: String) throws(BookingError) {
        var pointer: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        var trailing = ""
        let status = sql.withCString { text in
            let status = sqlite3_prepare_v2(database.handle, text, -1, &pointer, &tail)
            if let rest = tail { trailing = String(cString: rest) }
            return status
        }
        guard status == SQLITE_OK, let compiled = pointer else {
            sqlite3_finalize(pointer)
            throw database.failure(status, while: "compiling \"\(sql)\"")
        }
        guard trailing.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
            sqlite3_finalize(compiled)
            throw BookingError(.storeFailed,
                               "The SQL \"\(sql)\" holds more than one statement; prepare them one at a time (this is a bug in the store).")
        }
        self.sql = sql
        self.database = database
        self.handle = compiled
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement so that it can run again and holds no lock meanwhile (its bindings stay).
    func reset() { sqlite3_reset(handle) }

    /// The number of `?` parameters of the statement.
    var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Binds `values` to parameters 1…n in order, after clearing earlier bindings and resetting the statement.
    /// - Throws: `store.failed` when the count differs from the statement's parameter count.
    func bind(_ values: [SQLiteValue]) throws(BookingError) {
        guard values.count == parameterCount else {
            throw BookingError(.storeFailed,
                               "The statement \"\(sql)\" has \(parameterCount) parameter(s) but \(values.count) value(s) were bound; this is a bug in the store.")
        }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    func bind(_ value: SQLiteValue, at index: Int32) throws(BookingError) {
        let status: Int32
        switch value {
        case .integer(let number):
            status = sqlite3_bind_int64(handle, index, number)
        case .real(let number):
            status = sqlite3_bind_double(handle, index, number)
        case .null:
            status = sqlite3_bind_null(handle, index)
        case .text(let text):
            // Bind by byte count so that text with NUL characters survives. The extra
            // terminator keeps the buffer non-empty: an empty buffer has no base address,
            // which SQLite would take for NULL.
            let length = UInt64(text.utf8.count)
            let bytes = Array(text.utf8) + [0]
            status = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    sqlite3_bind_text64(handle, index, chars.baseAddress, length, Self.transient, UInt8(SQLITE_UTF8))
                }
            }
        }
        guard status == SQLITE_OK else { throw database.failure(status, while: "binding parameter \(index) of \"\(sql)\"") }
    }

    /// Runs the statement one step.
    /// - Returns: `true` when a row is ready to read, `false` when the statement is done.
    /// - Throws: `store.failed` with SQLite's message (constraint violations, locks, I/O errors).
    func step() throws(BookingError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw database.failure(status, while: "running \"\(sql)\"")
        }
    }

    /// The number of columns in a result row.
    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// Whether column `index` (0-based) of the current row is `NULL`.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// The integer in column `index` of the current row.
    /// - Throws: `store.failed` when the column holds anything but an integer.
    func int64(_ index: Int32) throws(BookingError) -> Int64 {
        try expect(SQLITE_INTEGER, "an integer", at: index)
        return sqlite3_column_int64(handle, index)
    }

    /// The integer in column `index` as an `Int`.
    func int(_ index: Int32) throws(BookingError) -> Int { Int(try int64(index)) }

    /// The number in column `index` of the current row (an integer column reads as its exact double).
    /// - Throws: `store.failed` when the column holds neither a real nor an integer.
    func double(_ index: Int32) throws(BookingError) -> Double {
        if sqlite3_column_type(handle, index) == SQLITE_INTEGER { return Double(sqlite3_column_int64(handle, index)) }
        try expect(SQLITE_FLOAT, "a real number", at: index)
        return sqlite3_column_double(handle, index)
    }

    /// The text in column `index` of the current row.
    /// - Throws: `store.failed` when the column holds anything but text.
    func string(_ index: Int32) throws(BookingError) -> String {
        try expect(SQLITE_TEXT, "text", at: index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let bytes = sqlite3_column_text(handle, index), count > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The text in column `index`, or `nil` when it is `NULL`.
    func optionalString(_ index: Int32) throws(BookingError) -> String? {
        isNull(index) ? nil : try string(index)
    }

    /// The integer in column `index`, or `nil` when it is `NULL`.
    func optionalInt64(_ index: Int32) throws(BookingError) -> Int64? {
        isNull(index) ? nil : try int64(index)
    }

    /// Throws unless column `index` has SQLite storage class `type`.
    private func expect(_ type: Int32, _ name: String, at index: Int32) throws(BookingError) {
        guard index >= 0, index < sqlite3_column_count(handle) else {
            throw BookingError(.storeFailed,
                               "Column \(index) does not exist in the result of \"\(sql)\" (it has \(columnCount)); this is a bug in the store.")
        }
        let actual = sqlite3_column_type(handle, index)
        guard actual == type else {
            let column = sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "#\(index)"
            throw BookingError(.storeFailed,
                               "Column \"\(column)\" of \"\(sql)\" holds \(Self.typeName(actual)) where \(name) was expected; the database does not match the schema — migrate it or recreate it.")
        }
    }

    /// A readable name of an SQLite storage class.
    private static func typeName(_ type: Int32) -> String {
        switch type {
        case SQLITE_INTEGER: "an integer"
        case SQLITE_FLOAT: "a real number"
        case SQLITE_TEXT: "text"
        case SQLITE_BLOB: "a blob"
        default: "NULL"
        }
    }
}
