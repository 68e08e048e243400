/// One thing a rule run did, kept as its parts: the run log's text (``text``) is made only when it is read,
/// and most runs of a frequent rule are only counted, never shown.
enum RuleEffect: Sendable, Hashable {
    /// A command sent to an Item: `Item ← command`.
    case command(item: String, String)
    /// A state update posted to an Item: `Item := state`.
    case update(item: String, String)
    /// Any other line, as written (log lines, outbox messages, errors).
    case line(String)

    /// The line the run log shows.
    var text: String {
        switch self {
        case .command(let item, let command): "\(item) ← \(command)"
        case .update(let item, let state): "\(item) := \(state)"
        case .line(let text): text
        }
    }

    /// Whether it reports an error (`error: …`).
    var isError: Bool {
        if case .line(let text) = self { text.hasPrefix("error: ") } else { false }
    }
}
