import Simulation
import SmartHome
import Synchronization

/// openHAB's rule engine on the virtual clock: it hears the event bus and the kernel's timers, checks
/// triggers and conditions, and runs actions on the runtime's event bus, as openHAB's `ScriptBusEvent` does.
///
/// Execution semantics (Docs/RULES.md, as openHAB): a triggered rule runs **after** the event that triggered
/// it — as a new kernel event at the same virtual instant, behind what is already queued there — never
/// inside the publisher's call. Runs are kernel events on the one simulation task, so a rule runs one
/// execution at a time, and triggers arriving meanwhile wait their turn in order. Commands a rule sends
/// take the normal way (Item → Link → handler, autoupdate, events), so other rules hear them. Rules are
/// checked in load order and a rule's triggers in their order, so the same scenario gives the same runs.
public final class RuleEngine: Sendable {
    /// The openHAB runtime (Items, the bus).
    public let runtime: OpenHABRuntime
    /// The virtual clock.
    public let scheduler: any SimulationScheduler
    /// The scenario's calendar (cron, time-of-day, day-of-week and DSL `now` are local time).
    public let calendar: LocalCalendar

    struct Loaded {
        var rule: Rule
        var enabled = true
        /// The rule's runs at ``runsInstant`` (a rule that triggers itself at one instant is stopped early).
        var runsAtInstant = 0
        var runsInstant: SimInstant?
        /// ``Rule/isBuiltIn``, worked out once (it looks at every action).
        let isBuiltIn: Bool
        /// Its runs' counts.
        var tally = RunTally()

        init(rule: Rule) {
            self.rule = rule
            isBuiltIn = rule.isBuiltIn
        }
    }

    /// The bus events triggers listen to, one kind per event kind `match` can pair with a trigger.
    enum Heard: Int, CaseIterable {
        case command, stateUpdated, stateChanged, thingStatus, thingStatusChanged

        init?(_ event: OpenHABEvent.Kind) {
            switch event {
            case .itemCommand: self = .command
            case .itemStateUpdated: self = .stateUpdated
            case .itemStateChanged: self = .stateChanged
            case .thingStatus: self = .thingStatus
            case .thingStatusChanged: self = .thingStatusChanged
            default: return nil
            }
        }

        init?(_ trigger: RuleTrigger.Kind) {
            switch trigger {
            case .itemCommand, .groupCommand: self = .command
            case .itemStateUpdate, .groupStateUpdate: self = .stateUpdated
            case .itemStateChange, .groupStateChange: self = .stateChanged
            case .thingStatusUpdate: self = .thingStatus
            case .thingStatusChange: self = .thingStatusChanged
            default: return nil
            }
        }
    }

    /// What the engine keeps of one rule's runs.
    struct RunTally {
        /// The instants of its counted runs (conditions held, not a timer), in order: what `rule` expectations count.
        /// A built-in watcher runs hourly per listing, so the runs are not kept whole (a 1000-flat year would hold
        /// millions of records).
        var counted = RunInstants()
        /// Its runs the run log showed or counted (``RuleEngine/maxLoggedRunsPerRule``), and those with an error it
        /// kept past that.
        var logged = 0
        var loggedErrors = 0
    }

    /// A trigger of an enabled rule that hears one kind of bus event (one reference: `hear` walks them for every event).
    final class Listener: Sendable {
        let uid: String
        let trigger: RuleTrigger
        /// The kernel event's label of the runs it queues (made once, not per run).
        let label: String
        /// The rule's index (``RuleEngine/index(ofUID:hint:in:)``).
        let index: Int

        init(uid: String, trigger: RuleTrigger, label: String, index: Int) {
            self.uid = uid
            self.trigger = trigger
            self.label = label
            self.index = index
        }
    }

