import Simulation
import Testing
@testable import Booking

/// The conversation each booking opens, its automatic first message, and who may write what.
@Suite struct ConversationServiceTests {
    @Test func bookingOpensAConversationWithTheAutomaticFirstMessage() async throws {
        let world = try await ServicesTestWorld.make()
        let bookedAt = ServicesTestClock.utc("2026-01-02", 9)
        world.clock.set(bookedAt)
        try await world.book("r1", "2026-01-09", "2026-01-11", guests: 2)
        let conversation = try await world.services.conversations.conversation(forReservation: "r1")
        #expect(conversation == Conversation(id: "conv-1", participants: ["guest", "host"], reservation: "r1",
                                             lastMessageAt: bookedAt))
        #expect(try await world.services.conversations.conversation("conv-1") == conversation)
        #expect(try await world.services.conversations.messages(in: "conv-1") == [
            Message(id: "msg-1", conversation: "conv-1", sender: "guest",
                    text: "Hi! I booked Danube view flat for 2026-01-09 → 2026-01-11, 2 guest(s).", sentAt: bookedAt),
        ])
        #expect(try await world.services.conversations.conversations(ofUser: "host") == [conversation])
        #expect(try await world.services.conversations.conversations(ofUser: "guest") == [conversation])
        #expect(try await world.services.conversations.conversations(ofUser: "other") == [])
    }

    @Test func participantsWriteInSendingOrderAndMoveLastMessageAt() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        world.clock.set(ServicesTestClock.utc("2026-01-03", 10))
        let reply = try await world.services.conversations.send(from: "host", reservation: "r1", text: "Welcome! Keys are in the box.")
        world.clock.set(ServicesTestClock.utc("2026-01-03", 10))  // same instant: order still follows sending
        let thanks = try await world.services.conversations.send(from: "guest", reservation: "r1", text: "Thanks!")
        #expect(reply.id == "msg-2")
        #expect(thanks.id == "msg-3")
        #expect(try await world.services.conversations.messages(in: "conv-1").map(\.text) == [
            "Hi! I booked Danube view flat for 2026-01-09 → 2026-01-11, 2 guest(s).", "Welcome! Keys are in the box.", "Thanks!",
        ])
        #expect(try await world.services.conversations.conversation("conv-1").lastMessageAt == ServicesTestClock.utc("2026-01-03", 10))
    }

    @Test func conversationsOfAUserAreNewestFirst() async throws {
        let world = try await ServicesTestWorld.make()
        world.clock.set(ServicesTestClock.utc("2026-01-02", 0))
        try await world.book("r1", "2026-01-09", "2026-01-11")
        world.clock.set(ServicesTestClock.utc("2026-01-03", 0))
        try await world.book("r2", guest: "other", "2026-01-11", "2026-01-12")
        world.clock.set(ServicesTestClock.utc("2026-01-03", 0))
        try await world.book("r3", "2026-01-12", "2026-01-13")
        #expect(try await world.services.conversations.conversations(ofUser: "host").map(\.id) == ["conv-2", "conv-3", "conv-1"])
        world.clock.set(ServicesTestClock.utc("2026-01-04", 0))
        _ = try await world.services.conversations.send(from: "guest", reservation: "r1", text: "Can I arrive early?")
        #expect(try await world.services.conversations.conversations(ofUser: "host").map(\.id) == ["conv-1", "conv-2", "conv-3"])
        #expect(try await world.services.conversations.conversations(ofUser: "guest").map(\.id) == ["conv-1", "conv-3"])
    }

    @Test func nonParticipantsCannotWrite() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        for sender: UserID in ["other", "ghost"] {
            let error = try await world.expectFailure(.messageNotParticipant) { () async throws(BookingError) in
                try await world.services.conversations.send(from: sender, reservation: "r1", text: "Hello?")
            }
            #expect(error?.message == "User \"\(sender)\" is not a participant of conversation \"conv-1\" of reservation \"r1\"; only \"guest\" and \"host\" may write in it.")
        }
    }

    @Test(arguments: ["", "   ", "\n\t", String(repeating: "a", count: 10_001), String(repeating: "🏠", count: 10_001)])
    func invalidTextsAreRefused(text: String) async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        let error = try await world.expectFailure(.messageInvalid) { () async throws(BookingError) in
            try await world.services.conversations.send(from: "guest", reservation: "r1", text: text)
        }
        #expect(error?.message.hasSuffix(".") == true)
        if text.count > 10_000 {
            #expect(error?.message == "The message from \"guest\" about reservation \"r1\" has 10001 characters, more than the 10000 allowed; shorten it or split it into several messages.")
        }
    }

    @Test func textOfExactlyTenThousandCharactersIsFine() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        let text = String(repeating: "é", count: 10_000)
        let message = try await world.services.conversations.send(from: "host", reservation: "r1", text: text)
        #expect(try await world.services.conversations.messages(in: "conv-1").last == message)
        #expect(message.text == text)
    }

    @Test func unknownIdsAreReported() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        try await world.expectFailure(.reservationNotFound) { () async throws(BookingError) in
            try await world.services.conversations.send(from: "guest", reservation: "r9", text: "Hello")
        }
        try await world.expectFailure(.reservationNotFound) { () async throws(BookingError) in
            try await world.services.conversations.conversation(forReservation: "r9")
        }
        let missing = try await world.expectFailure(.conversationNotFound) { () async throws(BookingError) in
            try await world.services.conversations.messages(in: "conv-9")
        }
        #expect(missing?.message.contains("\"conv-9\"") == true)
        try await world.expectFailure(.conversationNotFound) { () async throws(BookingError) in
            try await world.services.conversations.conversation("conv-9")
        }
        try await world.expectFailure(.userNotFound) { () async throws(BookingError) in
            try await world.services.conversations.conversations(ofUser: "ghost")
        }
    }

    @Test func cancelledStaysKeepTheirConversation() async throws {
        let world = try await ServicesTestWorld.make()
        try await world.book("r1", "2026-01-09", "2026-01-11")
        _ = try await world.services.reservations.cancel("r1")
        let message = try await world.services.conversations.send(from: "host", reservation: "r1", text: "Sorry to see you go.")
        #expect(message.conversation == "conv-1")
    }
}
