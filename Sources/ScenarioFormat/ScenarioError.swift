import Foundation
import Simulation

/// The one error type of the scenario targets (`ScenarioFormat`, `Twin`, `Scenarios`): a stable code, a sentence, and for invalid files
/// every problem found.
public struct ScenarioError: CodedError, Equatable {
    /// Stable codes.
    public enum Code: String, Sendable {
        /// The file cannot be read (missing, not UTF-8).
        case unreadable = "scenario.unreadable"
        /// The file breaks the format; `issues` says where.
        case invalid = "scenario.invalid"
        /// The world could not be built or run (a bug or an environment problem, not a failed expectation).
        case runFailed = "scenario.runFailed"
        /// The run fired more kernel events than its caller allowed (`World.Options.eventBudget`).
        case eventBudget = "scenario.eventBudget"
        /// Reports could not be built (a value they cannot show, such as a non-finite number).
        case reportFailed = "scenario.reportFailed"
        /// An output file (report, JUnit) could not be written; nothing of the set was written.
        case writeFailed = "scenario.writeFailed"
        /// The run was cancelled (Ctrl-C) before its end; it has no result and nothing was written.
        case cancelled = "scenario.cancelled"
        /// The scenario needs a tool this machine lacks (Node.js for JavaScript rules); nothing ran (exit 69).
        case unavailable = "scenario.unavailable"
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// What went wrong and where, in one sentence.
    let rawMessage: String
    /// The file concerned.
    public let file: String
    /// One entry per problem for `scenario.invalid`.
    public let issues: [ScenarioIssue]

    /// Creates an error about `file`, with one issue per problem for `scenario.invalid`.
    public init(_ code: Code, _ message: String, file: String, issues: [ScenarioIssue] = []) {
        self.code = code
        self.rawMessage = message
        self.file = file
        self.issues = issues
    }

    static func invalid(file: String, issues: [ScenarioIssue]) -> ScenarioError {
        ScenarioError(.invalid, "\(file) is not a valid scenario: \(issues.count) problem\(issues.count == 1 ? "" : "s").",
                      file: file, issues: issues)
    }

    /// Control characters from the file escaped (`\u{1B}`), so a file cannot drive the terminal.
    public var message: String { TerminalText.escaped(rawMessage) }
    /// One line per issue, after the message in ``explanation``.
    public var details: [String] { issues.map(\.description) }
}
