import Simulation

/// The one error type of the `JavaScript` module: a stable code, a sentence for people and a hint.
///
/// Scenario runs show these in the run log (`error: rules.jsRuntime: …`) or as the reason a run ended.
public struct JavaScriptError: CodedError, Equatable {
    /// Stable, machine-readable codes.
    public enum Code: String, Sendable, CaseIterable {
        /// No usable `node` (none on `PATH` or at `RENTAL_TWIN_NODE`, or older than Node 18).
        case nodeMissing = "rules.jsNodeMissing"
        /// A script file does not parse (located: file:line:column).
        case syntax = "rules.jsSyntax"
        /// A script threw while it loaded or ran (located by its stack: file:line:column).
        case runtime = "rules.jsRuntime"
        /// A script used an openhab-js member, Java class or trigger the twin does not run.
        case unsupported = "rules.jsUnsupported"
        /// `require` resolved to nothing, or to a file outside the scenario's folder.
        case require = "rules.jsRequire"
        /// A persistence query names an Item the scenario's `persistence` does not record.
        case notPersisted = "rules.jsNotPersisted"
        /// A run took longer than its wall-clock budget (a loop that never ends); it was ended.
        case budget = "rules.jsBudget"
        /// The Node.js child died, its pipe broke, or it answered with a malformed message.
        case child = "rules.jsChild"
        /// The child answered a request it was not sent (a bug of the runtime).
        case protocolError = "rules.jsProtocol"
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// What went wrong and where — one full sentence.
    public let message: String
    /// What to do about it, or `nil` when the message already says.
    public let hint: String?
    /// `file:line:column` (or `file`) where it happened, when known.
    public let location: String?

    /// Creates an error with a code, a full-sentence message, an optional location and hint.
    public init(_ code: Code, _ message: String, location: String? = nil, hint: String? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.hint = hint
    }
}
