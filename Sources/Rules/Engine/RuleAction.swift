/// An action module; a run performs a rule's actions in order.
public struct RuleAction: Sendable {
    /// What is done.
    public enum Kind: Sendable {
        /// `core.ItemCommandAction`: send `command` (text, parsed for the Item's type as REST does).
        case itemCommand(item: String, command: String)
        /// `core.ItemStateUpdateAction`: post `state` as an update.
        case itemStateUpdate(item: String, state: String)
        /// `core.RunRuleAction`: run these rules now, checking their conditions or not.
        case runRules([String], considerConditions: Bool)
        /// `core.RuleEnablementAction`: enable or disable these rules.
        case enableRules([String], enable: Bool)
        /// `script.ScriptAction` (a Rules DSL body), or the body of a DSL rule.
        case script(any RuleScript)
        /// A built-in automation of the booking side (the weather watcher): Swift code, which keeps its own
        /// log of what it did and why.
        case builtIn(name: String, run: @Sendable () async -> Void)
    }

    /// The module's `id`.
    public let id: String
    /// What is done.
    public let kind: Kind

    /// Creates an action.
    public init(id: String, _ kind: Kind) {
        self.id = id
        self.kind = kind
    }
}

/// Code a rule runs: a Rules DSL body (as action) or expression (as condition). The DSL lives beside the
/// engine; the engine only calls this.
public protocol RuleScript: Sendable {
    /// The script's text, as `GET /rest/rules` shows it in the module's `script` configuration.
    var source: String { get }
    /// The script's media type, as `GET /rest/rules` shows it in the module's `type` configuration (the Rules
    /// DSL's, unless the script says otherwise).
    var mediaType: String { get }
    /// The Items the script names (checked to exist before a run).
    var referencedItems: [String] { get }
    /// Runs the script as an action; effects and log lines go to `execution`.
    func run(_ execution: RuleExecution) async
    /// Runs the script as an action at once, as ``run(_:)`` does, when nothing in it can pause (the engine's
    /// synchronous path: no suspension per run); returns `false`, having done nothing, when it may pause.
    func runWithoutSuspending(_ execution: RuleExecution) -> Bool
    /// Evaluates the script as a condition (the value of its last expression; `false` on an error, logged).
    func holds(_ execution: RuleExecution) async -> Bool
    /// The persistence extensions the script calls on an Item it names (`Temp.averageSince(…)`), so a
    /// scenario can check before a run that its persistence records those Items.
    var persistenceReads: [ScriptPersistenceRead] { get }
    /// The `transform("MAP", "en.map", …)` calls with a literal type and file name, so a scenario can
    /// check before a run that it loads those files.
    var transformUses: [ScriptTransformUse] { get }
    /// The script as a new rule engine runs it: what it keeps from run to run (a Rules DSL file's globals, a
    /// rule's one thread) made anew, and still shared by the scripts that shared it (`instances` remembers what
    /// was made). A scenario's rules are loaded into every world built from it — a suite's, the fuzzer's repeat
    /// with typed seams, a test's second run — and no run may see what an earlier world left in them.
    /// Scripts that keep nothing return themselves (the default).
    func forNewEngine(_ instances: RuleScriptInstances) -> any RuleScript
}

extension RuleScript {
    public var mediaType: String { RuleEngine.dslMediaType }
    public var persistenceReads: [ScriptPersistenceRead] { [] }
    public var transformUses: [ScriptTransformUse] { [] }
    public func runWithoutSuspending(_ execution: RuleExecution) -> Bool { false }
    public func forNewEngine(_ instances: RuleScriptInstances) -> any RuleScript { self }
}

/// The state made anew while rules are loaded into one engine (``RuleScript/forNewEngine(_:)``): each shared
/// object is replaced once, so the scripts that shared the old one share the new one.
public final class RuleScriptInstances {
    private var made: [ObjectIdentifier: AnyObject] = [:]

    public init() {}

    /// The replacement of `old`, made by `make` the first time it is asked for.
    public func instance<Object: AnyObject>(replacing old: Object, _ make: () -> Object) -> Object {
        if let known = made[ObjectIdentifier(old)] as? Object { return known }
        let new = make()
        made[ObjectIdentifier(old)] = new
        return new
    }
}

extension Rule {
    /// The rule as a new engine runs it: its scripts' run-to-run state made anew (``RuleScript/forNewEngine(_:)``).
    func forNewEngine(_ instances: RuleScriptInstances) -> Rule {
        var rule = self
        rule.conditions = conditions.map { condition in
            guard case .script(let script) = condition.kind else { return condition }
            return RuleCondition(id: condition.id, .script(script.forNewEngine(instances)))
        }
        rule.actions = actions.map { action in
            guard case .script(let script) = action.kind else { return action }
            return RuleAction(id: action.id, .script(script.forNewEngine(instances)))
        }
        return rule
    }
}

/// A `transform`/`transformRaw` call with a literal type and function: where (`file:line:column`).
public struct ScriptTransformUse: Sendable, Hashable {
    public let type: String
    public let function: String
    public let location: String

    public init(type: String, function: String, location: String) {
        self.type = type
        self.function = function
        self.location = location
    }
}

/// A persistence extension a script calls on a named Item: the Item, the method and where (`file:line:column`).
public struct ScriptPersistenceRead: Sendable, Hashable {
    public let item: String
    public let method: String
    public let location: String

    public init(item: String, method: String, location: String) {
        self.item = item
        self.method = method
        self.location = location
    }
}
