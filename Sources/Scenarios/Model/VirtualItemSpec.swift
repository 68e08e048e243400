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
    /// Where it was written (`items[2]`).
    public var path: String
}