    struct EngineState {
        var rules: [Loaded] = []
        var byUID: [String: Int] = [:]
        /// Per kind of bus event (``Heard``), the triggers of enabled rules that hear it, in load order and
        /// each rule's trigger order (the order `hear` checks them in); rebuilt by ``reindex()``.
        var listeners: [[Listener]] = Array(repeating: [], count: Heard.allCases.count)
        /// Whether some rule has a `timer.DateTimeTrigger` (a state change may reschedule it).
        var hasDateTimeTriggers = false

        /// Rebuilds ``listeners`` after rules were added, removed, enabled or disabled.
        mutating func reindex() {
            listeners = Array(repeating: [], count: Heard.allCases.count)
            hasDateTimeTriggers = false
            for (index, loaded) in rules.enumerated() {
                for trigger in loaded.rule.triggers {
                    if case .dateTime = trigger.kind { hasDateTimeTriggers = true }
                    if loaded.enabled, let heard = Heard(trigger.kind) {
                        listeners[heard.rawValue].append(Listener(uid: loaded.rule.uid, trigger: trigger, label: "rule \(loaded.rule.uid)", index: index))
                    }
                }
            }
        }
        /// The runs the run log shows (``RuleRun/isLogged``), in order. Each rule's counts are in its ``Loaded``.
        var runs: [RuleRun] = []
        /// The counts of runs whose rule is not loaded: a JavaScript file's load (`runDetached`), a run that ends
        /// after its rule was removed.
        var unloaded: [String: RunTally] = [:]
        var intervalPassed: [String: SimInstant] = [:]
        var dateTimeTimers: [String: TimerID] = [:]
        /// `uid/trigger` → the recurring kernel timer of a cron or recurrence trigger (so a removed rule stops).
        var clockTimers: [String: TimerID] = [:]
        /// Item names as rules write them, checked once.
        var itemNames: [String: ItemName] = [:]
        /// A condition's state text parsed for an Item type (parsing is most of a cron-driven condition's cost).
        var parsedStates: [ParsedStateKey: State?] = [:]
        var subscription: EventBus.SubscriptionID?
        var started = false
    }

    struct ParsedStateKey: Hashable {
        var text: String
        var type: ItemType
    }

    let state = Mutex(EngineState())
    /// The persistence service rules query (`Item.averageSince(…)`), and the Items it records.
    /// What the rules' actions sent (``outbox``) and the scripted answers they get.
    let actionOutbox = ActionOutbox()
    let persistenceAccess = Mutex<(store: PersistenceStore, items: Set<ItemName>)?>(nil)

    /// Gives rules the persistence service and the Items it records (before ``start()``); without it, a
    /// persistence extension in a rule is refused as `rules.dslNotPersisted`.
    public func usePersistence(_ store: PersistenceStore, items: [ItemName]) {
        persistenceAccess.withLock { $0 = (store, Set(items)) }
    }

    /// The persistence services of `.persist` files by service id, and the default service's id (see
    /// ``usePersistenceServices(_:defaultService:)``).
    let persistenceServices = Mutex<(services: [String: (store: PersistenceStore, items: Set<ItemName>)], defaultService: String?)>(([:], nil))
    /// Steps of DSL work all runs have done (``DSLLimits/maxStepsPerScenario``).
    let ruleWork = Atomic<Int64>(0)
    /// DSL runs that used up their own budget (``DSLLimits/maxRunawayRuns``).
    let runawayRuns = Atomic<Int>(0)

    /// `text` parsed as a state of `type` (cached: a condition checks the same text every run).
    func parsedState(_ text: String, for type: ItemType) -> State? {
        let key = ParsedStateKey(text: text, type: type)
        if let cached = state.withLock({ $0.parsedStates[key] }) { return cached }
        let parsed = type.parseState(text, in: calendar)
        state.withLock { $0.parsedStates[key] = parsed }
        return parsed
    }

    /// The media type of Rules DSL scripts in `script.ScriptAction` / `script.ScriptCondition`.
    public static let dslMediaType = "application/vnd.openhab.dsl.rule"

