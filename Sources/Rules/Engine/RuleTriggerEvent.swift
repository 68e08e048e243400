import Simulation
import SmartHome

/// Why a run started: the trigger and the event's details, which DSL bodies read as implicit variables
/// (`receivedCommand`, `newState`, `previousState`, `triggeringItemName`, …).
public struct RuleTriggerEvent: Sendable {
    /// The trigger module's id; `nil` for a run started by hand (`runRule`, `runnow`, a `RunRuleAction`).
    public var triggerID: String?
    /// One phrase for the run log: `flat_1_heating_switch changed from OFF to ON`, `cron 0 5 * * * ?`.
    public var summary: String {
        get { summaryParts.text }
        set { summaryParts = .text(newValue) }
    }
    /// The same phrase as its parts, worded only when read: most runs of a frequent rule are only counted.
    public var summaryParts: Summary
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
        self.init(triggerID: triggerID, summaryParts: .text(summary))
    }

    /// A run with only a summary, given as its parts.
    init(triggerID: String?, summaryParts: Summary) {
        self.triggerID = triggerID
        self.summaryParts = summaryParts
    }

    /// A run log phrase kept as its parts (``text`` words it).
    public enum Summary: Sendable, Hashable {
        /// A phrase as written.
        case text(String)
        /// `Item received command C`, or `Item (member of G) received command C`.
        case command(item: String, group: String?, Command)
        /// `Item received update S` (or with its Group).
        case update(item: String, group: String?, State)
        /// `Item changed from OLD to NEW` (or with its Group).
        case change(item: String, group: String?, new: State, old: State)

        /// The phrase the run log shows.
        public var text: String {
            func who(_ item: String, _ group: String?) -> String { group.map { "\(item) (member of \($0))" } ?? item }
            switch self {
            case .text(let text): return text
            case .command(let item, let group, let command): return "\(who(item, group)) received command \(command)"
            case .update(let item, let group, let state): return "\(who(item, group)) received update \(state)"
            case .change(let item, let group, let new, let old): return "\(who(item, group)) changed from \(old) to \(new)"
            }
        }
    }
}
