import Simulation
import SmartHome

/// Why a run started: the trigger and the event's details, which DSL bodies read as implicit variables
/// (`receivedCommand`, `newState`, `previousState`, `triggeringItemName`, …).
public struct RuleTriggerEvent: Sendable {
    /// The trigger module's id; `nil` for a run started by hand (`runRule`, `runnow`, a `RunRuleAction`).
    public var triggerID: String?
    /// One phrase for the run log: `flat_1_heating_switch changed from OFF to ON`, `cron 0 5 * * * ?`.
    public var summary: String
    /// The Item the event is about.
    public var itemName: String?
    /// The Group whose member the event is about (Group triggers).
    public var groupName: String?
    /// The command received (command triggers).
    public var command: Command?
    /// The state taken (update and change triggers).
    public var newState: State?
    /// The state before (change triggers).
    public var previousState: State?
    /// The Thing (Thing triggers).
    public var thingUID: String?
    /// The Thing's new status (Thing triggers).
    public var thingStatus: String?
    /// The Thing's previous status (Thing change triggers).
    public var previousThingStatus: String?
    /// The trigger channel that fired (channel triggers): the DSL's `triggeringChannel`.
    public var channelUID: String?
    /// The event it fired (`START`): the DSL's `receivedEvent`, a String as in openHAB 3+.
    public var channelEvent: String?
    /// Whether a clock fired it (cron, time of day, date-time): such runs recur, so the run log leaves out
    /// the ones whose conditions did not hold.
    public var isPeriodic = false
    /// What the caller passed a run it started by hand (openhab-js `rules.runRule(uid, args)`), a JSON object's
    /// text: a UI rule's JavaScript reads the entries as `ctx[key]` and as globals, a script file's rule in
    /// `event.raw`.
    public var arguments: String?

    /// A run with only a summary.
    public init(triggerID: String?, summary: String) {
        self.triggerID = triggerID
        self.summary = summary
    }
}