    /// How often one rule may run at one virtual instant before the run is ended as a loop of rules
    /// (a rule that updates the Item it triggers on); well above any real cascade.
    public static let maxRunsPerInstant = 10_000

    /// How deep `RunRuleAction`s may nest before the engine refuses (a rule that runs itself).
    public static let maxNesting = 16

    /// Where rule starts and DSL statements are counted for `--coverage` (`nil`: not counted).
    public let coverage: RuleCoverage?

    /// An engine with no rules yet; with `coverage` it counts what the rules run into it.
    public init(runtime: OpenHABRuntime, scheduler: any SimulationScheduler, calendar: LocalCalendar, coverage: RuleCoverage? = nil) {
        self.coverage = coverage
        self.runtime = runtime
        self.scheduler = scheduler
        self.calendar = calendar
    }

    // MARK: Rules

    /// Adds rules, in order (before ``start()``).
    /// - Throws: ``RulesError`` `rules.duplicateUID` when a UID is taken.
    public func add(_ rules: [Rule]) throws(RulesError) {
        let instances = RuleScriptInstances()
        try state.withLock { state throws(RulesError) in
            for rule in rules.map({ $0.forNewEngine(instances) }) {
                if let existing = state.byUID[rule.uid] {
                    throw RulesError(.duplicateUID, "\(rule.source): a rule with the UID \"\(rule.uid)\" is already loaded from \(state.rules[existing].rule.source).",
                                     hint: "give each rule its own uid.")
                }
                state.byUID[rule.uid] = state.rules.count
                state.rules.append(Loaded(rule: rule))
            }
            state.reindex()
        }
    }

    /// Every loaded rule, in load order.
    public var rules: [Rule] { state.withLock { $0.rules.map(\.rule) } }

    /// Whether the rule is enabled (`nil`: no such rule).
    public func isEnabled(_ uidOrName: String) -> Bool? {
        state.withLock { state in Self.index(of: uidOrName, in: state).map { state.rules[$0].enabled } }
    }

    /// The rule with this UID, or else the first with this name.
    public func rule(_ uidOrName: String) -> Rule? {
        state.withLock { state in Self.index(of: uidOrName, in: state).map { state.rules[$0].rule } }
    }

    static func index(of uidOrName: String, in state: EngineState) -> Int? {
        state.byUID[uidOrName] ?? state.rules.firstIndex { $0.rule.name == uidOrName }
    }

    /// The index of the rule with UID `uid`: `hint` when it still holds that rule (a trigger keeps the index its
    /// rule had when it was armed; removing a rule moves those after it), else looked up.
    static func index(ofUID uid: String, hint: Int, in state: EngineState) -> Int? {
        if hint >= 0, hint < state.rules.count, state.rules[hint].rule.uid == uid { return hint }
        return state.byUID[uid]
    }

    /// The runs the run log shows (``RuleRun/isLogged``) so far, in order.
    public var runs: [RuleRun] { state.withLock { $0.runs } }

    /// Runs of a rule (by UID or name) whose conditions held, in `[from, to)` when given.
    public func runCount(of uidOrName: String, from: SimInstant? = nil, to: SimInstant? = nil) -> Int {
        state.withLock { state in
            let tally = Self.index(of: uidOrName, in: state).map { state.rules[$0].tally } ?? state.unloaded[uidOrName]
            return tally?.counted.count(from: from, to: to) ?? 0
        }
    }

    /// Runs of users' rules so far that the run log shows or counts (``RuleRun/isLogged``), kept or not.
    public var loggedRunCount: Int {
        state.withLock { state in
            state.rules.reduce(0) { $0 + $1.tally.logged } + state.unloaded.values.reduce(0) { $0 + $1.logged }
        }
    }

    /// How many runs of one rule the run log keeps whole; later ones are counted (expectations see them)
    /// and those that report an error are still kept, so memory does not grow with a rule that runs every
    /// second (a year of them would be 31 million records).
    public static let maxLoggedRunsPerRule = 5_000

