import SmartHome

/// What the automations do with openHAB: find a listing's heating/cooling configurations and read
/// or command their Items through the ``OpenHABAPI`` (no access checks: automations act for the owner).
struct HomeCommander: Sendable {
    let api: any OpenHABAPI
    let configurations: any HomeConfigurationRepository

    /// All of the listing's configurations, as the repository sorts them (by name, then id).
    func configurations(of listing: ListingID) async throws(BookingError) -> [HomeConfiguration] {
        try await configurations.configurations(ofListing: listing)
    }

    /// The listing's configurations of `type`, sorted by name then id.
    func devices(of listing: ListingID, type: HomeConfigurationType) async throws(BookingError) -> [HomeConfiguration] {
        try await configurations.configurations(ofListing: listing).filter { $0.type == type }
            .sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    /// The state text of an Item (`ON`, `21.0 °C`, `NULL`).
    func state(of item: String) async throws(BookingError) -> String {
        do {
            return try await api.getItemState(item).body
        } catch {
            throw BookingError(error, while: "read the state of \(item)")
        }
    }

    /// Sends a command string to an Item.
    func send(_ command: String, to item: String) async throws(BookingError) {
        do {
            _ = try await api.sendCommand(item, command)
        } catch {
            throw BookingError(error, while: "send \"\(command)\" to \(item)")
        }
    }
}
