import Booking
import Reports
import Rules
import ScenarioFormat
import Simulation
import Twin

/// What running one scenario produced: failures (empty = passed), figures, and everything the
/// reports need.
public struct ScenarioResult: Sendable {
    /// The scenario that ran.
    public let scenario: Scenario
    /// Every failed expectation or step, in the order they happened.
    public let failures: [ScenarioFailure]
    /// Where each of ``failures`` happened (indices into this result's scenario), for merging parts.
    let failureOrder: [FailureOrder]
    /// Timeline steps executed.
    public let stepsRun: Int
    /// Expectations checked.
    public let expectationsChecked: Int
    /// Events the kernel processed.
    public let kernelEvents: Int
    /// Events published on the openHAB event bus.
    public let busEvents: Int
    /// Events the listener of ``World/Options/observesEveryBusEvent`` received (`nil` without one).
    public let observedBusEvents: Int?
    /// The exact meter snapshots and power transitions of the run.
    public let ledger: EnergyLedger
    /// What a run with reports gathered for them while it ran (`nil` without a timeseries interval).
    public let reports: RecordedReports?
    /// Every reservation at the end, for `stays.csv`.
    public let stays: [StayRecord]
    /// The steps', automations' and rules' records the log is written from.
    let runLog: RunLog
    /// What the rules' actions sent, in order, and how many more the outbox did not keep (`outbox.csv`).
    public internal(set) var outbox: [OutboxMessage] = []
    public internal(set) var outboxDropped = 0
    /// Runs of the scenario's rules (every one, also those the log does not list).
    public internal(set) var ruleRuns = 0
    /// The coverage of the scenario's rule files (`--coverage`; `nil` when not counted).
    public internal(set) var ruleCoverage: [RuleFileCoverage]?
    /// The rule runs the engine kept for the log (each rule's first 5,000), for the report page.
    public var ruleRunRecords: [RuleRun] { runLog.rules }
    /// The automations' actions with their reasons, for the report page.
    public var automationEntries: [AutomationLogEntry] { runLog.automations }
    /// The timeline steps as they ran: when, the step's index in the timeline, how it ended (`nil` when it
    /// behaved as expected, else what the log says) and what the devices made of it.
    public var stepRecords: [(at: SimInstant, step: Int, failed: String?, note: String?)] {
        runLog.steps.map { record in
            let outcome: String?
            switch record.result {
            case .done: outcome = nil
            case .failed(let code): outcome = "failed: \(code)"
            case .succeeded: outcome = "succeeded, though an error was expected"
            case .refused(let code): outcome = "refused as expected: \(code)"
            }
            return (record.at, Int(record.step), outcome, record.note)
        }
    }

    /// Automation and step log, one line each, in time order. Written when asked (a portfolio year has
    /// millions of lines, and most runs never print them).
    public var log: [String] { runLog.lines }

    /// Whether every expectation held and every step behaved as expected.
    public var passed: Bool { failures.isEmpty }
}

/// What a run's log is written from: the steps as they ran, the automations' entries and the rules'
/// logged runs, each in time order, with the timeline and the scenario's calendar for local times.
struct RunLog: Sendable {
    let steps: [StepRecord]
    let timeline: [Step]
    let automations: [AutomationLogEntry]
    let rules: [RuleRun]
    let calendar: LocalCalendar

    /// One log in time order: at one instant steps first (in file order), then the automations' actions
    /// with their reasons (by listing, each listing's in the order recorded), then rule runs in the order
    /// recorded; times in local time. The order depends on no listing's neighbours, so the log of a
    /// portfolio run in parts merges into the log of one run (``LogEntry``).
    var lines: [String] { entries.map(\.text) }

    /// The log's lines with their places, in log order.
    var entries: [LogEntry] {
        let stepLines = steps.map { record in
            LogEntry(at: record.at, kind: 0, listing: "", index: Int(record.step), text: record.line(of: timeline[Int(record.step)], calendar: calendar))
        }
        let automationLines = automations.enumerated().map { offset, entry in
            LogEntry(at: entry.at, kind: 1, listing: entry.listing.rawValue, index: offset,
                     text: "\(calendar.localDateTime(at: entry.at))  \(entry.automation) \(entry.listing): \(entry.action) — \(entry.reason)")
        }
        let ruleLines = rules.enumerated().map { offset, run in
            LogEntry(at: run.at, kind: 2, listing: "", index: offset, text: "\(calendar.localDateTime(at: run.at))  \(run.logText)")
        }
        return (stepLines + automationLines + ruleLines).sorted(by: LogEntry.inOrder)
    }
}

/// One line of a run's log and its place: the instant, what wrote it (0 a step, 1 an automation, 2 a
/// rule), the listing of an automation's line, and the step's index in the timeline (else the line's
/// position among its kind's records).
struct LogEntry: Sendable, Equatable {
    let at: SimInstant
    let kind: Int
    let listing: String
    var index: Int
    let text: String

    /// The log's order: instant, kind, listing, index.
    static func inOrder(_ a: LogEntry, _ b: LogEntry) -> Bool {
        if a.at != b.at { return a.at < b.at }
        if a.kind != b.kind { return a.kind < b.kind }
        if a.listing != b.listing { return a.listing < b.listing }
        return a.index < b.index
    }
}

/// One timeline step as it ran: what the log says of it, kept as values rather than a line.
struct StepRecord: Sendable {
    /// How it ended, as far as the log says.
    enum Result: Sendable {
        /// It succeeded, as expected.
        case done
        /// It failed with this code, though it should have succeeded.
        case failed(String)
        /// It succeeded, though it should have failed.
        case succeeded
        /// It failed with this code, as expected (or with another code: a failure of its own).
        case refused(String)
    }

    let at: SimInstant
    /// Its index in the scenario's timeline.
    let step: Int32
    let result: Result
    /// What the devices made of it (a clamped setpoint …).
    let note: String?

    /// `2026-01-09T18:00  command flat-1/plug/switch ON (timeline[3])`, with the note and how it ended.
    func line(of step: Step, calendar: LocalCalendar) -> String {
        let what = "\(calendar.localDateTime(at: at))  \(step.action.summary) (\(step.path))" + (note.map { ": \($0)" } ?? "")
        switch result {
        case .done: return what
        case .failed(let code): return "\(what) failed: \(code)"
        case .succeeded: return "\(what) succeeded"
        case .refused(let code): return "\(what) refused as expected: \(code)"
        }
    }
}