    /// How many runs the run log keeps whole over all rules; later ones are counted, not listed, so the
    /// log's memory is bounded however many rules there are (100,000 cron rules that each run hourly would
    /// otherwise keep 5,000 runs apiece: over a gigabyte).
    public static let maxLoggedRuns = 100_000

    /// Keeps what the log and the counts need of `run`; `hint` is the rule's index when its run started (see
    /// ``index(ofUID:hint:in:)``). A run whose rule is not loaded (a JavaScript file's load, a rule removed
    /// meanwhile) is kept and counted by its UID.
    func record(_ run: RuleRun, hint: Int = -1) {
        record(uid: run.ruleUID, at: run.at, conditionsHeld: run.conditionsHeld, isTimer: run.isTimer, isLogged: run.isLogged,
               hasError: run.effectRecords.containsError, hint: hint) { run }
    }

    /// ``record(_:hint:)`` of a run given by its parts: `make` builds its record only when the log keeps it (a rule
    /// that runs every second has its first 5,000 runs kept, and the rest only counted).
    func record(uid: String, at: SimInstant, conditionsHeld: Bool, isTimer: Bool, isLogged: Bool, hasError: @autoclosure () -> Bool,
                hint: Int, _ make: () -> RuleRun) {
        state.withLock { state in
            if let index = Self.index(ofUID: uid, hint: hint, in: state) {
                Self.record(at: at, conditionsHeld: conditionsHeld, isTimer: isTimer, isLogged: isLogged, hasError: hasError(),
                            in: &state.rules[index].tally, runs: &state.runs, make)
            } else {
                Self.record(at: at, conditionsHeld: conditionsHeld, isTimer: isTimer, isLogged: isLogged, hasError: hasError(),
                            in: &state.unloaded[uid, default: RunTally()], runs: &state.runs, make)
            }
        }
    }

    private static func record(at: SimInstant, conditionsHeld: Bool, isTimer: Bool, isLogged: Bool, hasError: @autoclosure () -> Bool,
                               in tally: inout RunTally, runs: inout [RuleRun], _ make: () -> RuleRun) {
        if conditionsHeld, !isTimer { tally.counted.append(at) }
        guard isLogged else { return }
        let kept = tally.logged
        tally.logged = kept + 1
        guard kept <= maxLoggedRunsPerRule || (hasError() && tally.loggedErrors < maxLoggedRunsPerRule) else { return }
        let run = make()
        func keep(_ run: RuleRun) {
            if runs.count < maxLoggedRuns {
                runs.append(run)
            } else if runs.count == maxLoggedRuns {
                runs.append(RuleRun(at: run.at, ruleUID: run.ruleUID, ruleName: run.ruleName,
                                    triggerParts: .text("the log keeps the first \(maxLoggedRuns) runs of all rules; later runs are counted but not listed"),
                                    conditionsHeld: true, conditionNote: "", effectRecords: RuleEffects(), isPeriodic: false, isTimer: true, isBuiltIn: false))
            }
        }
        if kept < maxLoggedRunsPerRule {
            keep(run)
        } else if kept == maxLoggedRunsPerRule {
            keep(RuleRun(at: run.at, ruleUID: run.ruleUID, ruleName: run.ruleName,
                         triggerParts: .text("rule \"\(Rule.shown(run.ruleName))\": the log keeps its first \(maxLoggedRunsPerRule) runs; later runs are counted but not listed, except those with an error"),
                         conditionsHeld: true, conditionNote: "", effectRecords: RuleEffects(), isPeriodic: false, isTimer: true, isBuiltIn: false))
        }
        if kept >= maxLoggedRunsPerRule, run.effectRecords.containsError, tally.loggedErrors < maxLoggedRunsPerRule {
            tally.loggedErrors += 1
            keep(run)
        }
    }

    // MARK: Start

