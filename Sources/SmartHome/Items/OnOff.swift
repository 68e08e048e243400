/// openHAB's `OnOffType`.
public enum OnOff: String, Sendable, Hashable {
    case on = "ON"
    case off = "OFF"

    /// `.on` for `true`.
    public init(_ isOn: Bool) { self = isOn ? .on : .off }
    /// Whether this is ON.
    public var isOn: Bool { self == .on }
}

/// openHAB's `OpenClosedType` (a Contact's state).
public enum OpenClosed: String, Sendable, Hashable {
    case open = "OPEN"
    case closed = "CLOSED"
}

/// openHAB's `IncreaseDecreaseType` (a Dimmer command).
public enum IncreaseDecrease: String, Sendable, Hashable {
    case increase = "INCREASE"
    case decrease = "DECREASE"
}
