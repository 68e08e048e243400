import SmartHome

/// The channels of the twin's devices (SCENARIO-FORMAT.md's device table) and how their states print.
public enum DeviceChannel: String, Sendable, CaseIterable {
    case `switch`, setpoint, temperature, power, energy, lock, door, battery

    /// The Item type a channel is linked with.
    public var itemType: ItemType {
        switch self {
        case .switch, .lock: return .switchItem
        case .setpoint, .temperature: return .numberItem(.temperature)
        case .power: return .numberItem(.power)
        case .energy: return .numberItem(.energy)
        case .door: return .contactItem
        case .battery: return .numberItem(.dimensionless)
        }
    }

    /// The channel of `thing` with this id, with type, label and state description.
    func channel(of thing: ThingUID, setpointRange: ClosedRange<Double>? = nil) -> Channel? {
        guard let uid = try? ChannelUID(thing: thing, id: rawValue),
              let type = try? ChannelTypeUID("twin:\(rawValue)") else { return nil }
        let description: StateDescription
        let label: String
        switch self {
        case .switch: (label, description) = ("Switch", StateDescription())
        case .setpoint:
            label = "Setpoint"
            description = StateDescription(minimum: setpointRange?.lowerBound, maximum: setpointRange?.upperBound, step: 0.5, pattern: "%.1f %unit%")
        case .temperature: (label, description) = ("Room temperature", StateDescription(step: 0.1, pattern: "%.1f %unit%", readOnly: true))
        case .power: (label, description) = ("Power", StateDescription(pattern: "%.1f %unit%", readOnly: true))
        case .energy: (label, description) = ("Energy", StateDescription(pattern: "%.3f %unit%", readOnly: true))
        case .lock: (label, description) = ("Lock", StateDescription())
        case .door: (label, description) = ("Door", StateDescription(readOnly: true))
        case .battery: (label, description) = ("Battery", StateDescription(minimum: 0, maximum: 100, pattern: "%.2f %unit%", readOnly: true))
        }
        return Channel(uid: uid, channelTypeUID: type, itemType: itemType, label: label, stateDescription: description)
    }

    /// A power state: whole watts print without a fraction (`0 W`, `2000 W`), others with one decimal.
    static func power(_ watts: Double) -> State {
        let number = watts == watts.rounded() && abs(watts) < 1e15
            ? DecimalNumber(integer: Int(watts)) : DecimalNumber(watts, fractionDigits: 1)
        return .quantity(Quantity(number, .watt))
    }

    /// An energy state with three decimals (`1.234 kWh`).
    static func energy(_ kWh: Double) -> State { energy(key: energyKey(kWh)) }

    /// ``energy(_:)`` of the reading whose ``energyKey(_:)`` is `key`.
    static func energy(key: FixedPointKey) -> State { .quantity(Quantity(DecimalNumber(key), .kilowattHour)) }

    /// What ``energy(_:)`` is made from: equal keys, equal states.
    static func energyKey(_ kWh: Double) -> FixedPointKey { FixedPointKey(kWh, fractionDigits: energyDigits) }

    /// A temperature state with one decimal (`21.3 °C`).
    static func temperature(_ celsius: Double) -> State {
        .quantity(Quantity(DecimalNumber(celsius, fractionDigits: temperatureDigits), .celsius))
    }

    private static let energyDigits = 3
    private static let temperatureDigits = 1
}
