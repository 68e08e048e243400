/// Records which openHAB Items belong to which listing: one device (or automation) of a listing.
public struct HomeConfiguration: Hashable, Sendable {
    public var id: HomeConfigurationID
    public var listing: ListingID
    public var type: HomeConfigurationType
    /// The device id within the listing (`heating`), also the display name.
    public var name: String
    /// The openHAB Thing UID the Items are linked to (empty for automations).
    public var thingUID: String
    /// Property (channel id) → openHAB Item name, e.g. `setpoint` → `flat_1_heating_setpoint`.
    public var items: [String: String]

    public init(id: HomeConfigurationID, listing: ListingID, type: HomeConfigurationType, name: String,
                thingUID: String, items: [String: String]) {
        self.id = id
        self.listing = listing
        self.type = type
        self.name = name
        self.thingUID = thingUID
        self.items = items
    }
}
