import Simulation
import SmartHome

extension RuleEngine {
    /// Queues a run of rule `uid` as a kernel event at the current instant, behind what is queued there.
    /// `label` (`rule UID`, what a stalled run names) is made once per listener by callers that run often.
    /// `hint`: the rule's index when the trigger was armed (``index(ofUID:hint:in:)``).
    /// The event is a kernel step: a run whose actions cannot pause is a plain call (``runAtOnce(_:_:onlyIfEnabled:hint:)``).
    func enqueue(_ uid: String, _ event: RuleTriggerEvent, label: String? = nil, hint: Int = -1) {
        scheduler.scheduleStep(after: .zero, label: label ?? "rule \(uid)") { [self] _ in
            runAtOnce(uid, event, hint: hint)
        }
    }

    /// Runs a rule now (a `runRule` step, `POST /rest/rules/{uid}/runnow`), inside the caller's event.
    /// - Parameter arguments: what the caller passes the run (a JSON object's text), see ``RuleTriggerEvent/arguments``.
    /// - Throws: ``RulesError`` `rules.unknownRule`.
    public func runNow(_ uidOrName: String, considerConditions: Bool = true, reason: String = "run by hand",
                       arguments: String? = nil) async throws(RulesError) {
        guard let rule = rule(uidOrName) else { throw unknownRule(uidOrName) }
        var event = RuleTriggerEvent(triggerID: nil, summary: reason)
        event.arguments = arguments
        await execute(rule.uid, event, considerConditions: considerConditions, depth: 0)
    }

    /// Runs `body` as a run of `rule` that no trigger started — a DSL timer's lambda — and records its
    /// effects in the run log (not counted as a run of the rule).
    public func runDetached(_ rule: Rule, summary: String, _ body: @Sendable (RuleExecution) async -> Void) async {
        let execution = RuleExecution(rule: rule, event: RuleTriggerEvent(triggerID: nil, summary: summary), engine: self)
        let at = scheduler.now
        await body(execution)
        let run = RuleRun(at: at, ruleUID: rule.uid, ruleName: rule.name, triggerParts: .text(summary), conditionsHeld: true,
                          conditionNote: "timer", effectRecords: execution.effectParts, isPeriodic: false, isTimer: true, isBuiltIn: false)
        record(run)
    }

    /// Removes every rule and stops every trigger (a finished world: built-in rules' actions hold the
    /// automations, which hold the engine).
    public func removeAll() {
        let dropped = state.withLock { state -> [Loaded] in
            defer {
                state.rules.removeAll()
                state.byUID.removeAll()
                state.reindex()
                state.clockTimers.removeAll()
                state.dateTimeTimers.removeAll()
                state.subscription = nil
            }
            return state.rules
        }
        _ = dropped  // released here, outside the lock (the kernel's pending timers are discarded by the world)
    }

    /// Enables or disables a rule (an `enableRule` step, `core.RuleEnablementAction`). A disabled rule's
    /// triggers are not heard and `runNow` still runs it, as openHAB.
    /// - Throws: ``RulesError`` `rules.unknownRule`.
    public func setEnabled(_ uidOrName: String, _ enabled: Bool) throws(RulesError) {
        let found = state.withLock { state -> Bool in
            guard let index = Self.index(of: uidOrName, in: state) else { return false }
            state.rules[index].enabled = enabled
            state.reindex()
            return true
        }
        if !found { throw unknownRule(uidOrName) }
    }

