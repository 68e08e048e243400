/// A Thing's status, as openHAB's `ThingStatus`.
public enum ThingStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case uninitialized = "UNINITIALIZED"
    case initializing = "INITIALIZING"
    case unknown = "UNKNOWN"
    case online = "ONLINE"
    case offline = "OFFLINE"
    case removing = "REMOVING"
    case removed = "REMOVED"

    /// Whether a handler is initialised and may receive commands (ONLINE, OFFLINE, UNKNOWN),
    /// as openHAB's `ThingHandlerHelper.isHandlerInitialized`.
    public var isHandlerInitialized: Bool { self == .online || self == .offline || self == .unknown }
}

/// Why a Thing has its status, as openHAB's `ThingStatusDetail`.
public enum ThingStatusDetail: String, Sendable, Hashable, CaseIterable, Codable {
    case none = "NONE"
    case notYetReady = "NOT_YET_READY"
    case handlerMissingError = "HANDLER_MISSING_ERROR"
    case handlerRegisteringError = "HANDLER_REGISTERING_ERROR"
    case handlerInitializingError = "HANDLER_INITIALIZING_ERROR"
    case handlerConfigurationPending = "HANDLER_CONFIGURATION_PENDING"
    case configurationPending = "CONFIGURATION_PENDING"
    case communicationError = "COMMUNICATION_ERROR"
    case configurationError = "CONFIGURATION_ERROR"
    case bridgeOffline = "BRIDGE_OFFLINE"
    case firmwareUpdating = "FIRMWARE_UPDATING"
    case dutyCycle = "DUTY_CYCLE"
    case bridgeUninitialized = "BRIDGE_UNINITIALIZED"
    case gone = "GONE"
    case disabled = "DISABLED"
}

/// A status with its detail and optional description (`statusInfo` in openHAB's JSON).
public struct ThingStatusInfo: Sendable, Hashable, Codable {
    /// The status.
    public var status: ThingStatus
    /// The detail.
    public var statusDetail: ThingStatusDetail
    /// A free-text explanation, omitted from JSON when `nil`.
    public var description: String?

    /// Creates a status info.
    public init(_ status: ThingStatus, _ detail: ThingStatusDetail = .none, description: String? = nil) {
        self.status = status
        self.statusDetail = detail
        self.description = description
    }

    /// ONLINE, NONE.
    public static let online = ThingStatusInfo(.online)
    /// UNINITIALIZED, NONE: a Thing that has no handler yet.
    public static let uninitialized = ThingStatusInfo(.uninitialized)
}
