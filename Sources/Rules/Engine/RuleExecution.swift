import Simulation
import SmartHome
import Synchronization

/// One run of a rule in progress: the trigger event, the world it acts on, and what it has done so far.
///
/// Scripts (the Rules DSL) act on the world only through this, so every command, update and log line a
/// run makes is recorded for the run log.
public final class RuleExecution: Sendable {
    /// The rule that runs.
    public let rule: Rule
    /// Why it runs.
    public let event: RuleTriggerEvent
    /// The engine (the world: Items, the bus, clock, scheduler).
    public let engine: RuleEngine
    private let recorded = Mutex(RuleEffects())

    init(rule: Rule, event: RuleTriggerEvent, engine: RuleEngine) {
        self.rule = rule
        self.event = event
        self.engine = engine
    }

    /// Now, in virtual time.
    public var now: SimInstant { engine.scheduler.now }
    /// The scenario's calendar.
    public var calendar: LocalCalendar { engine.calendar }
    /// The scheduler (for timers a script creates).
    public var scheduler: any SimulationScheduler { engine.scheduler }

    /// The Item called `name`, as it is now (`nil` if there is none).
    public func item(_ name: String) -> Item? { engine.item(name) }
    /// The state of the Item called `name` now (`nil` if there is none).
    public func itemState(_ name: String) -> State? { engine.itemState(name) }
    /// The type of the Item called `name` (`nil` if there is none).
    public func itemType(_ name: String) -> ItemType? { engine.itemType(name) }

    /// Sends a command given as text on the bus, as openHAB's `ScriptBusEvent.sendCommand(String, String)`
    /// (parsed by the Item's type; no REST call), recording the effect.
    /// - Returns: whether it was accepted; a refusal is recorded as an error effect.
    @discardableResult
    public func sendCommand(_ item: String, _ command: String) async -> Bool {
        if let name = engine.checkedItemName(item) { return await sendCommand(checked: name, command) }
        do {
            try await engine.runtime.sendCommand(text: command, to: item)  // refused as openHAB words it
            recorded.withLock { $0.append(.command(item: item, command)) }
            return true
        } catch {
            record("error: command \(command) to \(item) refused: \(error.message)")
            return false
        }
    }

    /// Sends a number's command to the Item with the checked name `name` (the caller has read its type), recording
    /// the effect with `text`, the number's text: what ``sendCommand(checked:_:)`` does with that text, without
    /// parsing it again (the command is ``ItemType/numberCommand(_:)``'s).
    func sendCommand(checked name: ItemName, _ command: Command, text: String) async {
        do {
            try await engine.runtime.sendCommand(command, to: name)
            recorded.withLock { $0.append(.command(item: name.rawValue, text)) }
        } catch {
            record("error: command \(text) to \(name) refused: \(error.message)")
        }
    }

    /// ``sendCommand(_:_:)`` to the Item with the checked name `name` (a rule's Item value).
    @discardableResult
    func sendCommand(checked name: ItemName, _ command: String) async -> Bool {
        do {
            try await engine.runtime.sendCommand(text: command, to: name)
            recorded.withLock { $0.append(.command(item: name.rawValue, command)) }
            return true
        } catch {
            record("error: command \(command) to \(name) refused: \(error.message)")
            return false
        }
    }

    /// Posts a state update given as text on the bus, as `ScriptBusEvent.postUpdate(String, String)`,
    /// recording the effect (``postUpdateNow(_:_:)``, for callers that are async anyway).
    @discardableResult
    public func postUpdate(_ item: String, _ state: String) async -> Bool { postUpdateNow(item, state) }

    /// Posts a state update given as text on the bus, recording the effect: at once, without suspending (an
    /// update applies to the Item and publishes its events; it never waits for a Thing handler).
    /// - Returns: whether it was accepted; a refusal is recorded as an error effect.
    @discardableResult
    public func postUpdateNow(_ item: String, _ state: String) -> Bool {
        if let name = engine.checkedItemName(item), let type = itemType(checked: name) { return postUpdateNow(checked: name, type: type, state) }
        do {
            try engine.runtime.postUpdate(text: state, to: item)  // refused as openHAB words it
            recorded.withLock { $0.append(.update(item: item, state)) }
            return true
        } catch {
            record("error: update \(state) of \(item) refused: \(error.message)")
            return false
        }
    }

    /// ``postUpdateNow(_:_:)`` to the Item with the checked name `name`, whose `type` the caller has just read: no
    /// second look-up.
    @discardableResult
    func postUpdateNow(checked name: ItemName, type: ItemType, _ state: String) -> Bool {
        do {
            try engine.runtime.postUpdate(text: state, to: name, type: type)
            recorded.withLock { $0.append(.update(item: name.rawValue, state)) }
            return true
        } catch {
            record("error: update \(state) of \(name) refused: \(error.message)")
            return false
        }
    }

