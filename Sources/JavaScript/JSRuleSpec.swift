/// A rule a script registered with `rules.JSRule` / `rules.SwitchableJSRule`.
public struct JSRuleSpec: Sendable, Equatable {
    /// The rule's UID (`config.id` made safe, else `<name>-<file stem>-<n>`).
    public let id: String
    /// The rule's name.
    public let name: String
    /// The rule's description.
    public let description: String?
    /// The rule's tags.
    public let tags: [String]
    /// The rule's triggers, in order.
    public let triggers: [JSTriggerSpec]
    /// The Switch Item of a `SwitchableJSRule` (its state ON/OFF enables/disables the rule).
    public let switchItem: String?
    /// The line of the `rules.JSRule` call, when known.
    public let line: Int?
}
