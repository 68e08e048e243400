import Simulation
import SmartHome

/// Why a run started: the trigger and the event's details, which DSL bodies read as implicit variables
/// (`receivedCommand`, `newState`, `previousState`, `triggeringItemName`, …).
public struct RuleTriggerEvent: Sendable {
    /// The event's fields. A run's event is copied into its kernel event, its run and its interpreter; behind one
    /// reference (``Box``) a copy is one retain, not a copy of fourteen fields. A change makes a new box, so the
    /// engine builds an event's fields first and boxes them once (``init(_:)``).
    struct Fields: Sendable {
        var triggerID: String?
        var summaryParts: Summary
        var item: ItemName?
        var groupName: String?
        var command: Command?
        var newState: State?
        var previousState: State?
        var thingUID: String?
        var thingStatus: String?
        var previousThingStatus: String?
        var channelUID: String?
        var channelEvent: String?
        var isPeriodic = false
        var arguments: String?

        init(triggerID: String?, summaryParts: Summary) {
            self.triggerID = triggerID
            self.summaryParts = summaryParts
        }
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    /// The fields; setting one boxes them anew.
    var fields: Fields {
        get { box.fields }
        set { box = Box(newValue) }
    }

    /// The trigger module's id; `nil` for a run started by hand (`runRule`, `runnow`, a `RunRuleAction`).
    public var triggerID: String? { get { box.fields.triggerID } set { fields.triggerID = newValue } }
    /// One phrase for the run log: `flat_1_heating_switch changed from OFF to ON`, `cron 0 5 * * * ?`.
    public var summary: String {
        get { summaryParts.text }
        set { summaryParts = .text(newValue) }
    }
    /// The same phrase as its parts, worded only when read: most runs of a frequent rule are only counted.
    public var summaryParts: Summary { get { box.fields.summaryParts } set { fields.summaryParts = newValue } }
    /// The Item the event is about.
    public var itemName: String? { box.fields.item?.rawValue }
    /// The same, as its checked name (a Rules DSL body's `triggeringItem` is made of it without checking the text).
    public var item: ItemName? { get { box.fields.item } set { fields.item = newValue } }
    /// The Group whose member the event is about (Group triggers).
    public var groupName: String? { get { box.fields.groupName } set { fields.groupName = newValue } }
    /// The command received (command triggers).
    public var command: Command? { get { box.fields.command } set { fields.command = newValue } }
    /// The state taken (update and change triggers).
    public var newState: State? { get { box.fields.newState } set { fields.newState = newValue } }
    /// The state before (change triggers).
    public var previousState: State? { get { box.fields.previousState } set { fields.previousState = newValue } }
    /// The Thing (Thing triggers).
    public var thingUID: String? { get { box.fields.thingUID } set { fields.thingUID = newValue } }
    /// The Thing's new status (Thing triggers).
    public var thingStatus: String? { get { box.fields.thingStatus } set { fields.thingStatus = newValue } }
    /// The Thing's previous status (Thing change triggers).
    public var previousThingStatus: String? { get { box.fields.previousThingStatus } set { fields.previousThingStatus = newValue } }
    /// The trigger channel that fired (channel triggers): the DSL's `triggeringChannel`.
    public var channelUID: String? { get { box.fields.channelUID } set { fields.channelUID = newValue } }
    /// The event it fired (`START`): the DSL's `receivedEvent`, a String as in openHAB 3+.
    public var channelEvent: String? { get { box.fields.channelEvent } set { fields.channelEvent = newValue } }
    /// Whether a clock fired it (cron, time of day, date-time): such runs recur, so the run log leaves out
    /// the ones whose conditions did not hold.
    public var isPeriodic: Bool { get { box.fields.isPeriodic } set { fields.isPeriodic = newValue } }
    /// What the caller passed a run it started by hand (openhab-js `rules.runRule(uid, args)`), a JSON object's
    /// text: a UI rule's JavaScript reads the entries as `ctx[key]` and as globals, a script file's rule in
    /// `event.raw`.
    public var arguments: String? { get { box.fields.arguments } set { fields.arguments = newValue } }

    /// A run with only a summary.
    public init(triggerID: String?, summary: String) {
        self.init(Fields(triggerID: triggerID, summaryParts: .text(summary)))
    }

    /// An event of these fields, boxed once.
    init(_ fields: Fields) {
        box = Box(fields)
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
