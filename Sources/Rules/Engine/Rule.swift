/// A rule as openHAB's rule engine holds it: triggers, conditions (all must hold) and actions run in order.
///
/// JSON UI rules (`RuleDTO`) and Rules DSL files both become this one shape, so one engine runs both.
/// Its fields sit behind one reference (``Storage``): a run copies its rule into its execution, its interpreter
/// and the engine's look-up, and each copy is one retain, not one per field. A change (at load) makes new storage.
public struct Rule: Sendable {
    /// The rule's fields, as declared below.
    struct Fields: Sendable {
        var uid: String
        var name: String
        var description: String?
        var tags: [String]
        var triggers: [RuleTrigger]
        var conditions: [RuleCondition]
        var actions: [RuleAction]
        var source: String
        var isEditable = true
    }

    /// ``Fields`` behind one reference, never changed in place.
    final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }

    /// The rule's UID (a DSL rule's is `<file stem>-<n>`, as openHAB names them).
    public var uid: String { storage.fields.uid }
    /// The name people read, and what scenario steps and expectations may use instead of the UID.
    public var name: String { storage.fields.name }
    /// Free text.
    public var description: String? {
        get { storage.fields.description }
        set { change { $0.description = newValue } }
    }
    /// Tags.
    public var tags: [String] {
        get { storage.fields.tags }
        set { change { $0.tags = newValue } }
    }
    /// What starts a run; each trigger starts one run per matching event.
    public var triggers: [RuleTrigger] {
        get { storage.fields.triggers }
        set { change { $0.triggers = newValue } }
    }
    /// What must hold when a run starts, all of them.
    public var conditions: [RuleCondition] {
        get { storage.fields.conditions }
        set { change { $0.conditions = newValue } }
    }
    /// What a run does, in order.
    public var actions: [RuleAction] {
        get { storage.fields.actions }
        set { change { $0.actions = newValue } }
    }
    /// Where the rule was written (`rules/heating.rules:12`, `rules/ui.json: [0]`), for messages.
    public var source: String { storage.fields.source }
    /// Whether openHAB's REST API calls it editable: UI rules are, rules from DSL files and built-ins are not.
    public var isEditable: Bool {
        get { storage.fields.isEditable }
        set { change { $0.isEditable = newValue } }
    }

    /// Whether it is one of the twin's built-in automations (its actions log themselves, so its runs are
    /// counted but not written to the run log).
    public var isBuiltIn: Bool { actions.contains { if case .builtIn = $0.kind { true } else { false } } }

    /// The name as the run log shows it: ``name`` itself, or its first 120 characters and its length when it is
    /// longer, so a run's log line costs the same whatever the name (a 1 MB name on a per-minute cron would
    /// otherwise write a megabyte a run).
    public var shownName: String { Self.shown(name) }

    /// `name` as the run log shows it (see ``shownName``).
    public static func shown(_ name: String) -> String {
        let limit = 120
        guard name.utf8.count > limit, let cut = name.index(name.startIndex, offsetBy: limit, limitedBy: name.endIndex),
              cut < name.endIndex else { return name }
        return "\(name[..<cut])… (\(name.utf8.count) bytes)"  // the byte count is O(1); counting characters walked the name at every run
    }

    /// Creates a rule.
    public init(uid: String, name: String, description: String? = nil, tags: [String] = [],
                triggers: [RuleTrigger], conditions: [RuleCondition] = [], actions: [RuleAction], source: String) {
        storage = Storage(Fields(uid: uid, name: name, description: description, tags: tags, triggers: triggers,
                                 conditions: conditions, actions: actions, source: source))
    }
}