    /// Starts listening: subscribes to the bus for the events the triggers need, schedules cron and
    /// date-time triggers, and fires start-level triggers (at the current instant, behind what is queued).
    public func start() {
        let rules = state.withLock { state -> [Rule] in
            guard !state.started else { return [] }
            state.started = true
            return state.rules.map(\.rule)
        }
        guard !rules.isEmpty else { return }
        let topics = Self.topics(for: rules)
        if !topics.isEmpty {
            let id = runtime.events.subscribe(EventFilter(topics: topics)) { [self] event in hear(event) }
            state.withLock { $0.subscription = id }
        }
        for (index, rule) in rules.enumerated() {
            if Task.isCancelled { return }  // Ctrl-C while arming many rules: the run that follows stops at once
            arm(rule, index: index, starting: true)
        }
    }

    /// Schedules a rule's clock triggers (and at the start, its start-level triggers); `index` is where the
    /// rule is now (``index(ofUID:hint:in:)``).
    private func arm(_ rule: Rule, index: Int, starting: Bool) {
        for trigger in rule.triggers {
            switch trigger.kind {
            case .cron(let cron):
                scheduleCron(cron, rule: rule.uid, trigger: trigger.id, hint: index)
            case .recurrence(let every, let at, let calendar):
                var periodic = RuleTriggerEvent(triggerID: trigger.id, summary: "every \(every) min at minute \(at)")
                periodic.isPeriodic = true
                let event = periodic, uid = rule.uid
                let id = try? scheduler.every(minutes: every, atMinute: at, in: calendar, label: rule.name) { [self] _ in
                    await execute(uid, event, considerConditions: true, depth: 0, onlyIfEnabled: true, hint: index)
                }
                if let id { state.withLock { $0.clockTimers["\(uid)/\(trigger.id)"] = id } }
            case .dateTime:
                scheduleDateTime(rule: rule.uid, trigger: trigger)
            case .systemStartlevel(let level) where level >= 40 && starting:
                enqueue(rule.uid, RuleTriggerEvent(triggerID: trigger.id, summary: "system started (start level \(level))"))
            default:
                break
            }
        }
    }

    /// Adds a built-in automation's rule; after ``start()`` its clock triggers are armed at once.
    /// - Throws: ``RulesError`` `rules.duplicateUID`; `rules.invalidRule` for a recurrence the kernel refuses.
    public func addBuiltIn(_ rule: Rule) throws(RulesError) {
        for trigger in rule.triggers {
            if case .recurrence(let every, let at, _) = trigger.kind {
                do { try LocalCalendar.validateRecurrence(everyMinutes: every, atMinute: at) } catch {
                    throw RulesError(.invalidRule, "\(rule.name): \(error.message)", hint: error.hint)
                }
            }
        }
        try add([rule])
        if let index = state.withLock({ $0.started ? $0.byUID[rule.uid] : nil }) { arm(rule, index: index, starting: false) }
    }

    /// Removes a rule and stops its clock triggers (a built-in automation that has nothing left to do).
    public func remove(_ uid: String) {
        let timers = state.withLock { state -> [TimerID] in
            guard let index = state.byUID.removeValue(forKey: uid) else { return [] }
            state.rules.remove(at: index)
            state.byUID = Dictionary(uniqueKeysWithValues: state.rules.enumerated().map { ($0.element.rule.uid, $0.offset) })
            state.reindex()
            let keys = (state.clockTimers.keys.filter { $0.hasPrefix("\(uid)/") }) + state.dateTimeTimers.keys.filter { $0.hasPrefix("\(uid)/") }
            return keys.compactMap { key in
                if let id = state.clockTimers.removeValue(forKey: key) { return id }
                return state.dateTimeTimers.removeValue(forKey: key)
            }
        }
        for timer in timers { scheduler.cancel(timer) }
    }

