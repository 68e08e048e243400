/// A rule as openHAB's rule engine holds it: triggers, conditions (all must hold) and actions run in order.
///
/// JSON UI rules (`RuleDTO`) and Rules DSL files both become this one shape, so one engine runs both.
public struct Rule: Sendable {
    /// The rule's UID (a DSL rule's is `<file stem>-<n>`, as openHAB names them).
    public let uid: String
    /// The name people read, and what scenario steps and expectations may use instead of the UID.
    public let name: String
    /// Free text.
    public var description: String?
    /// Tags.
    public var tags: [String]
    /// What starts a run; each trigger starts one run per matching event.
    public var triggers: [RuleTrigger]
    /// What must hold when a run starts, all of them.
    public var conditions: [RuleCondition]
    /// What a run does, in order.
    public var actions: [RuleAction]
    /// Where the rule was written (`rules/heating.rules:12`, `rules/ui.json: [0]`), for messages.
    public let source: String
    /// Whether openHAB's REST API calls it editable: UI rules are, rules from DSL files and built-ins are not.
    public var isEditable = true

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
        self.uid = uid
        self.name = name
        self.description = description
        self.tags = tags
        self.triggers = triggers
        self.conditions = conditions
        self.actions = actions
        self.source = source
    }
}
