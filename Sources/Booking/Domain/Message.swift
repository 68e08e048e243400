import Simulation

/// One message in a conversation (1 … 10 000 characters).
public struct Message: Hashable, Sendable {
    public var id: MessageID
    public var conversation: ConversationID
    public var sender: UserID
    public var text: String
    public var sentAt: SimInstant

    public init(id: MessageID, conversation: ConversationID, sender: UserID, text: String, sentAt: SimInstant) {
        self.id = id
        self.conversation = conversation
        self.sender = sender
        self.text = text
        self.sentAt = sentAt
    }
}
