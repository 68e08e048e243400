/// One property of a home configuration with its openHAB Item and the Item's current state,
/// as the original `getConfigurationProperties` endpoint listed them.
public struct HomePropertyState: Hashable, Sendable {
    /// The property (channel id), e.g. `setpoint`.
    public var property: String
    /// The openHAB Item name, e.g. `flat_1_heating_setpoint`.
    public var item: String
    /// The Item's state as openHAB prints it, e.g. `21.0 °C`, `ON`, `NULL`.
    public var state: String

    /// Creates a property state.
    public init(property: String, item: String, state: String) {
        self.property = property
        self.item = item
        self.state = state
    }
}