    /// The bus topics the rules' triggers listen to.
    static func topics(for rules: [Rule]) -> [String] {
        var topics: [String] = []
        func add(_ topic: String) { if !topics.contains(topic) { topics.append(topic) } }
        for rule in rules {
            for trigger in rule.triggers {
                switch trigger.kind {
                case .itemCommand(let p, _): add("openhab/items/\(p.isWildcard ? "*" : p.text)/command")
                case .itemStateUpdate(let p, _): add("openhab/items/\(p.isWildcard ? "*" : p.text)/stateupdated")
                case .itemStateChange(let p, _, _): add("openhab/items/\(p.isWildcard ? "*" : p.text)/statechanged")
                case .groupCommand: add("openhab/items/*/command")
                case .groupStateUpdate: add("openhab/items/*/stateupdated")
                case .groupStateChange: add("openhab/items/*/statechanged")
                case .dateTime(let item, _, _): add("openhab/items/\(item)/statechanged")
                case .thingStatusChange(let thing, _, _): add("openhab/things/\(thing.contains("*") || thing.contains("?") ? "*" : thing)/statuschanged")
                case .thingStatusUpdate(let thing, _): add("openhab/things/\(thing.contains("*") || thing.contains("?") ? "*" : thing)/status")
                case .cron, .systemStartlevel, .recurrence, .channelEvent: break
                }
            }
        }
        return topics
    }

    // MARK: Hearing events

    /// A trigger channel fired `event` (openHAB's `ChannelTriggeredEvent`, here from a scenario's `trigger`
    /// step): queues a run of every enabled rule with a matching `core.ChannelEventTrigger`, in rule order.
    /// - Returns: how many runs it queued.
    @discardableResult
    public func channelTriggered(_ channel: String, event: String) -> Int {
        let rules = state.withLock { $0.rules }
        var queued = 0
        for loaded in rules where loaded.enabled {
            for trigger in loaded.rule.triggers {
                guard case .channelEvent(let wantedChannel, let wantedEvent) = trigger.kind, wantedChannel == channel else { continue }
                if let wantedEvent = wantedEvent?.trimmingCharacters(in: .whitespaces), !wantedEvent.isEmpty, wantedEvent != event { continue }
                var matched = RuleTriggerEvent.Fields(triggerID: trigger.id, summaryParts: .text("channel \(channel) triggered \(event)"))
                matched.channelUID = channel
                matched.channelEvent = event
                enqueue(loaded.rule.uid, RuleTriggerEvent(matched))
                queued += 1
            }
        }
        return queued
    }

    /// Checks every enabled rule's triggers against `event` and queues one run per matching trigger.
    private func hear(_ event: OpenHABEvent) {
        guard let heard = Heard(event.kind) else { return }
        let (listeners, dateTimes) = state.withLock { ($0.listeners[heard.rawValue], $0.hasDateTimeTriggers) }
        if dateTimes, case .itemStateChanged(let name, _, _, _, _) = event.kind {
            for loaded in state.withLock({ $0.rules }) { rescheduleDateTimeTriggers(of: loaded.rule, changedItem: name.rawValue) }
        }
        for listener in listeners {
            if let matched = match(listener.trigger, event) { enqueue(listener.uid, matched, label: listener.label, hint: listener.index) }
        }
    }

