import ScenarioFormat
/// One reason a scenario did not pass: a failed expectation or step, with where it is in the file,
/// when (local time) it happened, and what was expected against what was found.
public struct ScenarioFailure: Sendable, Equatable, CustomStringConvertible {
    /// `expect[2]` or `timeline[5]`.
    public let path: String
    /// The line in the file.
    public let line: Int?
    /// Local date-time of the check or step.
    public let at: String
    /// What was expected.
    public let expected: String
    /// What was found.
    public let actual: String

    public init(path: String, line: Int?, at: String, expected: String, actual: String) {
        self.path = path
        self.line = line
        self.at = at
        self.expected = expected
        self.actual = actual
    }

    /// `line 12, expect[2] at 2026-01-09T16:00: expected …, actual …` (control characters escaped).
    public var description: String {
        let place = line.map { "line \($0), \(path)" } ?? path
        return TerminalText.escaped("\(place) at \(at): expected \(expected); actual \(actual)")
    }
}
