import Rules
import Simulation

/// An outbox expectation: `{"notification": {"contains": "door left open", "recipient": "host@example.com"},
/// "from": …, "to": …, "count": 1}` (the same shape for `mail`, `telegram`, `pushover`, `say`, `sound`,
/// `exec`, `http`, and `action` — any binding's Thing action, matched also on `scope`, `method` and `arguments`).
/// Without `count` or `atLeast`, at least one message must match.
public struct OutboxExpectation: Sendable {
    public var channel: OutboxMessage.Channel
    /// The text contains this.
    public var contains: String?
    /// The text is exactly this.
    public var text: String?
    /// Sent to exactly this recipient.
    public var recipient: String?
    /// Sent by this rule (UID or name).
    public var rule: String?
    /// A Thing action's `getActions` scope (`mqtt`).
    public var scope: String?
    /// The action's method, exactly (`publishMQTT`, `sendMail`).
    public var method: String?
    /// A Thing action's arguments, exactly, as the rule printed them.
    public var arguments: [String]?
    public var from: SimInstant?
    public var to: SimInstant?
    /// Exactly this many.
    public var count: Int?
    /// At least this many (1 when neither is given).
    public var atLeast: Int?

    /// What the expectation says, for a failure: `notification containing "door" to host`.
    public var summary: String {
        var parts = [channel.rawValue]
        if let contains { parts.append("containing \"\(contains)\"") }
        if let text { parts.append("\"\(text)\"") }
        if let recipient { parts.append("to \(recipient)") }
        if let rule { parts.append("from rule \"\(rule)\"") }
        if let scope { parts.append("of scope \(scope)") }
        if let method { parts.append("by \(method)") }
        if let arguments { parts.append("with arguments [" + arguments.map { "\"\($0)\"" }.joined(separator: ", ") + "]") }
        return parts.joined(separator: " ")
    }
}
