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

/// A run's effects in order, the first kept inline: most runs do one thing (one update), and an array of one
/// would be a heap block per run.
struct RuleEffects: Sendable, Hashable {
    private var first: RuleEffect?
    private var rest: [RuleEffect] = []

    /// No effects.
    init() {}

    /// `effects`, in order.
    init(_ effects: some Collection<RuleEffect>) {
        first = effects.first
        rest = Array(effects.dropFirst())
    }

    var isEmpty: Bool { first == nil }
    var count: Int { first == nil ? 0 : 1 + rest.count }

    mutating func append(_ effect: RuleEffect) {
        if first == nil { first = effect } else { rest.append(effect) }
    }

    /// Every effect, in order.
    var all: [RuleEffect] { first.map { [$0] + rest } ?? [] }

    /// Whether one reports an error.
    var containsError: Bool { first?.isError == true || rest.contains(where: \.isError) }
}
