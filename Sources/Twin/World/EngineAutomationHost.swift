import Booking
import Rules
import ScenarioFormat
import Simulation

/// The booking side's built-in automations registered on the rule engine: a recurring automation is a
/// rule with a recurrence trigger and a built-in action.
public struct EngineAutomationHost: AutomationRuleHost {
    /// The engine the rules go to.
    public let engine: RuleEngine

    /// Registers on `engine`.
    public init(engine: RuleEngine) { self.engine = engine }

    public func addRecurringRule(uid: String, name: String, everyMinutes: Int, atMinute: Int, calendar: LocalCalendar,
                          run: @escaping @Sendable () async -> Void) throws(BookingError) {
        guard engine.rule(uid) == nil else { return }
        let rule = Rule(uid: uid, name: name, triggers: [RuleTrigger(id: "1", .recurrence(everyMinutes: everyMinutes, atMinute: atMinute, calendar: calendar))],
                        actions: [RuleAction(id: "2", .builtIn(name: uid, run: run))], source: "built-in automation")
        do {
            try engine.addBuiltIn(rule)
        } catch {
            throw BookingError(.configurationInvalid, "The schedule of \(name) is invalid: \(error.message)")
        }
    }

    public func removeRule(uid: String) { engine.remove(uid) }
}
