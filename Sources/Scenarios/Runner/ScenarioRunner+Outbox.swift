import Rules
import ScenarioFormat
import Twin

extension ScenarioRunner {
    /// An outbox expectation: the messages of its kind matching its filters, in its window; a failure names
    /// what was sent of that kind (the first three) so a wrong text or recipient shows.
    static func checkOutbox(_ e: Expectation, _ o: OutboxExpectation, world: World, at: String) -> ScenarioFailure? {
        let count = world.outboxCount(o.channel, contains: o.contains, text: o.text, recipient: o.recipient, rule: o.rule,
                                      from: o.from, to: o.to, scope: o.scope, method: o.method, arguments: o.arguments)
        let calendar = world.scenario.calendar
        let window = (o.from.map { " from \(calendar.localDateTime(at: $0))" } ?? "") + (o.to.map { " to \(calendar.localDateTime(at: $0))" } ?? "")
        let wanted: String
        let holds: Bool
        if let exact = o.count {
            wanted = "\(exact)"
            holds = count == exact
        } else {
            let least = o.atLeast ?? 1
            wanted = "at least \(least)"
            holds = count >= least
        }
        guard !holds else { return nil }
        let sent = world.outbox.filter { $0.channel == o.channel }
        let shown = sent.prefix(3).map { "\(calendar.localDateTime(at: $0.instant))\($0.channel == .action ? " " + $0.actionName : "") to \($0.recipient): \"\($0.text)\"" }
        let actual = "\(count) matching; \(sent.count) \(o.channel.rawValue)(s) sent" + (shown.isEmpty ? "" : " (" + shown.joined(separator: "; ") + (sent.count > 3 ? "; …" : "") + ")")
        return ScenarioFailure(path: e.path, line: e.line, at: at, expected: "\(wanted) \(o.summary)\(window)", actual: actual)
    }
}
