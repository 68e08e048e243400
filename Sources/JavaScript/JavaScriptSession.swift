import Foundation
import Rules
import Simulation
import SmartHome
import Synchronization

/// The JavaScript of one world: one `node` child with one `vm` context per script file, driven on the
/// world's virtual clock.
///
/// Rules of the files are ordinary engine rules whose action is a ``JSRuleScript``: a run sends the rule, its
/// `event` and the Item states changed since the last message; the child answers with what the run did
/// (commands, updates, log lines, outbox entries, timers), which the twin applies in order. Timers are kernel
/// events that call back into the child. Errors a script throws are logged as openHAB logs them and the run goes
/// on; a run over its wall-clock budget, a dead child or a malformed answer end the world's run, naming the rule.
public final class JavaScriptSession: Sendable {
    /// The folder, zone, seed and budget.
    public let setup: JSSetup
    /// The script files, in load order.
    public let files: [JSScriptFile]
    private let environment: [String: String]

    struct Mirror {
        var host: JSHostConnection?
        var engine: RuleEngine?
        /// Why the session stopped answering (after a child failure or a budget overrun).
        var broken: JavaScriptError?
        /// The Items mirrored in the child (the world's at the start), and the state each last sent.
        var names: [ItemName] = []
        var sent: [SmartHome.State?] = []
        /// Timer id (the child's) → the kernel event that fires it.
        var timers: [Int: TimerID] = [:]
        /// Timer id → how many times in a row its own firing set it again less than ``rapidTimerGapMilliseconds``
        /// ahead (an interval, or a timer that reschedules itself): past ``rapidTimerLimit`` the run ends.
        var rapidRepeats: [Int: Int] = [:]
        var depth = 0
        /// Whether the world has Things (the child gets them all at the start, for `things.*`), whether their
        /// changes go with each request (once code that reads Things is known), and each as last sent.
        var hasThings = false
        var liveThings = false
        var sentThings: [ThingUID: Thing] = [:]
        /// The UI rules' script modules whose code the child has (it compiles a module on its first run).
        var sentModules: Set<String> = []
        /// Whether the child counts the files' lines (the engine counts coverage; ``lineCoverage()``).
        var countsLines = false
    }

    private let state = Mutex(Mirror())
    /// The child that validated the files (``collect(modules:items:)``), kept for the first world's start: a
    /// scenario with JavaScript starts Node once, not once to validate and again to run. A session made by
    /// ``fresh()`` takes it over; it is stopped with the session that holds it when no world takes it.
    private let spare: Mutex<JSHostConnection?>
    /// Script files no world's child loads (``leaveOut(_:)``).
    private let leftOut = Mutex<Set<String>>([])

    /// How deep `rules.runRule` may nest.
    static let maxNesting = 16

    /// A session not started yet.
    public convenience init(setup: JSSetup, files: [JSScriptFile], environment: [String: String] = NodeExecutable.currentEnvironment) {
        self.init(setup: setup, files: files, environment: environment, spare: nil)
    }

    private init(setup: JSSetup, files: [JSScriptFile], environment: [String: String], spare: JSHostConnection?) {
        self.setup = setup
        self.files = files
        self.environment = environment
        self.spare = Mutex(spare)
    }

    /// A new, unstarted session for another world built from the same scenario, without the files left out
    /// (``leaveOut(_:)``); the first one made takes over the child that validated the files.
    public func fresh() -> JavaScriptSession {
        let skipped = leftOut.withLock { $0 }
        return JavaScriptSession(setup: setup, files: skipped.isEmpty ? files : files.filter { !skipped.contains($0.path) },
                                 environment: environment, spare: spare.withLock { $0.take() })
    }

    /// Leaves the files at `paths` (as ``JSScriptFile/path``) out of the worlds' children: a conf directory's scripts
    /// that openHAB's add-on fails to load too, skipped after validation. The child that validated them is not kept.
    public func leaveOut(_ paths: Set<String>) {
        guard !paths.isEmpty else { return }
        leftOut.withLock { $0.formUnion(paths) }
        spare.withLock { $0.take() }?.close()
    }

