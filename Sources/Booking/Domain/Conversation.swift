import Simulation

/// The thread between a guest and a host that a booking opens.
public struct Conversation: Hashable, Sendable {
    public var id: ConversationID
    /// The guest and the listing's owner, sorted by id.
    public var participants: [UserID]
    public var reservation: ReservationID
    /// When the newest message was sent.
    public var lastMessageAt: SimInstant

    public init(id: ConversationID, participants: [UserID], reservation: ReservationID, lastMessageAt: SimInstant) {
        self.id = id
        self.participants = participants
        self.reservation = reservation
        self.lastMessageAt = lastMessageAt
    }
}