    /// The trigger event if `trigger` fires on `event`.
    func match(_ trigger: RuleTrigger, _ event: OpenHABEvent) -> RuleTriggerEvent? {
        // `actual` is a state's text, made only for a trigger that names a state.
        func wanted(_ required: String?, _ actual: @autoclosure () -> String) -> Bool {
            guard let required = required?.trimmingCharacters(in: .whitespaces), !required.isEmpty else { return true }
            return required == actual()
        }
        // The event's kind first, then the trigger's: no tuple of both kinds is made (copying each's payload) per pair.
        switch event.kind {
        case .itemCommand(let name, let received):
            switch trigger.kind {
            case .itemCommand(let pattern, let command):
                guard pattern.matches(name.rawValue), wanted(command, received.description) else { return nil }
                return itemEvent(trigger, name, group: nil, .command(item: name.rawValue, group: nil, received)) { $0.command = received }
            case .groupCommand(let group, let command):
                guard isMember(name, of: group), wanted(command, received.description) else { return nil }
                return itemEvent(trigger, name, group: group, .command(item: name.rawValue, group: group, received)) { $0.command = received }
            default:
                return nil
            }
        case .itemStateUpdated(let name, let new, _):
            switch trigger.kind {
            case .itemStateUpdate(let pattern, let required):
                guard pattern.matches(name.rawValue), wanted(required, new.description) else { return nil }
                return itemEvent(trigger, name, group: nil, .update(item: name.rawValue, group: nil, new)) { $0.newState = new }
            case .groupStateUpdate(let group, let required):
                guard isMember(name, of: group), wanted(required, new.description) else { return nil }
                return itemEvent(trigger, name, group: group, .update(item: name.rawValue, group: group, new)) { $0.newState = new }
            default:
                return nil
            }
        case .itemStateChanged(let name, let new, let old, _, _):
            switch trigger.kind {
            case .itemStateChange(let pattern, let from, let to):
                guard pattern.matches(name.rawValue), wanted(from, old.description), wanted(to, new.description) else { return nil }
                return itemEvent(trigger, name, group: nil, .change(item: name.rawValue, group: nil, new: new, old: old)) {
                    $0.newState = new
                    $0.previousState = old
                }
            case .groupStateChange(let group, let from, let to):
                guard isMember(name, of: group), wanted(from, old.description), wanted(to, new.description) else { return nil }
                return itemEvent(trigger, name, group: group, .change(item: name.rawValue, group: group, new: new, old: old)) {
                    $0.newState = new
                    $0.previousState = old
                }
            default:
                return nil
            }
        case .thingStatusChanged(let uid, let new, let old):
            guard case .thingStatusChange(let thing, let from, let to) = trigger.kind,
                  ItemNamePattern(thing).matches(uid.rawValue), wanted(from, old.status.rawValue), wanted(to, new.status.rawValue) else { return nil }
            var matched = RuleTriggerEvent.Fields(triggerID: trigger.id, summaryParts: .text("Thing \(uid) changed from \(old.status.rawValue) to \(new.status.rawValue)"))
            matched.thingUID = uid.rawValue
            matched.thingStatus = new.status.rawValue
            matched.previousThingStatus = old.status.rawValue
            return RuleTriggerEvent(matched)
        case .thingStatus(let uid, let info):
            guard case .thingStatusUpdate(let thing, let required) = trigger.kind,
                  ItemNamePattern(thing).matches(uid.rawValue), wanted(required, info.status.rawValue) else { return nil }
            var matched = RuleTriggerEvent.Fields(triggerID: trigger.id, summaryParts: .text("Thing \(uid) reported \(info.status.rawValue)"))
            matched.thingUID = uid.rawValue
            matched.thingStatus = info.status.rawValue
            return RuleTriggerEvent(matched)
        default:
            return nil
        }
    }

    private func itemEvent(_ trigger: RuleTrigger, _ item: ItemName, group: String?, _ summary: RuleTriggerEvent.Summary,
                           _ fill: (inout RuleTriggerEvent.Fields) -> Void) -> RuleTriggerEvent {
        var event = RuleTriggerEvent.Fields(triggerID: trigger.id, summaryParts: summary)
        event.item = item
        event.groupName = group
        fill(&event)
        return RuleTriggerEvent(event)
    }

    /// Whether `item` is a member of `group`, directly or through nested Groups (an event's Item is a checked name; a
    /// Group's name is checked once per written name).
    func isMember(_ item: ItemName, of group: String, depth: Int = 0) -> Bool {
        guard depth < 16, let groups = runtime.items.groupNames(of: item) else { return false }
        return groups.contains(group) || groups.contains { outer in checkedItemName(outer).map { isMember($0, of: group, depth: depth + 1) } ?? false }
    }

