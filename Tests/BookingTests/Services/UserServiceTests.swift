import Testing
@testable import Booking

/// Registering and finding users.
@Suite struct UserServiceTests {
    @Test func registersAndFindsUsers() async throws {
        let world = try await ServicesTestWorld.make()
        let zoe = User(id: "zoe", externalID: "firebase-123", name: "Zoë", email: "zoe@example.org")
        #expect(try await world.services.users.register(zoe) == zoe)
        #expect(try await world.services.users.user("zoe") == zoe)
        #expect(try await world.services.users.user(externalID: "firebase-123") == zoe)
        #expect(try await world.services.users.users().map(\.id) == ["guest", "host", "other", "zoe"])
    }

    @Test(arguments: [
        User(id: "u1", externalID: "x1", name: ""),
        User(id: "u1", externalID: "x1", name: "  \n"),
        User(id: "", externalID: "x1", name: "Nobody"),
        User(id: "u1", externalID: "", name: "No Provider"),
    ])
    func invalidUsersAreRefused(user: User) async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.userInvalid) { () async throws(BookingError) in
            try await world.services.users.register(user)
        }
        #expect(error?.message.hasSuffix(".") == true)
    }

    @Test func duplicateIdIsRefused() async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.userDuplicate) { () async throws(BookingError) in
            try await world.services.users.register(User(id: "host", externalID: "new", name: "Second Host"))
        }
        #expect(error?.message == "A user with id \"host\" is already registered; choose another id.")
    }

    @Test func duplicateExternalIdIsRefused() async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.userDuplicate) { () async throws(BookingError) in
            try await world.services.users.register(User(id: "new", externalID: "ext-host", name: "Copycat"))
        }
        #expect(error?.message == "External id \"ext-host\" already belongs to user \"host\"; each user needs their own external id.")
    }

    @Test func unknownUsersAreNotFound() async throws {
        let world = try await ServicesTestWorld.make()
        let error = try await world.expectFailure(.userNotFound) { () async throws(BookingError) in
            try await world.services.users.user("ghost")
        }
        #expect(error?.message == "User \"ghost\" does not exist; register the user first or check the id.")
        try await world.expectFailure(.userNotFound) { () async throws(BookingError) in
            try await world.services.users.user(externalID: "ext-ghost")
        }
    }
}