    /// Validates the files and UI rules' script `modules` in a child (``JavaScriptCollector``), with the scenario's
    /// own Items: per file what it registered or why it did not load, per module its syntax error. When every file
    /// loads and every module compiles, the child is kept for the first world's start (``fresh()``, ``start(engine:)``).
    /// - Throws: ``JavaScriptError`` `rules.jsNodeMissing` without Node.js, `rules.jsChild` when the child fails.
    public func collect(modules: [JSUIScript], items: [JavaScriptCollector.ItemSeed])
        throws(JavaScriptError) -> (files: [JavaScriptCollector.FileResult], modules: [JavaScriptError?]) {
        let host = try JavaScriptCollector.start(setup: setup, items: items, environment: environment)
        let collected: (files: [JavaScriptCollector.FileResult], modules: [JavaScriptError?])
        do { collected = try JavaScriptCollector.collect(files, modules: modules, on: host) } catch {
            host.close()
            throw error
        }
        if collected.files.allSatisfy({ $0.error == nil }), collected.modules.allSatisfy({ $0 == nil }) {
            let previous = spare.withLock { kept -> JSHostConnection? in
                defer { kept = host }
                return kept
            }
            previous?.close()
        } else {
            host.close()
        }
        return collected
    }

    /// The session the engine's JavaScript rules and UI rules' JavaScript modules share (`nil`: the engine runs
    /// no JavaScript).
    public static func attached(to engine: RuleEngine) -> JavaScriptSession? {
        for rule in engine.rules {
            for action in rule.actions {
                guard case .script(let script) = action.kind else { continue }
                if let js = script as? JSRuleScript { return js.session }
                if let js = script as? JSUIScript { return js.session }
            }
            for condition in rule.conditions {
                if case .script(let script) = condition.kind, let js = script as? JSUIScript { return js.session }
            }
        }
        return nil
    }

    /// The child's process id (`nil` before ``start(engine:)`` and after ``close()``).
    public var childPID: Int32? { state.withLock { $0.host?.child.pid } }

    /// Starts the child, mirrors the engine's Items into it and loads every file (their top-level code and
    /// `scriptLoaded` run now, at the world's start; what they do is logged as a run of the file).
    /// - Throws: ``JavaScriptError`` when Node.js is missing or a file no longer loads.
    public func start(engine: RuleEngine) async throws(JavaScriptError) {
        let items = await engine.runtime.items.all()
        var members: [String: [String]] = [:]
        for item in items { for group in item.groupNames { members[group, default: []].append(item.name.rawValue) } }
        let seeds = items.map { item in
            JSHostConnection.itemSeed(name: item.name.rawValue, type: item.type.rawValue, label: item.label, groups: item.groupNames,
                                      tags: item.tags, members: members[item.name.rawValue] ?? [], state: item.state.description)
        }
        var current = setup
        current.startMilliseconds = engine.scheduler.now.unixMilliseconds
        var kept: JSHostConnection?
        if let validated = spare.withLock({ $0.take() }) {
            // The child that validated the files: `init` makes it as a child just started. One that died since
            // (killed from outside) is replaced by a new one.
            do {
                try validated.initialize(startMilliseconds: current.startMilliseconds, items: seeds)
                kept = validated
            } catch {
                validated.close()
            }
        }
        let host: JSHostConnection
        if let kept { host = kept } else {
            host = try JSHostConnection(node: try NodeExecutable.locate(environment: environment), setup: current, items: seeds)
        }
        let countsLines = engine.coverage != nil
        if countsLines {
            do { try host.startLineCoverage() } catch {
                host.close()
                throw error
            }
        }
        let things = await engine.runtime.things.all()
        // Files that name Things get them before they load (their top-level code may read them), and their
        // changes with every request; otherwise Things go to the child once code that reads them shows up.
        let live = !things.isEmpty && files.contains { Self.mayReadThings($0.source) }
        if live {
            do throws(JavaScriptError) {
                // In the registry's (UID) order.
                let records = JSWireValue.object(things.map { (key: $0.uid.description, value: Self.record(of: $0)) })
                if let error = try host.request(["op": "things", "things": records]).error { throw error }
            } catch {
                host.close()
                throw error
            }
        }
        state.withLock {
            $0.hasThings = !things.isEmpty
            $0.liveThings = live
            $0.countsLines = countsLines
            if live { for thing in things { $0.sentThings[thing.uid] = thing } }
            $0.host = host
            $0.engine = engine
            $0.names = items.map(\.name)
            $0.sent = items.map(\.state)
        }
        for file in files {
            let reply: JSReply
            do {
                reply = try host.load(path: file.path, source: file.source, nowMilliseconds: engine.scheduler.now.unixMilliseconds)
            } catch {
                close()
                throw error
            }
            if let error = reply.error {
                close()
                throw error
            }
            if reply.needsThings { state.withLock { $0.liveThings = $0.hasThings } }
            if !reply.effects.isEmpty {
                let carrier = Rule(uid: file.path, name: file.path, triggers: [], actions: [], source: file.path)
                await engine.runDetached(carrier, summary: "script \(file.path) loaded") { execution in
                    await apply(reply.effects, execution)
                }
            }
        }
    }

