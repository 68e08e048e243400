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
        var shared = Set<Int>()
        var steps = 0
        for part in parts {
            steps += part.stepsRun - part.sharedStepsRun.count
            shared.formUnion(part.sharedStepsRun)
        }
        var failures: [(FailureOrder, Int, ScenarioFailure)] = []
        var seenSharedFailures = Set<Int>()
        for (partIndex, part) in parts.enumerated() {
            for placed in part.failures {
                if placed.order.kind == 0, part.sharedStepsRun.contains(placed.order.index),
                   !seenSharedFailures.insert(placed.order.index).inserted { continue }
                failures.append((placed.order, partIndex, placed.failure))
            }
        }
        failures.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var log: [LogEntry]?
        if parts.allSatisfy({ $0.log != nil }) {
            var entries: [(LogEntry, Int)] = []
            var seenSharedSteps = Set<Int>()
            for (partIndex, part) in parts.enumerated() {
                for entry in part.log ?? [] {
                    if entry.kind == 0, part.sharedStepsRun.contains(entry.index), !seenSharedSteps.insert(entry.index).inserted { continue }
                    entries.append((entry, partIndex))
                }
            }
            log = entries.sorted { a, b in
                LogEntry.inOrder(a.0, b.0) || (!LogEntry.inOrder(b.0, a.0) && a.1 < b.1)
            }.map(\.0)
        }
        return RunSummary(name: first.name, simulatedSeconds: Double(first.simulatedMilliseconds) / 1000, stepsRun: steps + shared.count,
                          expectationsChecked: parts.reduce(0) { $0 + $1.expectationsChecked }, failures: failures.map(\.2), logEntries: log)
    }
}
