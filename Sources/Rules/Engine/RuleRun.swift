import Simulation

/// One run of a rule, for the run log and for expectations.
public struct RuleRun: Sendable, Hashable {
    /// When it ran.
    public let at: SimInstant
    /// The rule's UID.
    public let ruleUID: String
    /// The rule's name.
    public let ruleName: String
    /// Why it ran (the trigger's summary).
    public var trigger: String { triggerParts.text }
    /// The same, as parts (worded when read).
    let triggerParts: RuleTriggerEvent.Summary
    /// Whether its conditions held (only then did its actions run — what `runs` expectations count).
    public let conditionsHeld: Bool
    /// What the conditions said: `conditions held`, `no conditions`, or the first one that failed.
    public let conditionNote: String
    /// What the actions did, in order: commands, updates, log lines, errors.
    public var effects: [String] { effectRecords.all.map(\.text) }
    /// The same, as parts (text made when read: most runs of a frequent rule are only counted).
    let effectRecords: RuleEffects
    /// Whether a clock started it (see ``RuleTriggerEvent/isPeriodic``).
    public let isPeriodic: Bool
    /// Whether a DSL timer of the rule ran, not the rule (not counted as a run).
    public let isTimer: Bool
    /// Whether the rule is a built-in automation (``Rule/isBuiltIn``), whose actions keep their own log.
    public let isBuiltIn: Bool

    /// Whether the run log shows it: every run whose conditions held, every event-started run that its
    /// conditions stopped (a clock-started one that did nothing would repeat all day), and every run whose
    /// conditions wrote something (a script condition's log line or error is never hidden).
    public var isLogged: Bool { !isBuiltIn && (conditionsHeld || !isPeriodic || !effectRecords.isEmpty) }

    /// The run log line (without the time): `rule "Night setback" ← cron 0 0 22 * * ?: conditions held; …`.
    public var logText: String {
        var text = isTimer ? "\(trigger)" : "rule \"\(Rule.shown(ruleName))\" ← \(trigger): \(conditionNote)"
        if !effects.isEmpty { text += "; " + effects.joined(separator: "; ") }
        return text
    }
}
