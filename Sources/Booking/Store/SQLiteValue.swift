/// A value bound to an SQL parameter: SQLite's four storage classes that the store uses.
enum SQLiteValue: Hashable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByNilLiteral
{
    /// A 64-bit signed integer (`INTEGER`).
    case integer(Int64)
    /// A double (`REAL`).
    case real(Double)
    /// UTF-8 text (`TEXT`).
    case text(String)
    /// SQL `NULL`.
    case null

    init(integerLiteral value: Int64) { self = .integer(value) }
    init(floatLiteral value: Double) { self = .real(value) }
    init(stringLiteral value: String) { self = .text(value) }
    init(nilLiteral: ()) { self = .null }

    /// Text, or `NULL` for `nil`.
    static func optionalText(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }

    /// The raw id of a typed identifier as text.
    static func id<Entity>(_ value: EntityID<Entity>) -> SQLiteValue { .text(value.rawValue) }

    /// A Swift `Int` as an integer.
    static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
}
