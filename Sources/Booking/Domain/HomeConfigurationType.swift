/// The kinds of smart-home configuration a listing can have (the original's configuration types),
/// each with the properties (channel ids) its Items expose.
public enum HomeConfigurationType: String, Sendable, Hashable, CaseIterable, Codable {
    case heating
    case cooling
    case smartPlug
    case lock
    case weatherWatcher

    /// The properties of this type, in display order (for devices: the Thing's channel ids).
    public var properties: [String] {
        switch self {
        case .heating, .cooling: ["switch", "setpoint", "temperature", "power", "energy"]
        case .smartPlug: ["switch", "power", "energy", "temperature"]
        case .lock: ["lock", "door", "battery"]
        case .weatherWatcher: []
        }
    }
}
