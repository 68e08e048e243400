import Booking
import Reports
import Rules
import Simulation

/// What running one scenario produced: failures (empty = passed), figures, and everything the
/// reports need.
public struct ScenarioResult: Sendable {
    /// The scenario that ran.
    public let scenario: Scenario
    /// Every failed expectation or step, in the order they happened.
    public let failures: [ScenarioFailure]
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

    /// One log in time order: at one instant steps first, then the automations' actions with their
    /// reasons, then rule runs, each in the order it was recorded; times in local time.
    var lines: [String] {
        let automationLines = automations.map { entry in
            (entry.at, "\(calendar.localDateTime(at: entry.at))  \(entry.automation) \(entry.listing): \(entry.action) — \(entry.reason)")
        }
        let ruleLines = rules.map { run in (run.at, "\(calendar.localDateTime(at: run.at))  \(run.logText)") }
        let stepLines = steps.map { record in (record.at, record.line(of: timeline[Int(record.step)], calendar: calendar)) }
        return (stepLines.enumerated().map { ($0.element.0, 0, $0.offset, $0.element.1) }
                + automationLines.enumerated().map { ($0.element.0, 1, $0.offset, $0.element.1) }
                + ruleLines.enumerated().map { ($0.element.0, 2, $0.offset, $0.element.1) })
            .sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.map(\.3)
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