    /// Posts a number's state to the Item with the checked name `name` (the caller has read its type), recording the
    /// effect with `text`, the number's text: what ``postUpdateNow(checked:type:_:)`` does with that text, without
    /// parsing it again (the state is ``ItemType/numberState(_:)``'s). An update of a number to a Number Item is
    /// never refused.
    func postUpdateNow(checked name: ItemName, _ state: State, text: String) {
        engine.runtime.postUpdateNow(state, to: name)
        recorded.withLock { $0.append(.update(item: name.rawValue, text)) }
    }

    /// `name` as a checked Item name (`nil`: not a valid one), checked once per written name.
    func checkedItemName(_ name: String) -> ItemName? { engine.checkedItemName(name) }
    /// The Item with the checked name `name`, as it is now (`nil` if there is none now).
    func item(checked name: ItemName) -> Item? { engine.runtime.items.current(name) }
    /// The state of the Item with the checked name `name` now (`nil` if there is none now), without copying the Item.
    func itemState(checked name: ItemName) -> State? { engine.runtime.items.state(of: name) }
    /// The type of the Item with the checked name `name` (`nil` if there is none now).
    func itemType(checked name: ItemName) -> ItemType? { engine.runtime.items.type(of: name) }

    /// A log line of the script (`logInfo("heating", "…")` → `INFO [heating] …`).
    public func log(level: String, logger: String, _ text: String) {
        record("\(level) [\(logger)] \(text)")
    }

    /// Puts what an action sent in the engine's outbox and the run log (`→ notification to host: …`).
    public func send(_ channel: OutboxMessage.Channel, action: String, to recipient: String, _ text: String,
                     scope: String? = nil, arguments: [String] = []) {
        let message = OutboxMessage(instant: now, rule: rule.name, channel: channel, action: action, recipient: recipient, text: text,
                                    scope: scope, arguments: arguments)
        let kept = engine.actionOutbox.send(message)
        record(kept ? "→ \(channel.rawValue) \(message.actionName) to \(recipient): \(text)"
                    : "error: the outbox holds \(ActionOutbox.capacity) messages; \(message.actionName) to \(recipient) was not kept (rules.outboxFull)")
    }

    /// The scripted answer of a Thing action (`nil`: none scripted, openHAB's "no result").
    public func scriptedResult(scope: String, method: String, thing: String) -> ScriptedResult? {
        engine.actionOutbox.response(scope: scope, method: method, thing: thing)?.result
    }

    /// The next 64 bits of the rules' random stream (from the scenario's seed).
    public func randomBits() -> UInt64 { engine.actionOutbox.nextRandomBits() }

    /// The scripted output of a command line (`nil`: none scripted).
    public func scriptedOutput(command: String) -> String? { engine.actionOutbox.response(command: command)?.output }

    /// The scripted response to a request (`nil`: none scripted).
    public func scriptedResponse(url: String, method: String) -> (status: Int, body: String)? {
        engine.actionOutbox.response(url: url, method: method).map { ($0.status, $0.output) }
    }

    /// The scenario's bank holidays (`ephemeris.bankHolidays`) by day; `nil` when it lists none.
    public var bankHolidays: [CivilDate: String]? { engine.actionOutbox.bankHolidays }

    /// The scenario's transformation file `name` (`en.map`), and the names there are.
    public func transformFile(named name: String) -> (file: TransformFile?, names: [String]) {
        let file = engine.actionOutbox.transform(named: name)
        return (file, file == nil ? engine.actionOutbox.transformNames : [])
    }

    /// The twin's own answer to a request for one of its URLs (`nil`: not the twin's).
    public func twinResponse(method: String, url: String, body: String) async -> (status: Int, body: String)? {
        guard let responder = engine.actionOutbox.twinResponder else { return nil }
        return await responder(method, url, body)
    }

    /// Records an effect line for the run log.
    public func record(_ effect: String) {
        recorded.withLock { $0.append(.line(effect)) }
    }

    /// What the run has done so far, as the run log words it.
    public var effects: [String] { recorded.withLock { $0.all.map(\.text) } }

    /// What the run has done so far, kept as parts: the run log makes the text only when it is read.
    var effectRecords: [RuleEffect] { recorded.withLock { $0.all } }

    /// The same, as the run's record keeps them (no array for a run that did one thing).
    var effectParts: RuleEffects { recorded.withLock { $0 } }
}
