import ScenarioFormat
import Scenarios
import Twin

/// The body of `GET /twin/result`: the verdict so far, failures, and what is still pending.
public struct TwinResultDTO: Codable, Sendable, Equatable {
    /// One failed expectation or step.
    public struct Failure: Codable, Sendable, Equatable {
        /// JSON path in the scenario file.
        public var path: String
        /// Line in the file.
        public var line: Int?
        /// Local time of the check.
        public var at: String
        /// What was expected.
        public var expected: String
        /// What was found.
        public var actual: String
    }

    /// One expectation not checked yet.
    public struct Pending: Codable, Sendable, Equatable {
        /// JSON path in the scenario file.
        public var path: String
        /// Line in the file.
        public var line: Int
        /// Local time it will be checked (the scenario's end for end checks).
        public var at: String
    }

    /// The scenario's name.
    public var scenario: String
    /// `pass`, `fail` (final) or `pending`.
    public var verdict: String
    /// Virtual local time of the look.
    public var at: String
    /// Whether the scenario's end has passed.
    public var endReached: Bool
    /// Timeline steps run.
    public var stepsRun: Int
    /// Expectations checked.
    public var expectationsChecked: Int
    /// Failures so far, in the order they happened.
    public var failures: [Failure]
    /// Expectations still to check.
    public var pending: [Pending]

    /// The DTO of a live result.
    public init(_ live: LiveScenarioResult) {
        let result = live.result
        let calendar = result.scenario.calendar
        scenario = result.scenario.name
        verdict = live.verdict
        at = calendar.localDateTime(at: live.now).description
        endReached = live.endReached
        stepsRun = result.stepsRun
        expectationsChecked = result.expectationsChecked
        failures = result.failures.map { Failure(path: $0.path, line: $0.line, at: $0.at, expected: $0.expected, actual: $0.actual) }
        pending = live.pending.map {
            Pending(path: $0.path, line: $0.line, at: calendar.localDateTime(at: $0.at ?? result.scenario.end).description)
        }
    }
}
