import SmartHome

/// A virtual Item of the scenario's `items` list: an openHAB Item with no device behind it (a proxy or
/// helper Item users' rules read and write), optionally a Group with members.
public struct VirtualItemSpec: Sendable {
    /// The Item name (openHAB's rule: letters, digits, underscores).
    public var name: String
    /// The Item type (`Switch`, `Number:Temperature`, `DateTime`, `Group`, …).
    public var type: ItemType
    /// The initial state as text (`nil`: `NULL`).
    public var state: String?
    /// The label.
    public var label: String?
    /// A Group's members: device paths or Item names.
    public var members: [String]
    /// Where it was written (`items[2]`, or `itemFiles[0]` for an Item of an `.items` file).
    public var path: String
    /// The whole declaration when the Item comes from an `.items` file (groups, tags, metadata, channel
    /// links, a Group's function); `nil` for the scenario's `items`.
    public var definition: ItemDefinition? = nil
    /// The `.items` file it comes from, resolved against the scenario's directory.
    public var sourceFile: String? = nil

    package init(name: String, type: ItemType, state: String?, label: String?, members: [String], path: String,
                 definition: ItemDefinition? = nil, sourceFile: String? = nil) {
        self.name = name
        self.type = type
        self.state = state
        self.label = label
        self.members = members
        self.path = path
        self.definition = definition
        self.sourceFile = sourceFile
    }
}