    func unknownRule(_ uidOrName: String) -> RulesError {
        let known = rules.flatMap { [$0.uid, $0.name] }
        let suggestion = Suggestion.closest(to: uidOrName, in: known).map { " Did you mean \"\($0)\"?" } ?? ""
        return RulesError(.unknownRule, "no rule has the UID or name \"\(uidOrName)\".\(suggestion)",
                          hint: known.isEmpty ? "load rule files with the scenario's \"rules\" list." : "loaded rules: \(rules.map { "\"\($0.name)\"" }.joined(separator: ", ")).")
    }

    /// A run that has started: its execution (which holds the rule and the event) and where its rule was found.
    struct StartedRun: Sendable {
        let execution: RuleExecution
        var rule: Rule { execution.rule }
        var event: RuleTriggerEvent { execution.event }
        let at: SimInstant
        let index: Int
        let isBuiltIn: Bool
        let considerConditions: Bool
        let depth: Int
    }

    /// One run: conditions (unless told not to), then the actions in order; recorded in ``runs``. With
    /// `onlyIfEnabled` (a clock trigger's fire) a disabled rule does not run. The rule, whether it is enabled and
    /// its runs at this instant are read with one look-up.
    /// `hint` is where a trigger found its rule when it was armed (``index(ofUID:hint:in:)``).
    func execute(_ uid: String, _ event: RuleTriggerEvent, considerConditions: Bool, depth: Int, onlyIfEnabled: Bool = false,
                 hint: Int = -1) async {
        guard let run = begin(uid, event, considerConditions: considerConditions, depth: depth, onlyIfEnabled: onlyIfEnabled, hint: hint) else { return }
        await proceed(run, fromAction: 0, checkConditions: considerConditions)
    }

    /// ``execute(_:_:considerConditions:depth:onlyIfEnabled:hint:)`` of a triggered run (conditions checked, depth 0) as a
    /// kernel step: with plain calls as far as it can — a run without conditions whose actions cannot pause is done
    /// without a suspension — and the rest, from the first condition or the first action that may pause, left as a
    /// handler the kernel awaits at once (the same order as one async handler doing both).
    func runAtOnce(_ uid: String, _ event: RuleTriggerEvent, onlyIfEnabled: Bool = false, hint: Int) -> SimulationKernel.Handler? {
        guard let run = begin(uid, event, considerConditions: true, depth: 0, onlyIfEnabled: onlyIfEnabled, hint: hint) else { return nil }
        guard run.rule.conditions.isEmpty else {
            return { [self] _ in await proceed(run, fromAction: 0, checkConditions: true) }
        }
        let actions = run.rule.actions
        for index in actions.indices where !performWithoutSuspending(actions[index], run.execution) {
            return { [self] _ in await proceed(run, fromAction: index, checkConditions: false) }
        }
        finish(run, held: true, failed: nil)
        return nil
    }

    /// Starts a run: finds the rule, counts the run at this instant (ending a loop of rules), counts coverage.
    /// `nil`: no run (no such rule, disabled for a clock trigger, or past the bound at this instant).
    private func begin(_ uid: String, _ event: RuleTriggerEvent, considerConditions: Bool, depth: Int, onlyIfEnabled: Bool,
                       hint: Int) -> StartedRun? {
        let now = scheduler.now
        let found = state.withLock { state -> (rule: Rule, runsHere: Int, index: Int, isBuiltIn: Bool)? in
            guard let index = hint >= 0 ? Self.index(ofUID: uid, hint: hint, in: state) : Self.index(of: uid, in: state),
                  !onlyIfEnabled || state.rules[index].enabled else { return nil }
            if state.rules[index].runsInstant != now {
                state.rules[index].runsInstant = now
                state.rules[index].runsAtInstant = 0
            }
            state.rules[index].runsAtInstant += 1
            return (state.rules[index].rule, state.rules[index].runsAtInstant, index, state.rules[index].isBuiltIn)
        }
        guard let (rule, runsHere, index, isBuiltIn) = found else { return nil }
        guard runsHere <= Self.maxRunsPerInstant else {
            if runsHere == Self.maxRunsPerInstant + 1, let kernel = scheduler as? SimulationKernel {
                kernel.stop(SimulationError(.stalled,
                    "rule \"\(rule.shownName)\" (\(rule.source)) ran more than \(Self.maxRunsPerInstant) times at \(calendar.localDateTime(at: now)) without the clock moving: it triggers itself through the Items it commands or updates, or rules trigger each other in a circle. The run was ended."))
            }
            return nil
        }
        coverage?.started(uid)
        return StartedRun(execution: RuleExecution(rule: rule, event: event, engine: self), at: now, index: index,
                          isBuiltIn: isBuiltIn, considerConditions: considerConditions, depth: depth)
    }

    /// The rest of a run: its conditions when `checkConditions` (only from the first action), then its actions from
    /// `fromAction` — each at once when it cannot pause — then ``finish(_:held:failed:)``.
    private func proceed(_ run: StartedRun, fromAction first: Int, checkConditions: Bool) async {
        var failed: RuleCondition?
        if checkConditions {
            for condition in run.rule.conditions where !(await holds(condition, run.execution)) {
                failed = condition
                break
            }
        }
        if failed == nil {
            let actions = run.rule.actions
            for index in actions.indices.dropFirst(first) {
                if performWithoutSuspending(actions[index], run.execution) { continue }
                await perform(actions[index], run.execution, depth: run.depth)
            }
        }
        finish(run, held: failed == nil, failed: failed)
    }

    /// Ends a run: marks its interval conditions and records it for the log and the counts.
    private func finish(_ run: StartedRun, held: Bool, failed: RuleCondition?) {
        let rule = run.rule
        if held, run.considerConditions { markIntervals(of: rule, at: run.at) }
        // A clock-started run its conditions stopped did nothing and is not logged: it is not kept either
        // (a cron every minute would otherwise hold half a million records a year) — unless its conditions
        // wrote something (a script condition's log line or error is never hidden).
        let effects = run.execution.effectParts
        guard held || !run.event.isPeriodic || !effects.isEmpty else { return }
        // A failed condition is described here (it reads Items: not inside the engine's lock, where the record is made).
        let failure = failed.map { "condition \($0.id) not met (\(describe($0)))" }
        // The record is made only when the log keeps it (a rule that runs every second: its first 5,000 runs).
        record(uid: rule.uid, at: run.at, conditionsHeld: held, isTimer: false, isLogged: !run.isBuiltIn, hasError: effects.containsError,
               hint: run.index) {
            let note = failure ?? (rule.conditions.isEmpty || !run.considerConditions
                ? (rule.conditions.isEmpty ? "no conditions" : "conditions not checked") : "conditions held")
            return RuleRun(at: run.at, ruleUID: rule.uid, ruleName: rule.name, triggerParts: run.event.summaryParts, conditionsHeld: held,
                           conditionNote: note, effectRecords: effects, isPeriodic: run.event.isPeriodic, isTimer: false, isBuiltIn: run.isBuiltIn)
        }
    }

    private func holds(_ condition: RuleCondition, _ execution: RuleExecution) async -> Bool {
        let now = scheduler.now
        switch condition.kind {
        case .itemState(let name, let op, let text):
            guard let item = item(name) else {
                execution.record("error: condition \(condition.id): Item \(name) does not exist")
                return false
            }
            return StateComparison.holds(item.state, op, parsedState(text, for: item.type))
        case .timeOfDay(let start, let end):
            let minute = calendar.localDateTime(at: now).time.millisecondOfDay / 60_000
            let from = start.map { $0.millisecondOfDay / 60_000 }, to = end.map { $0.millisecondOfDay / 60_000 }
            switch (from, to) {
            case (nil, nil): return true
            case (let f?, nil): return minute >= f
            case (nil, let t?): return minute < t
            case (let f?, let t?): return f < t ? (minute >= f && minute < t) : (minute >= f || minute < t)
            }
        case .dayOfWeek(let days):
            return days.contains(calendar.date(at: now).isoWeekday)
        case .weekday(let weekend):
            return (calendar.date(at: now).isoWeekday >= 6) == weekend
        case .thingStatus(let thing, let status, let equal):
            guard let uid = try? ThingUID(thing), let info = await runtime.things.status(of: uid) else { return !equal }
            return (info.status.rawValue == status) == equal
        case .interval(let minimum):
            let key = "\(execution.rule.uid)/\(condition.id)"
            guard let last = state.withLock({ $0.intervalPassed[key] }) else { return true }
            return now - last >= minimum
        case .script(let script):
            return await script.holds(execution)
        }
    }

    /// An `IntervalCondition` counts from the last run it let through.
    private func markIntervals(of rule: Rule, at now: SimInstant) {
        for condition in rule.conditions {
            if case .interval = condition.kind { state.withLock { $0.intervalPassed["\(rule.uid)/\(condition.id)"] = now } }
        }
    }

    func describe(_ condition: RuleCondition) -> String {
        switch condition.kind {
        case .itemState(let item, let op, let text):
            return "\(item) \(op.rawValue) \(text), is \(self.item(item)?.state.description ?? "missing")"
        case .timeOfDay(let start, let end): return "time of day \(start?.description ?? "…")–\(end?.description ?? "…")"
        case .dayOfWeek: return "day of week"
        case .weekday(let weekend): return weekend ? "weekend" : "weekday"
        case .thingStatus(let thing, let status, let equal): return "Thing \(thing) \(equal ? "is" : "is not") \(status)"
        case .interval(let minimum): return "less than \(minimum) since the last run"
        case .script: return "script condition"
        }
    }

    /// Performs `action` at once when it cannot pause — an update, a script that runs without suspending
    /// (``RuleScript/runWithoutSuspending(_:)``) — so a run of such actions makes no suspension; `false`: not
    /// performed, ``perform(_:_:depth:)`` does it.
    private func performWithoutSuspending(_ action: RuleAction, _ execution: RuleExecution) -> Bool {
        switch action.kind {
        case .itemStateUpdate(let item, let state):
            execution.postUpdateNow(item, state)
            return true
        case .script(let script):
            return script.runWithoutSuspending(execution)
        default:
            return false
        }
    }

    private func perform(_ action: RuleAction, _ execution: RuleExecution, depth: Int) async {
        switch action.kind {
        case .itemCommand(let item, let command):
            await execution.sendCommand(item, command)
        case .itemStateUpdate(let item, let state):  // performed at once (performWithoutSuspending)
            execution.postUpdateNow(item, state)
        case .runRules(let uids, let considerConditions):
            guard depth < Self.maxNesting else {
                execution.record("error: RunRuleAction nested deeper than \(Self.maxNesting) rules; not run")
                return
            }
            for uid in uids {
                guard let target = rule(uid) else {
                    execution.record("error: RunRuleAction: no rule \(uid)")
                    continue
                }
                execution.record("runs rule \"\(target.shownName)\"")
                await execute(target.uid, RuleTriggerEvent(triggerID: nil, summary: "run by rule \"\(execution.rule.shownName)\""),
                              considerConditions: considerConditions, depth: depth + 1)
            }
        case .enableRules(let uids, let enable):
            for uid in uids {
                do {
                    try setEnabled(uid, enable)
                    execution.record("\(enable ? "enabled" : "disabled") rule \(uid)")
                } catch {
                    execution.record("error: \(error.message)")
                }
            }
        case .script(let script):
            await script.run(execution)
        case .builtIn(_, let run):
            await run()
        }
    }
}

