/// One entry of the scenario's `itemBindings`: a user's Item (from an `.items` file or `items`) that acts
/// on a device channel of the twin, as if linked to it in openHAB.
public struct ItemBindingSpec: Sendable, Hashable {
    /// The user's Item name (`Bath_Setpoint`).
    public var item: String
    /// The device path it is bound to (`flat-1/heating/setpoint`).
    public var target: String
    /// Where it was written (`itemBindings.Bath_Setpoint`).
    public var path: String
}