    /// Stops the child and forgets the timers (a closing world).
    public func close() {
        let host = state.withLock { state -> JSHostConnection? in
            defer {
                state.host = nil
                state.engine = nil
                state.timers.removeAll()
            }
            return state.host
        }
        host?.close()
    }

    // MARK: Line coverage (`--coverage`; the requests are JSLineCoverage's)

    /// Per script file (its ``JSScriptFile/path``), each line holding a statement or a call and how often it ran
    /// since the start, top-level code included; `nil` when the engine counts no coverage, or the child is gone or
    /// cannot answer (then the run has already ended with its error, and the files count per rule).
    public func lineCoverage() -> [(path: String, lines: [Int: Int])]? {
        guard let host = state.withLock({ $0.countsLines && $0.broken == nil ? $0.host : nil }) else { return nil }
        return try? host.lineCoverage()
    }

    // MARK: Runs

    /// One level deeper of runs inside runs (`runRule`); `false` (recorded as an error, the depth restored) past
    /// ``maxNesting``. Each `true` is paired with ``leaveNesting()``.
    private func enterNesting(_ execution: RuleExecution) -> Bool {
        let depth = state.withLock { state -> Int in
            state.depth += 1
            return state.depth
        }
        guard depth <= Self.maxNesting else {
            leaveNesting()
            execution.record("error: rules.runRule nested deeper than \(Self.maxNesting) rules; not run")
            return false
        }
        return true
    }

    private func leaveNesting() { state.withLock { $0.depth -= 1 } }

    /// Runs rule `uid` in the child for `execution`.
    func run(_ uid: String, triggers: [JSTriggerSpec], _ execution: RuleExecution) async {
        let event = JSEventObject.make(execution.event, rule: execution.rule, triggers: triggers)
        guard enterNesting(execution) else { return }
        defer { leaveNesting() }
        var message: [(key: String, value: JSWireValue)] = [("op", "run"), ("rule", .string(uid)), ("event", event)]
        if let arguments = execution.event.arguments { message.append(("args", .string(arguments))) }
        await exchange(message, execution, what: "rule \"\(execution.rule.name)\" (\(execution.rule.source))")
    }

    /// Runs a UI rule's JavaScript script module for `execution`; for a condition, whether it holds.
    func runModule(_ script: JSUIScript, _ execution: RuleExecution) async -> Bool {
        let kind = script.isCondition ? "condition" : "action"
        let what = "script \(kind) \(script.moduleID) of rule \"\(execution.rule.name)\" (\(execution.rule.source))"
        guard enterNesting(execution) else { return false }
        defer { leaveNesting() }
        let event = JSEventObject.make(execution.event, rule: execution.rule, triggers: JSUIScript.triggerSpecs(of: execution.rule))
        var message: [(key: String, value: JSWireValue)] = [("op", "module"), ("key", .string(script.key)), ("rule", .string(script.ruleUID)),
                                                            ("condition", .bool(script.isCondition)), ("event", event),
                                                            ("triggered", .bool(execution.event.triggerID != nil))]
        if let arguments = execution.event.arguments { message.append(("args", .string(arguments))) }
        let first = state.withLock { state -> Bool in
            if !state.liveThings, state.hasThings, Self.mayReadThings(script.source) { state.liveThings = true }
            return !state.sentModules.contains(script.key)
        }
        if first { message.append(("source", .string(script.source))) }
        guard let reply = await exchange(message, execution, what: what) else { return false }
        if reply.error == nil { _ = state.withLock { $0.sentModules.insert(script.key) } }
        guard script.isCondition else { return true }
        if let shown = reply.notBoolean {
            // openHAB's ScriptConditionHandler: "Script did not return a boolean value, but '…'", and it fails.
            execution.record("error: rules.jsRuntime: \(what) did not return a boolean value, but '\(shown)'; the condition does not hold")
        }
        return reply.error == nil && reply.holds == true
    }

    /// A timer that its own firings set again less than this far ahead (milliseconds of virtual time) …
    static let rapidTimerGapMilliseconds: Int64 = 100
    /// … this many times in a row ends the run (`rules.jsBudget`): `setInterval(f, 0)` would otherwise be a
    /// round trip to the child every simulated millisecond, 86 million a day — hours of wall time for nothing.
    /// openHAB runs such a timer; the twin refuses to spend that time, and says which timer it was.
    static let rapidTimerLimit = 10_000