    /// The Item called `name` now.
    public func item(_ name: String) -> Item? { checkedItemName(name).flatMap { runtime.items.current($0) } }

    /// The state of the Item called `name` now (`nil` if there is none), without copying the Item.
    public func itemState(_ name: String) -> State? { checkedItemName(name).flatMap { runtime.items.state(of: $0) } }

    /// The type of the Item called `name` (`nil` if there is none): also whether it exists.
    public func itemType(_ name: String) -> ItemType? { checkedItemName(name).flatMap { runtime.items.type(of: $0) } }

    /// `name` as a checked Item name, checked once per written name (`nil`: not a valid name).
    func checkedItemName(_ name: String) -> ItemName? {
        if let known = state.withLock({ $0.itemNames[name] }) { return known }
        guard let checked = try? ItemName(name) else { return nil }
        state.withLock { $0.itemNames[name] = checked }
        return checked
    }

    // MARK: Timers

    /// A cron trigger's fires: one recurring kernel timer, whose event is the run (nothing else is waiting on it,
    /// so no second event), as a kernel step (a run that cannot pause is a plain call). The kernel queues each next fire when it takes one, before the run — where a fire that
    /// scheduled the next itself put it — without a new timer or handler per fire.
    private func scheduleCron(_ cron: CronExpression, rule uid: String, trigger id: String, hint: Int) {
        var periodic = RuleTriggerEvent(triggerID: id, summary: "cron \(cron)")
        periodic.isPeriodic = true
        guard let first = cron.nextFire(after: scheduler.now, in: calendar) else { return }
        let event = periodic, calendar = calendar
        let timer = scheduler.scheduleStep(at: first, recurring: { cron.nextFire(afterFire: $0, in: calendar) }, label: "cron \(cron) of rule \(uid)") {
            [self] _ in runAtOnce(uid, event, onlyIfEnabled: true, hint: hint)
        }
        state.withLock { $0.clockTimers["\(uid)/\(id)"] = timer }
    }

    private func rescheduleDateTimeTriggers(of rule: Rule, changedItem: String) {
        for trigger in rule.triggers {
            if case .dateTime(let item, _, _) = trigger.kind, item == changedItem { scheduleDateTime(rule: rule.uid, trigger: trigger) }
        }
    }

    /// (Re)schedules a `timer.DateTimeTrigger` from its Item's current state: at that instant plus the offset,
    /// or with `timeOnly` at that local time of day, the next time it comes. A past instant does not fire.
    private func scheduleDateTime(rule uid: String, trigger: RuleTrigger) {
        guard case .dateTime(let itemName, let timeOnly, let offset) = trigger.kind else { return }
        let key = "\(uid)/\(trigger.id)"
        if let old = state.withLock({ $0.dateTimeTimers.removeValue(forKey: key) }) { scheduler.cancel(old) }
        guard case .dateTime(let value)? = item(itemName)?.state else { return }
        let now = scheduler.now
        var at = value.instant + SimDuration(milliseconds: Int64(offset) * 1_000)
        if timeOnly {
            let time = calendar.localDateTime(at: at).time
            var date = calendar.date(at: now)
            at = calendar.instant(on: date, at: time)
            while at <= now {
                date = date.adding(days: 1)
                at = calendar.instant(on: date, at: time)
            }
        }
        guard at > now else { return }
        let id = scheduler.schedule(at: at, label: "date-time trigger of rule \(uid)") { [self] _ in
            _ = state.withLock { $0.dateTimeTimers.removeValue(forKey: key) }
            if timeOnly { scheduleDateTime(rule: uid, trigger: trigger) }
            var event = RuleTriggerEvent(triggerID: trigger.id, summary: "time is \(itemName)\(timeOnly ? " (time only)" : "")")
            event.isPeriodic = true
            if isEnabled(uid) == true { enqueue(uid, event) }
        }
        state.withLock { $0.dateTimeTimers[key] = id }
    }
}
