import Rules

/// The action of a rule a JavaScript file registered: it runs the rule's `execute` in the world's child.
public struct JSRuleScript: RuleScript {
    /// The world's JavaScript.
    public let session: JavaScriptSession
    /// The rule's UID in the child.
    public let ruleUID: String
    /// The rule's triggers as the script made them (for the `event` object's fields).
    public let triggers: [JSTriggerSpec]
    /// What `GET /rest/rules` shows as the script: the file it comes from.
    public let source: String

    public init(session: JavaScriptSession, ruleUID: String, triggers: [JSTriggerSpec], file: String) {
        self.session = session
        self.ruleUID = ruleUID
        self.triggers = triggers
        self.source = "// JavaScript rule \(ruleUID) of \(file)"
    }

    public var referencedItems: [String] { [] }

    public func run(_ execution: RuleExecution) async {
        await session.run(ruleUID, triggers: triggers, execution)
    }

    /// A JavaScript rule is never a condition; it always holds.
    public func holds(_ execution: RuleExecution) async -> Bool { true }

    public func forNewEngine(_ instances: RuleScriptInstances) -> any RuleScript {
        let fresh = instances.instance(replacing: session) { session.fresh() }
        return JSRuleScript(session: fresh, ruleUID: ruleUID, triggers: triggers, sourceText: source)
    }

    private init(session: JavaScriptSession, ruleUID: String, triggers: [JSTriggerSpec], sourceText: String) {
        self.session = session
        self.ruleUID = ruleUID
        self.triggers = triggers
        self.source = sourceText
    }
}
