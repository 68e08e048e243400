import Rules

/// A UI rule's `script.ScriptAction` or `script.ScriptCondition` of type `application/javascript` (what Main
/// UI's script editor and Blockly save): it runs in the world's Node.js child, in a context of its own (openHAB
/// makes one script engine per script module, on its first run), with the openhab-js globals, `ctx`, `ruleUID`
/// and the `event` object the add-on gives UI scripts.
///
/// An action runs wrapped in a function, as the add-on's default does (`return` works; `'use wrapper=false'` in
/// its first two lines runs it unwrapped). A condition's last expression decides (`'use wrapper'` wraps it, then
/// its `return` decides); anything but a boolean is logged as openHAB's `ScriptConditionHandler` logs it and the
/// condition fails.
public struct JSUIScript: RuleScript {
    /// The world's JavaScript.
    public let session: JavaScriptSession
    /// The rule's UID.
    public let ruleUID: String
    /// The module's `id`.
    public let moduleID: String
    /// The script as the rule file holds it.
    public let source: String
    /// The module's media type (`application/javascript`, …).
    public let mediaType: String
    /// A `script.ScriptCondition` (else a `script.ScriptAction`).
    public let isCondition: Bool
    /// How errors and stack frames name the module: `<rule file>#<rule UID>.<module id>`.
    public let key: String

    public init(session: JavaScriptSession, ruleUID: String, moduleID: String, source: String, mediaType: String,
                isCondition: Bool, file: String) {
        self.init(session: session, ruleUID: ruleUID, moduleID: moduleID, source: source, mediaType: mediaType,
                  isCondition: isCondition, key: "\(file)#\(ruleUID).\(moduleID)")
    }

    public var referencedItems: [String] { [] }

    public func run(_ execution: RuleExecution) async {
        _ = await session.runModule(self, execution)
    }

    public func holds(_ execution: RuleExecution) async -> Bool {
        await session.runModule(self, execution)
    }

    public func forNewEngine(_ instances: RuleScriptInstances) -> any RuleScript {
        let fresh = instances.instance(replacing: session) { session.fresh() }
        return JSUIScript(session: fresh, ruleUID: ruleUID, moduleID: moduleID, source: source, mediaType: mediaType,
                          isCondition: isCondition, key: key)
    }

    private init(session: JavaScriptSession, ruleUID: String, moduleID: String, source: String, mediaType: String,
                 isCondition: Bool, key: String) {
        self.session = session
        self.ruleUID = ruleUID
        self.moduleID = moduleID
        self.source = source
        self.mediaType = mediaType
        self.isCondition = isCondition
        self.key = key
    }

    /// The rule's triggers as the `event` object reads them (module types, configuration values as text).
    static func triggerSpecs(of rule: Rule) -> [JSTriggerSpec] {
        rule.triggers.map { trigger in
            JSTriggerSpec(id: trigger.id, type: trigger.moduleType, configuration: trigger.configuration.map { key, json in
                // A JSON string's text; numbers and booleans as written.
                let text = json.hasPrefix("\"") ? (try? JSWireValue.parse(Array(json.utf8)))?.stringValue : nil
                return (key, text ?? json)
            }, line: nil)
        }
    }
}
