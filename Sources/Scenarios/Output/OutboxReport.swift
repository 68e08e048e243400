import Reports
import Rules
import ScenarioFormat
import Simulation

/// `outbox.csv`: what the rules' actions sent, one row per message in the order sent — the local time, the
/// rule, the kind, the action, the recipient and the text (RULES.md's outbox). Written by `--report` when
/// the scenario has rules.
enum OutboxReport {
    static let fileName = "outbox.csv"
    static let header = ["time", "rule", "kind", "action", "recipient", "text"]

    static func csv(_ messages: [OutboxMessage], dropped: Int, calendar: LocalCalendar) -> String {
        var writer = CSVWriter(header: header)
        for m in messages {
            writer.appendRow(["\(calendar.localDateTime(at: m.instant))", m.rule, m.channel.rawValue, m.actionName, m.recipient, m.text])
        }
        if dropped > 0 {
            // The outbox keeps ActionOutbox's capacity; a row says how many more were sent, so the file is not taken as complete.
            writer.appendRow(["", "", "", "", "", "… and \(dropped) more message(s) the outbox did not keep (rules.outboxFull)"])
        }
        return writer.takeText()
    }
}