extension RuleEngine {
    /// Records what a run did after it slept (`Thread::sleep`) as a run-log line of its own (not counted as a run).
    func recordContinuation(_ rule: Rule, summary: String, effects: [RuleEffect]) {
        let run = RuleRun(at: scheduler.now, ruleUID: rule.uid, ruleName: rule.name, triggerParts: .text(summary), conditionsHeld: true,
                          conditionNote: "after Thread::sleep", effectRecords: RuleEffects(effects), isPeriodic: false, isTimer: true, isBuiltIn: false)
        record(run)
    }

    /// Adds a finished DSL run's work to the scenario's budget; past it (or at the third run that used up its
    /// own budget) the run of the scenario is ended as stalled, naming the rule (a `while (true) {}` in a
    /// minute cron would otherwise burn hours).
    func account(work steps: Int, rule: Rule) {
        let total = ruleWork.add(Int64(steps), ordering: .relaxed).newValue
        let runaway = steps > DSLLimits.maxStepsPerRun ? runawayRuns.add(1, ordering: .relaxed).newValue : 0
        let why: String
        if runaway == DSLLimits.maxRunawayRuns {
            why = "\(runaway) rule runs used up their budget of \(DSLLimits.maxStepsPerRun) steps (loops that never end)"
        } else if total > DSLLimits.maxStepsPerScenario, total - Int64(steps) <= DSLLimits.maxStepsPerScenario {
            why = "the rules did more than \(DSLLimits.maxStepsPerScenario) steps of work in this scenario"
        } else {
            return
        }
        if let kernel = scheduler as? SimulationKernel {
            kernel.stop(SimulationError(.stalled,
                "\(why); the last was rule \"\(rule.shownName)\" (\(rule.source)) at \(calendar.localDateTime(at: scheduler.now)). The run was ended."))
        }
    }
}