    /// Fires the child's timer `id`.
    private func fire(_ id: Int, label: String, ruleUID: String?, engine: RuleEngine) async {
        let owner = ruleUID.flatMap { engine.rule($0) }
        let rule = owner ?? Rule(uid: files.first?.path ?? "js", name: files.first?.path ?? "js", triggers: [], actions: [], source: files.first?.path ?? "js")
        _ = state.withLock { $0.timers.removeValue(forKey: id) }
        await engine.runDetached(rule, summary: "\(label) of rule \"\(rule.name)\"") { execution in
            await exchange([("op", "fire"), ("id", .integer(Int64(id)))], execution, what: "\(label) of rule \"\(rule.name)\"", firing: id)
        }
        // A timer its firing did not set again is done: so is its count.
        state.withLock { if $0.timers[id] == nil { $0.rapidRepeats[id] = nil } }
    }

    /// Whether timer `id`, set again by its own firing to `atMs`, has now repeated too fast too often (then the run
    /// is ended, naming it); a slower setting starts the count again.
    private func repeatsTooFast(_ id: Int, atMs: Int64, label: String, rule: String?, now: SimInstant) -> Bool {
        let rapid = atMs - now.unixMilliseconds < Self.rapidTimerGapMilliseconds
        let count = state.withLock { state -> Int in
            guard rapid else { state.rapidRepeats[id] = nil; return 0 }
            state.rapidRepeats[id, default: 0] += 1
            return state.rapidRepeats[id] ?? 0
        }
        guard count > Self.rapidTimerLimit else { return false }
        fail(JavaScriptError(.budget, "it fired \(Self.rapidTimerLimit) times in a row, each time set again less than \(Self.rapidTimerGapMilliseconds) ms ahead (an interval that short, or a timer that reschedules itself that soon, is a round trip to the Node.js child every few simulated milliseconds: hours of wall time for a simulated day)."),
             during: "\(label)\(rule.map { " of rule \"\($0)\"" } ?? "")")
        return true
    }

    /// Sends `message` (`op` and its fields) with the clock, the Item states (and Things) changed since the last
    /// message, answers the child's questions, and applies what the run did; the child's answer, `nil` when it did
    /// not run.
    /// `firing`: the timer whose firing this is (its own setting again is checked by ``repeatsTooFast``).
    @discardableResult
    private func exchange(_ message: [(key: String, value: JSWireValue)], _ execution: RuleExecution, what: String,
                          firing: Int? = nil) async -> JSReply? {
        let registry = execution.engine.runtime.items
        let things = state.withLock { $0.liveThings } ? await execution.engine.runtime.things.all() : nil
        let prepared = state.withLock { state -> (JSHostConnection, [(key: String, value: JSWireValue)], JSWireValue?)? in
            guard state.broken == nil, let host = state.host else { return nil }
            // The states changed since the last message (State comparison is cheap; text only for those), in the
            // Items' order.
            var delta: [(key: String, value: JSWireValue)] = []
            for index in state.names.indices {
                let now = registry.state(of: state.names[index])
                if now != state.sent[index] {
                    state.sent[index] = now
                    delta.append((state.names[index].rawValue, .string(now?.description ?? "NULL")))
                }
            }
            // The Things changed since the last message, in the registry's (UID) order.
            var thingDelta: JSWireValue?
            if let things {
                var changed: [(key: String, value: JSWireValue)] = []
                for thing in things where state.sentThings[thing.uid] != thing {
                    state.sentThings[thing.uid] = thing
                    changed.append((thing.uid.description, Self.record(of: thing)))
                }
                thingDelta = .object(changed)
            }
            return (host, delta, thingDelta)
        }
        guard let (host, delta, thingDelta) = prepared else {
            execution.record("error: rules.jsChild: the JavaScript host is stopped; \(what) did not run")
            return nil
        }
        var request = message
        request.reserveCapacity(message.count + 3)
        request.append(("now", .integer(execution.now.unixMilliseconds)))
        request.append(("states", .object(delta)))
        // Sent (even empty) while Things are live: the child then knows its mirror is current.
        if let thingDelta { request.append(("things", thingDelta)) }
        let reply: JSReply
        do {
            let engine = execution.engine, now = execution.now
            reply = try await host.request(.object(request), childEnforces: false) { question in
                switch question["q"]?.stringValue {
                case "item": JSItemAnswer.answer(question, engine: engine)
                case "http": await JSActionAnswer.http(question, execution: execution)
                case let q? where JSActionAnswer.questions.contains(q): JSActionAnswer.answer(question, execution: execution)
                default: JSPersistenceAnswer.answer(question, engine: engine, now: now)
                }
            }
        } catch {
            execution.record("error: \(error.code.rawValue): \(what) \(error.message)")
            fail(error, during: what)
            return nil
        }
        if reply.needsThings { state.withLock { $0.liveThings = $0.hasThings } }
        await apply(reply.effects, execution, firing: firing)
        if let error = reply.error {
            let located = error.location.map { " (\($0))" } ?? ""
            execution.record("error: \(error.code.rawValue): \(error.message)\(located)")
            if error.code == .budget { fail(error, during: what) }
        }
        return reply
    }

    /// Whether a script's text may read Things (`things.…`, `actions.Things`, `getThing…`): then their changes go
    /// to the child with each request; otherwise it keeps the registry as the world started until the child
    /// reports code that reads them.
    static func mayReadThings(_ source: String) -> Bool { source.contains("hing") }

    /// A Thing as `things.getThing(uid)` reads it in the child (its members in a fixed order).
    private static func record(of thing: Thing) -> JSWireValue {
        ["uid": .string(thing.uid.description), "label": .stringOrNull(thing.label), "location": .stringOrNull(thing.location),
         "thingTypeUID": .string(thing.thingTypeUID.description), "status": .string(thing.statusInfo.status.rawValue),
         "statusDetail": .string(thing.statusInfo.statusDetail.rawValue), "description": .stringOrNull(thing.statusInfo.description)]
    }

    /// Marks the session broken and ends the world's run, naming what failed.
    private func fail(_ error: JavaScriptError, during what: String? = nil) {
        let (engine, host) = state.withLock { state -> (RuleEngine?, JSHostConnection?) in
            if state.broken == nil { state.broken = error }
            return (state.engine, state.host)
        }
        if error.code == .budget || error.code == .child { host?.close() }
        guard let engine, let kernel = engine.scheduler as? SimulationKernel else { return }
        let place = error.code == .budget ? "" : error.location.map { " at \($0)" } ?? ""
        kernel.stop(SimulationError(.stalled,
            "\(error.code.rawValue): \(what.map { "\($0): " } ?? "")\(error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message)\(place), at \(engine.calendar.localDateTime(at: engine.scheduler.now)). The run was ended."))
    }

    /// Applies what a run did, in order (`firing`: the timer whose firing the run was).
    private func apply(_ effects: [JSEffect], _ execution: RuleExecution, firing: Int? = nil) async {
        let engine = execution.engine
        for effect in effects {
            switch effect {
            case .command(let item, let value):
                await execution.sendCommand(item, value)
            case .update(let item, let value):
                await execution.postUpdate(item, value)
            case .log(let level, let logger, let text):
                execution.log(level: level, logger: logger, text)
            case .outbox(let channel, let action, let recipient, let text):
                guard let kind = OutboxMessage.Channel(rawValue: channel) else {
                    execution.record("error: rules.jsProtocol: unknown outbox channel \(channel)")
                    continue
                }
                execution.send(kind, action: action, to: recipient, text)
            case .timer(let id, let atMs, let label, let rule):
                if id == firing, repeatsTooFast(id, atMs: atMs, label: label, rule: rule.flatMap { engine.rule($0)?.name }, now: engine.scheduler.now) { continue }
                let at = max(SimInstant(unixMilliseconds: atMs), engine.scheduler.now)
                let kernelID = engine.scheduler.schedule(at: at, label: "js \(label)") { [self] _ in
                    await fire(id, label: label, ruleUID: rule, engine: engine)
                }
                let old = state.withLock { $0.timers.updateValue(kernelID, forKey: id) }
                if let old { engine.scheduler.cancel(old) }
            case .cancel(let id):
                if let old = state.withLock({ $0.rapidRepeats[id] = nil; return $0.timers.removeValue(forKey: id) }) { engine.scheduler.cancel(old) }
            case .enable(let rule, let enabled):
                do {
                    try engine.setEnabled(rule, enabled)
                    execution.record("\(enabled ? "enabled" : "disabled") rule \(rule)")
                } catch {
                    execution.record("error: \(error.code.rawValue): \(error.message)")
                }
            case .runRule(let uid, let considerConditions, let arguments):
                guard let target = engine.rule(uid) else {
                    execution.record("error: rules.unknownRule: rules.runRule(\"\(uid)\"): no such rule")
                    continue
                }
                execution.record("runs rule \"\(target.name)\"")
                try? await engine.runNow(target.uid, considerConditions: considerConditions, reason: "run by rule \"\(execution.rule.name)\"",
                                         arguments: arguments)
            case .thingAction(let scope, let method, let thing, let arguments):
                execution.send(.action, action: method, to: thing, arguments.joined(separator: ", "), scope: scope, arguments: arguments)
            case .note(let text):
                execution.record(text)
            }
        }
    }
}
