import SmartHome

/// The Thing status a device reports when fault injection makes it (un)reachable.
enum ReachabilityStatus {
    /// ONLINE, or OFFLINE with COMMUNICATION_ERROR and a description.
    static func info(online: Bool) -> ThingStatusInfo {
        online ? .online : ThingStatusInfo(.offline, .communicationError, description: "Device does not respond (fault injected)")
    }
}
