import Simulation

/// A trigger module, as openHAB's module types (`core.ItemStateChangeTrigger`, `timer.GenericCronTrigger`, …).
public struct RuleTrigger: Sendable {
    /// What the trigger reacts to.
    public enum Kind: Sendable {
        /// `core.ItemCommandTrigger`: a command to a matching Item, optionally only this command text.
        case itemCommand(ItemNamePattern, command: String?)
        /// `core.ItemStateUpdateTrigger`: a matching Item took a state (`stateupdated`), optionally only this one.
        case itemStateUpdate(ItemNamePattern, state: String?)
        /// `core.ItemStateChangeTrigger`: a matching Item's state changed, optionally from/to these states.
        case itemStateChange(ItemNamePattern, previousState: String?, state: String?)
        /// `core.GroupCommandTrigger`: a command to a member of the Group.
        case groupCommand(group: String, command: String?)
        /// `core.GroupStateUpdateTrigger`: a member of the Group took a state.
        case groupStateUpdate(group: String, state: String?)
        /// `core.GroupStateChangeTrigger`: a member of the Group changed.
        case groupStateChange(group: String, previousState: String?, state: String?)
        /// `timer.GenericCronTrigger` and `timer.TimeOfDayTrigger`: local time of the scenario.
        case cron(CronExpression)
        /// `timer.DateTimeTrigger`: at the instant a DateTime Item holds (`timeOnly`: at its time of day,
        /// every day), shifted by `offsetSeconds`.
        case dateTime(item: String, timeOnly: Bool, offsetSeconds: Int)
        /// `core.ThingStatusChangeTrigger`: a Thing's status changed, optionally from/to these statuses.
        case thingStatusChange(thing: String, previousStatus: String?, status: String?)
        /// `core.ThingStatusUpdateTrigger`: a Thing reported its status, optionally only this one.
        case thingStatusUpdate(thing: String, status: String?)
        /// `core.ChannelEventTrigger`: a trigger channel fired (a scenario's `trigger` step), optionally only
        /// this event (`START`, `PRESSED`, …).
        case channelEvent(channel: String, event: String?)
        /// `core.SystemStartlevelTrigger`: fires once when the run starts (start levels 40 and up).
        case systemStartlevel(Int)
        /// A built-in automation's schedule: at local minute-of-day `m` with `m % everyMinutes == atMinute`
        /// in `calendar` (the kernel's recurrence: a time in a DST gap is skipped, one in an overlap fires
        /// twice, as a cron trigger does). Shown as the equivalent `timer.GenericCronTrigger` where there is one.
        case recurrence(everyMinutes: Int, atMinute: Int, calendar: LocalCalendar)
    }

    /// The module's `id` (e.g. `"1"`), shown in the run log.
    public let id: String
    /// What it reacts to.
    public let kind: Kind

    /// Creates a trigger.
    public init(id: String, _ kind: Kind) {
        self.id = id
        self.kind = kind
    }

    /// The Items a trigger names, for validation.
    public var itemNames: [String] {
        switch kind {
        case .itemCommand(let p, _), .itemStateUpdate(let p, _), .itemStateChange(let p, _, _): return p.isWildcard ? [] : [p.text]
        case .groupCommand(let g, _), .groupStateUpdate(let g, _), .groupStateChange(let g, _, _): return [g]
        case .dateTime(let item, _, _): return [item]
        case .cron, .thingStatusChange, .thingStatusUpdate, .systemStartlevel, .recurrence, .channelEvent: return []
        }
    }

    /// The channel a trigger listens to (`astro:sun:home:set#event`), for validation.
    public var channelUID: String? {
        if case .channelEvent(let channel, _) = kind { return channel }
        return nil
    }

    /// The Thing a trigger names, for validation.
    public var thingUID: String? {
        switch kind {
        case .thingStatusChange(let thing, _, _), .thingStatusUpdate(let thing, _): return thing
        default: return nil
        }
    }
}
