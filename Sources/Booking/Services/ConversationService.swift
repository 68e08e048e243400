import Foundation
import Simulation

/// The messages between a guest and a host that each booking opens (the original's
/// ConversationController and MessageController).
public final class ConversationService: Sendable {
    /// Where conversations and messages are stored.
    public let store: BookingStore
    /// Where "now" comes from (a message's `sentAt`).
    public let clock: BookingClock

    /// The longest message text, in characters (grapheme clusters).
    public static let maximumTextCharacters = 10_000

    /// Creates the service over `store`.
    public init(store: BookingStore, clock: BookingClock) {
        self.store = store
        self.clock = clock
    }

    /// The conversations `user` takes part in, newest message first, ties by id (the original's `getConversations`).
    /// - Throws: `user.notFound` for an unknown user.
    public func conversations(ofUser user: UserID) async throws(BookingError) -> [Conversation] {
        try store.read { database throws(BookingError) in
            _ = try database.requireUser(user)
            return try database.conversations(ofUser: user)
        }
    }

    /// The conversation with that id.
    /// - Throws: `conversation.notFound`.
    public func conversation(_ id: ConversationID) async throws(BookingError) -> Conversation {
        try store.read { database throws(BookingError) in
            guard let conversation = try database.conversation(id) else { throw .conversationNotFound(id) }
            return conversation
        }
    }

    /// The conversation the booking of `reservation` opened.
    /// - Throws: `reservation.notFound`; `conversation.notFound` if the reservation has none (a damaged store).
    public func conversation(forReservation reservation: ReservationID) async throws(BookingError) -> Conversation {
        try store.read { database throws(BookingError) in try Self.conversation(of: reservation, in: database) }
    }

    /// The messages of a conversation in sending order (the original's `getMessages`).
    /// - Throws: `conversation.notFound`.
    public func messages(in conversation: ConversationID) async throws(BookingError) -> [Message] {
        try store.read { database throws(BookingError) in
            guard try database.conversation(conversation) != nil else { throw .conversationNotFound(conversation) }
            return try database.messages(in: conversation)
        }
    }

    /// Writes `text` from `sender` into the conversation of `reservation`, sent now; the conversation's
    /// `lastMessageAt` moves to now.
    /// - Returns: The stored message (ids `msg-1`, `msg-2`, … in sending order).
    /// - Throws: `message.invalid` for a text that is empty, only white space, or over 10 000 characters;
    ///   `reservation.notFound`; `message.notParticipant` when `sender` is neither the guest nor the owner.
    public func send(from sender: UserID, reservation: ReservationID, text: String) async throws(BookingError) -> Message {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw BookingError(.messageInvalid,
                               "The message from \"\(sender)\" about reservation \"\(reservation)\" is empty; write some text.")
        }
        let characters = text.count
        guard characters <= Self.maximumTextCharacters else {
            throw BookingError(.messageInvalid,
                               "The message from \"\(sender)\" about reservation \"\(reservation)\" has \(characters) characters, more than the \(Self.maximumTextCharacters) allowed; shorten it or split it into several messages.")
        }
        let now = clock.now
        return try store.write { database throws(BookingError) -> Message in
            let conversation = try Self.conversation(of: reservation, in: database)
            guard conversation.participants.contains(sender) else {
                let names = conversation.participants.map { "\"\($0)\"" }.joined(separator: " and ")
                throw BookingError(.messageNotParticipant,
                                   "User \"\(sender)\" is not a participant of conversation \"\(conversation.id)\" of reservation \"\(reservation)\"; only \(names) may write in it.")
            }
            let id = MessageID(try database.generateID(sequence: "message", prefix: "msg-") {
                candidate throws(BookingError) in try database.messageExists(MessageID(candidate))
            })
            let message = Message(id: id, conversation: conversation.id, sender: sender, text: text, sentAt: now)
            try database.insert(message)
            return message
        }
    }

    /// The conversation of `reservation`, or the matching not-found error.
    private static func conversation(of reservation: ReservationID, in database: SQLiteDatabase)
        throws(BookingError) -> Conversation
    {
        _ = try database.requireReservation(reservation)
        guard let conversation = try database.conversation(forReservation: reservation) else {
            throw BookingError(.conversationNotFound,
                               "Reservation \"\(reservation)\" has no conversation, although every booking opens one; the database is damaged — restore it from a backup.")
        }
        return conversation
    }
}
