import ScenarioFormat
import Simulation

/// What the command line prints of a run: the same whether the run was one process or the merge of
/// its parts (``merged(_:)``), so `--jobs N` and `rental-twin merge` print what one run prints.
public struct RunSummary: Sendable, Equatable {
    /// The scenario's name.
    public let name: String
    /// Simulated seconds, start to end.
    public let simulatedSeconds: Double
    /// Timeline steps run (a city-wide step that several parts ran counts once).
    public let stepsRun: Int
    /// Expectations checked.
    public let expectationsChecked: Int
    /// Every failure, in the order they happened (``FailureOrder``).
    public let failures: [ScenarioFailure]
    /// The log's lines when it was kept.
    let logEntries: [LogEntry]?

    /// Whether every expectation held and every step behaved as expected.
    public var passed: Bool { failures.isEmpty }

    /// The log, one line each, in time order (nil when the parts did not keep it).
    public var log: [String]? { logEntries?.map(\.text) }

    /// The summary of one whole run (its log is written when asked for, from the result).
    public init(_ result: ScenarioResult) {
        name = result.scenario.name
        simulatedSeconds = result.simulatedSeconds
        stepsRun = result.stepsRun
        expectationsChecked = result.expectationsChecked
        failures = result.failures
        logEntries = nil
    }

    private init(name: String, simulatedSeconds: Double, stepsRun: Int, expectationsChecked: Int, failures: [ScenarioFailure],
                 logEntries: [LogEntry]?) {
        self.name = name
        self.simulatedSeconds = simulatedSeconds
        self.stepsRun = stepsRun
        self.expectationsChecked = expectationsChecked
        self.failures = failures
        self.logEntries = logEntries
    }

    /// The summary one run of the whole scenario gives, from its parts (checked by
    /// ``PartitionSet/check(_:)``, in part order): counts added (shared steps once), failures and log
    /// lines in the run's order, a shared step's failure and line once.
    public static func merged(_ parts: [PartitionSummary]) -> RunSummary {
        let first = parts[0]
        let records = PartitionSummary.mergedRecords(parts)
        return RunSummary(name: first.name, simulatedSeconds: Double(first.simulatedMilliseconds) / 1000, stepsRun: records.stepsRun,
                          expectationsChecked: parts.reduce(0) { $0 + $1.expectationsChecked }, failures: records.failures.map(\.failure),
                          logEntries: records.log)
    }
}
