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
    /// The Items the script names (checked to exist before a run).
    var referencedItems: [String] { get }
    /// Runs the script as an action; effects and log lines go to `execution`.
    func run(_ execution: RuleExecution) async
    /// Evaluates the script as a condition (the value of its last expression; `false` on an error, logged).
    func holds(_ execution: RuleExecution) async -> Bool
    /// The persistence extensions the script calls on an Item it names (`Temp.averageSince(…)`), so a
    /// scenario can check before a run that its persistence records those Items.
    var persistenceReads: [ScriptPersistenceRead] { get }
    /// The `transform("MAP", "en.map", …)` calls with a literal type and file name, so a scenario can
    /// check before a run that it loads those files.
    var transformUses: [ScriptTransformUse] { get }
}

extension RuleScript {
    public var persistenceReads: [ScriptPersistenceRead] { [] }
    public var transformUses: [ScriptTransformUse] { [] }
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
