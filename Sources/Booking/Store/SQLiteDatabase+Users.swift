/// Data access for users.
extension SQLiteDatabase {
    /// The columns a `User` is read from, in the order ``decodeUser(_:)`` expects.
    private static let userColumns = "id, external_id, name, email"

    /// The user with that id, or `nil`.
    func user(_ id: UserID) throws(BookingError) -> User? {
        try queryFirst("SELECT \(Self.userColumns) FROM users WHERE id = ?", .id(id), row: Self.decodeUser)
    }

    /// The user with that id, or `user.notFound`.
    func requireUser(_ id: UserID) throws(BookingError) -> User {
        guard let user = try user(id) else { throw .userNotFound(id) }
        return user
    }

    /// The user with that authentication-provider id, or `nil`.
    func user(externalID: String) throws(BookingError) -> User? {
        try queryFirst("SELECT \(Self.userColumns) FROM users WHERE external_id = ?", .text(externalID),
                       row: Self.decodeUser)
    }

    /// Every user, sorted by id.
    func users() throws(BookingError) -> [User] {
        try query("SELECT \(Self.userColumns) FROM users ORDER BY id", row: Self.decodeUser)
    }

    /// Stores a new user (the caller has checked that id and external id are free).
    func insert(_ user: User) throws(BookingError) {
        try execute("INSERT INTO users (id, external_id, name, email) VALUES (?, ?, ?, ?)",
                    .id(user.id), .text(user.externalID), .text(user.name), .text(user.email))
    }

    /// Reads a `User` from a row of ``userColumns``.
    private static func decodeUser(_ row: Statement) throws(BookingError) -> User {
        User(id: UserID(try row.string(0)), externalID: try row.string(1), name: try row.string(2),
             email: try row.string(3))
    }
}
