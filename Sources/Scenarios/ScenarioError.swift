import Foundation

/// The one error type of the `Scenarios` module: a stable code, a sentence, and for invalid files
/// every problem found.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// Stable codes.
    public enum Code: String, Sendable {
        /// The file cannot be read (missing, not UTF-8).
        case unreadable = "scenario.unreadable"
        /// The file breaks the format; `issues` says where.
        case invalid = "scenario.invalid"
        /// The world could not be built or run (a bug or an environment problem, not a failed expectation).
        case runFailed = "scenario.runFailed"
        /// The run fired more kernel events than its caller allowed (``ScenarioRunner/run(_:timeseriesInterval:eventBudget:)``).
        case eventBudget = "scenario.eventBudget"
        /// Reports could not be written.
        case reportFailed = "scenario.reportFailed"
    }

    public let code: Code
    public let message: String
    /// The file concerned.
    public let file: String
    /// One entry per problem for `scenario.invalid`.
    public let issues: [ScenarioIssue]

    public init(_ code: Code, _ message: String, file: String, issues: [ScenarioIssue] = []) {
        self.code = code
        self.message = message
        self.file = file
        self.issues = issues
    }

    static func invalid(file: String, issues: [ScenarioIssue]) -> ScenarioError {
        ScenarioError(.invalid, "\(file) is not a valid scenario: \(issues.count) problem\(issues.count == 1 ? "" : "s").",
                      file: file, issues: issues)
    }

    /// The message, then one line per issue.
    public var description: String { ([message] + issues.map(\.description)).joined(separator: "\n") }
    public var errorDescription: String? { description }
}
