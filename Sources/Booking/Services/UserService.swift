import Foundation

/// Registers and looks up users (the original's UserController: create, get by id, get by external id, list).
public final class UserService: Sendable {
    /// Where users are stored.
    public let store: BookingStore
    /// Where "now" comes from.
    public let clock: BookingClock

    /// Creates the service over `store`.
    public init(store: BookingStore, clock: BookingClock) {
        self.store = store
        self.clock = clock
    }

    /// Registers a new user.
    /// - Returns: The stored user.
    /// - Throws: `user.invalid` for an empty id, name or external id; `user.duplicate` when the id or the
    ///   external id is already registered.
    public func register(_ user: User) async throws(BookingError) -> User {
        guard !user.id.rawValue.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw BookingError(.userInvalid, "A user named \"\(user.name)\" has an empty id; give every user a short id such as \"host\".")
        }
        guard !user.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw BookingError(.userInvalid, "User \"\(user.id)\" has an empty name; give the user a display name such as \"Hanna Host\".")
        }
        guard !user.externalID.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw BookingError(.userInvalid,
                               "User \"\(user.id)\" has an empty external id; pass the authentication provider's id (or the user id when there is no provider).")
        }
        return try store.write { database throws(BookingError) in
            guard try database.user(user.id) == nil else {
                throw BookingError(.userDuplicate, "A user with id \"\(user.id)\" is already registered; choose another id.")
            }
            if let holder = try database.user(externalID: user.externalID) {
                throw BookingError(.userDuplicate,
                                   "External id \"\(user.externalID)\" already belongs to user \"\(holder.id)\"; each user needs their own external id.")
            }
            try database.insert(user)
            return user
        }
    }

    /// The user with that id.
    /// - Throws: `user.notFound`.
    public func user(_ id: UserID) async throws(BookingError) -> User {
        try store.read { database throws(BookingError) in try database.requireUser(id) }
    }

    /// The user with that authentication-provider id (the original's `getUserByExternalId`).
    /// - Throws: `user.notFound`.
    public func user(externalID: String) async throws(BookingError) -> User {
        try store.read { database throws(BookingError) in
            guard let user = try database.user(externalID: externalID) else {
                throw BookingError(.userNotFound, "No user has the external id \"\(externalID)\"; register the user first or check the id.")
            }
            return user
        }
    }

    /// Every user, sorted by id.
    public func users() async throws(BookingError) -> [User] {
        try store.read { database throws(BookingError) in try database.users() }
    }
}
