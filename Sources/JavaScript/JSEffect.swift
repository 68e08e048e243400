import Foundation

/// One thing a JavaScript run did, in order, as the child reports it; the twin applies them after the run,
/// as openHAB's event bus delivers a script's commands and updates after the call that sent them.
public enum JSEffect: Sendable, Equatable {
    /// `item.sendCommand(value)`.
    case command(item: String, value: String)
    /// `item.postUpdate(value)`.
    case update(item: String, value: String)
    /// A log line (`log(name).info`, `console.log`).
    case log(level: String, logger: String, text: String)
    /// An action that leaves the house (notification, mail, …) → the outbox.
    case outbox(channel: String, action: String, recipient: String, text: String)
    /// A timer created or rescheduled on the virtual clock (epoch milliseconds); `rule` made it, if any.
    case timer(id: Int, atMs: Int64, label: String, rule: String?)
    /// A timer cancelled.
    case cancel(id: Int)
    /// `rules.setEnabled(uid, enabled)`.
    case enable(rule: String, enabled: Bool)
    /// `rules.runRule(uid, args, considerConditions)`; the arguments as a JSON object's text.
    case runRule(String, considerConditions: Bool, arguments: String?)
    /// Any binding's Thing action (`actions.thingActions("mqtt", uid).publishMQTT(…)`) → the outbox's `action` kind.
    case thingAction(scope: String, method: String, thing: String, arguments: [String])
    /// A line for the run log as the twin words its own notes (an unscripted HTTP or Exec answer).
    case note(String)
}
