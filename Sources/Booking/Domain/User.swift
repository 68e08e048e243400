/// A person who lists flats, books them, or both.
public struct User: Hashable, Sendable, Codable {
    /// The id (scenario files use short ids such as `"host"`).
    public var id: UserID
    /// The id at the authentication provider; unique across users.
    public var externalID: String
    /// Display name; not empty.
    public var name: String
    /// Contact address; may be empty.
    public var email: String

    /// Creates a user value (validation happens in the user service).
    public init(id: UserID, externalID: String, name: String, email: String = "") {
        self.id = id
        self.externalID = externalID
        self.name = name
        self.email = email
    }
}
