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
        var depth = 0
    }

    private let state = Mutex(Mirror())

    /// How deep `rules.runRule` may nest.
    static let maxNesting = 16

    /// A session not started yet.
    public init(setup: JSSetup, files: [JSScriptFile], environment: [String: String] = NodeExecutable.currentEnvironment) {
        self.setup = setup
        self.files = files
        self.environment = environment
    }

    /// A new, unstarted session for another world built from the same scenario.
    public func fresh() -> JavaScriptSession { JavaScriptSession(setup: setup, files: files, environment: environment) }

    /// The session the engine's JavaScript rules share (`nil`: the engine runs no JavaScript).
    public static func attached(to engine: RuleEngine) -> JavaScriptSession? {
        for rule in engine.rules {
            for action in rule.actions {
                if case .script(let script) = action.kind, let js = script as? JSRuleScript { return js.session }
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
        let node = try NodeExecutable.locate(environment: environment)
        let items = await engine.runtime.items.all()
        var members: [String: [String]] = [:]
        for item in items { for group in item.groupNames { members[group, default: []].append(item.name.rawValue) } }
        let seeds = items.map { item in
            JSHostConnection.itemSeed(name: item.name.rawValue, type: item.type.rawValue, label: item.label, groups: item.groupNames,
                                      tags: item.tags, members: members[item.name.rawValue] ?? [], state: item.state.description)
        }
        var current = setup
        current.startMilliseconds = engine.scheduler.now.unixMilliseconds
        let host = try JSHostConnection(node: node, setup: current, items: seeds)
        state.withLock {
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

    // MARK: Runs

    /// Runs rule `uid` in the child for `execution`.
    func run(_ uid: String, triggers: [JSTriggerSpec], _ execution: RuleExecution) async {
        let event = JSEventObject.make(execution.event, rule: execution.rule, triggers: triggers)
        let depth = state.withLock { state -> Int in
            state.depth += 1
            return state.depth
        }
        defer { state.withLock { $0.depth -= 1 } }
        guard depth <= Self.maxNesting else {
            execution.record("error: rules.runRule nested deeper than \(Self.maxNesting) rules; not run")
            return
        }
        await exchange([("op", "run"), ("rule", .string(uid)), ("event", event)], execution, what: "rule \"\(execution.rule.name)\" (\(execution.rule.source))")
    }

    /// Fires the child's timer `id`.
    private func fire(_ id: Int, label: String, ruleUID: String?, engine: RuleEngine) async {
        let owner = ruleUID.flatMap { engine.rule($0) }
        let rule = owner ?? Rule(uid: files.first?.path ?? "js", name: files.first?.path ?? "js", triggers: [], actions: [], source: files.first?.path ?? "js")
        _ = state.withLock { $0.timers.removeValue(forKey: id) }
        await engine.runDetached(rule, summary: "\(label) of rule \"\(rule.name)\"") { execution in
            await exchange([("op", "fire"), ("id", .integer(Int64(id)))], execution, what: "\(label) of rule \"\(rule.name)\"")
        }
    }

    /// Sends `message` (`op` and its fields) with the clock and the Item states changed since the last message,
    /// answers the child's questions, and applies what the run did.
    private func exchange(_ message: [(key: String, value: JSWireValue)], _ execution: RuleExecution, what: String) async {
        let registry = execution.engine.runtime.items
        let prepared = state.withLock { state -> (JSHostConnection, [(key: String, value: JSWireValue)])? in
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
            return (host, delta)
        }
        guard let (host, delta) = prepared else {
            execution.record("error: rules.jsChild: the JavaScript host is stopped; \(what) did not run")
            return
        }
        let request = JSWireValue.object(message + [("now", .integer(execution.now.unixMilliseconds)), ("states", .object(delta))])
        let reply: JSReply
        do {
            let engine = execution.engine, now = execution.now
            reply = try host.request(request, childEnforces: false) { question in
                question["q"]?.stringValue == "item" ? JSItemAnswer.answer(question, engine: engine)
                    : JSPersistenceAnswer.answer(question, engine: engine, now: now)
            }
        } catch {
            execution.record("error: \(error.code.rawValue): \(what) \(error.message)")
            fail(error, during: what)
            return
        }
        await apply(reply.effects, execution)
        if let error = reply.error {
            let located = error.location.map { " (\($0))" } ?? ""
            execution.record("error: \(error.code.rawValue): \(error.message)\(located)")
            if error.code == .budget { fail(error, during: what) }
        }
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

    /// Applies what a run did, in order.
    private func apply(_ effects: [JSEffect], _ execution: RuleExecution) async {
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
                let at = max(SimInstant(unixMilliseconds: atMs), engine.scheduler.now)
                let kernelID = engine.scheduler.schedule(at: at, label: "js \(label)") { [self] _ in
                    await fire(id, label: label, ruleUID: rule, engine: engine)
                }
                let old = state.withLock { $0.timers.updateValue(kernelID, forKey: id) }
                if let old { engine.scheduler.cancel(old) }
            case .cancel(let id):
                if let old = state.withLock({ $0.timers.removeValue(forKey: id) }) { engine.scheduler.cancel(old) }
            case .enable(let rule, let enabled):
                do {
                    try engine.setEnabled(rule, enabled)
                    execution.record("\(enabled ? "enabled" : "disabled") rule \(rule)")
                } catch {
                    execution.record("error: \(error.code.rawValue): \(error.message)")
                }
            case .runRule(let uid):
                guard let target = engine.rule(uid) else {
                    execution.record("error: rules.unknownRule: rules.runRule(\"\(uid)\"): no such rule")
                    continue
                }
                execution.record("runs rule \"\(target.name)\"")
                try? await engine.runNow(target.uid, reason: "run by rule \"\(execution.rule.name)\"")
            }
        }
    }
}
