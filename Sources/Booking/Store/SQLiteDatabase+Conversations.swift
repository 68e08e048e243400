import Simulation

/// Data access for conversations, their participants and their messages.
extension SQLiteDatabase {
    /// The conversation with that id, or `nil`.
    func conversation(_ id: ConversationID) throws(BookingError) -> Conversation? {
        guard let row = try queryFirst(
            "SELECT id, reservation_id, last_message_at_ms FROM conversations WHERE id = ?", .id(id),
            row: Self.decodeConversationRow)
        else { return nil }
        return try conversation(from: row)
    }

    /// The conversation a reservation opened, or `nil`.
    func conversation(forReservation reservation: ReservationID) throws(BookingError) -> Conversation? {
        guard let row = try queryFirst(
            "SELECT id, reservation_id, last_message_at_ms FROM conversations WHERE reservation_id = ?",
            .id(reservation), row: Self.decodeConversationRow)
        else { return nil }
        return try conversation(from: row)
    }

    /// The conversations `user` takes part in, newest message first, ties by id.
    func conversations(ofUser user: UserID) throws(BookingError) -> [Conversation] {
        let rows = try query(
            """
            SELECT c.id, c.reservation_id, c.last_message_at_ms
            FROM conversations AS c JOIN conversation_participants AS p ON p.conversation_id = c.id
            WHERE p.user_id = ? ORDER BY c.last_message_at_ms DESC, c.id
            """,
            .id(user), row: Self.decodeConversationRow)
        var result: [Conversation] = []
        for row in rows { result.append(try conversation(from: row)) }
        return result
    }

    /// Stores a new conversation and its participants.
    func insert(_ conversation: Conversation) throws(BookingError) {
        try execute("INSERT INTO conversations (id, reservation_id, last_message_at_ms) VALUES (?, ?, ?)",
                    .id(conversation.id), .id(conversation.reservation),
                    .integer(conversation.lastMessageAt.unixMilliseconds))
        for participant in Set(conversation.participants).sorted() {
            try execute("INSERT INTO conversation_participants (conversation_id, user_id) VALUES (?, ?)",
                        .id(conversation.id), .id(participant))
        }
    }

    /// The messages of a conversation in sending order.
    func messages(in conversation: ConversationID) throws(BookingError) -> [Message] {
        try query(
            """
            SELECT id, conversation_id, sender_id, text, sent_at_ms FROM messages
            WHERE conversation_id = ? ORDER BY sequence
            """,
            .id(conversation)
        ) { row throws(BookingError) in
            Message(id: MessageID(try row.string(0)), conversation: ConversationID(try row.string(1)),
                    sender: UserID(try row.string(2)), text: try row.string(3),
                    sentAt: SimInstant(unixMilliseconds: try row.int64(4)))
        }
    }

    /// Whether a message with that id exists.
    func messageExists(_ id: MessageID) throws(BookingError) -> Bool {
        try exists("SELECT 1 FROM messages WHERE id = ?", .id(id))
    }

    /// Stores a message and moves its conversation's `lastMessageAt` to the message's `sentAt`.
    func insert(_ message: Message) throws(BookingError) {
        try execute("INSERT INTO messages (id, conversation_id, sender_id, text, sent_at_ms) VALUES (?, ?, ?, ?, ?)",
                    .id(message.id), .id(message.conversation), .id(message.sender), .text(message.text),
                    .integer(message.sentAt.unixMilliseconds))
        try execute("UPDATE conversations SET last_message_at_ms = ? WHERE id = ?",
                    .integer(message.sentAt.unixMilliseconds), .id(message.conversation))
    }

    /// A conversation row before its participants are read.
    private struct ConversationRow {
        var id: ConversationID
        var reservation: ReservationID
        var lastMessageAt: SimInstant
    }

    /// Reads the `id, reservation_id, last_message_at_ms` columns.
    private static func decodeConversationRow(_ row: Statement) throws(BookingError) -> ConversationRow {
        ConversationRow(id: ConversationID(try row.string(0)), reservation: ReservationID(try row.string(1)),
                        lastMessageAt: SimInstant(unixMilliseconds: try row.int64(2)))
    }

    /// Completes a conversation row with its participants, sorted by id.
    private func conversation(from row: ConversationRow) throws(BookingError) -> Conversation {
        let participants = try query(
            "SELECT user_id FROM conversation_participants WHERE conversation_id = ? ORDER BY user_id", .id(row.id)
        ) { participant throws(BookingError) in UserID(try participant.string(0)) }
        return Conversation(id: row.id, participants: participants, reservation: row.reservation,
                            lastMessageAt: row.lastMessageAt)
    }
}
