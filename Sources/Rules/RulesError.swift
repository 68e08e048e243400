import Foundation
import Simulation

/// The one error type of the `Rules` module: a stable code, a sentence for people and a hint.
///
/// Scenario `expectError` fields match on ``code``; people read ``message`` (what went wrong
/// and where) and ``hint`` (what to do about it).
public struct RulesError: CodedError, Equatable {
    /// Stable, machine-readable codes.
    public enum Code: String, Sendable, CaseIterable {
        /// A cron expression has a token openHAB cannot read (not a number, an unknown name, a stray character).
        case cronInvalid = "rules.cronInvalid"
        /// A cron expression does not have 6 or 7 fields.
        case cronFieldCount = "rules.cronFieldCount"
        /// A value in a cron field is outside that field's range (hours 0–23, …).
        case cronOutOfRange = "rules.cronOutOfRange"
        /// A cron expression parses but no date or time can ever match it (`0 0 0 31 2 ?`).
        case cronNeverFires = "rules.cronNeverFires"
        /// A cron expression starts with `@` but is not one of openHAB's preset words.
        case cronUnknownPreset = "rules.cronUnknownPreset"
        /// A `TimeOfDayTrigger` time is not `hh:mm`.
        case timeOfDayInvalid = "rules.timeOfDayInvalid"
        /// Two loaded rules have the same UID.
        case duplicateUID = "rules.duplicateUID"
        /// A step, action or request names a rule that is not loaded.
        case unknownRule = "rules.unknownRule"
        /// A rule file is not valid: a module type, a configuration key or value the twin cannot run.
        case invalidRule = "rules.invalidRule"
        /// A rule names an Item that does not exist.
        case unknownItem = "rules.unknownItem"
        /// A Rules DSL file does not parse (located: file:line:column, what was found and expected).
        case dslSyntax = "rules.dslSyntax"
        /// A Rules DSL construct outside the subset the twin runs.
        case dslUnsupported = "rules.dslUnsupported"
        /// A trigger openHAB parses and drops with a logged warning (`System shuts down`); the rule loads without it.
        case dslDroppedTrigger = "rules.dslDroppedTrigger"
        /// A `callScript("name")` names a script file the scenario's `scriptFiles` do not have.
        case dslUnknownScript = "rules.dslUnknownScript"
        /// A DSL rule failed while it ran (a method on null, a wrong type); the run stops and says where.
        case dslRuntime = "rules.dslRuntime"
        /// A DSL run did more work than one run may (a loop that never ends); the run was ended.
        case dslBudget = "rules.dslBudget"
        /// A DSL run built a string, list or map past the value-size budget; the run was ended.
        case dslValueTooLarge = "rules.dslValueTooLarge"
        /// Reading or running rules was cancelled (Ctrl-C, SIGTERM); nothing was written.
        case cancelled = "rules.cancelled"
    }

    /// The error of a read or run stopped by Ctrl-C or SIGTERM at `place`.
    static func cancelled(at place: String) -> RulesError {
        RulesError(.cancelled, "\(place): the read was cancelled (Ctrl-C); nothing was written (rules.cancelled).")
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// What went wrong and where — one full sentence.
    public let message: String
    /// What to do about it, or `nil` when the message already says.
    public let hint: String?

    /// Creates an error with a code, a full-sentence message and an optional hint.
    public init(_ code: Code, _ message: String, hint: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
    }
}
