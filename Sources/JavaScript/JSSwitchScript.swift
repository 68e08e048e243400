import Rules

/// The companion rule of a `rules.SwitchableJSRule`: its Switch Item's state enables (ON) or disables (OFF)
/// the rule, at the start of the run and whenever the Item changes.
public struct JSSwitchScript: RuleScript {
    /// The rule switched.
    public let ruleUID: String
    /// The Switch Item.
    public let item: String

    public init(ruleUID: String, item: String) {
        self.ruleUID = ruleUID
        self.item = item
    }

    public var source: String { "// enables rule \(ruleUID) while \(item) is not OFF" }
    public var referencedItems: [String] { [item] }

    public func run(_ execution: RuleExecution) async {
        let on = execution.itemState(item)?.description != "OFF"
        guard execution.engine.isEnabled(ruleUID) != on else { return }
        do {
            try execution.engine.setEnabled(ruleUID, on)
            execution.record("\(on ? "enabled" : "disabled") rule \(ruleUID)")
        } catch {
            execution.record("error: \(error.code.rawValue): \(error.message)")
        }
    }

    public func holds(_ execution: RuleExecution) async -> Bool { true }
}
