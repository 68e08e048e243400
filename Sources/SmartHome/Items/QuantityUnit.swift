/// The units the twin understands in quantity states and commands (`21.5 °C`, `2 kW`).
public enum QuantityUnit: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case celsius = "°C"
    case kelvin = "K"
    case fahrenheit = "°F"
    case watt = "W"
    case kilowatt = "kW"
    case milliwatt = "mW"
    case kilowattHour = "kWh"
    case wattHour = "Wh"
    case joule = "J"
    case megajoule = "MJ"
    case percent = "%"
    case one = "one"

    /// The dimension this unit measures.
    public var dimension: Dimension {
        switch self {
        case .celsius, .kelvin, .fahrenheit: return .temperature
        case .watt, .kilowatt, .milliwatt: return .power
        case .kilowattHour, .wattHour, .joule, .megajoule: return .energy
        case .percent, .one: return .dimensionless
        }
    }

    /// The symbol as openHAB prints it.
    public var symbol: String { rawValue }
    public var description: String { rawValue }

    /// Converts `value` in this unit to the dimension's base unit (K, W, J, one).
    func toBase(_ value: Double) -> Double {
        switch self {
        case .celsius: return value + 273.15
        case .kelvin: return value
        case .fahrenheit: return (value + 459.67) * 5 / 9
        case .watt: return value
        case .kilowatt: return value * 1_000
        case .milliwatt: return value / 1_000
        case .kilowattHour: return value * 3_600_000
        case .wattHour: return value * 3_600
        case .joule: return value
        case .megajoule: return value * 1_000_000
        case .percent: return value / 100
        case .one: return value
        }
    }

    /// Converts `value` in the base unit to this unit.
    func fromBase(_ value: Double) -> Double {
        switch self {
        case .celsius: return value - 273.15
        case .kelvin: return value
        case .fahrenheit: return value * 9 / 5 - 459.67
        case .watt: return value
        case .kilowatt: return value / 1_000
        case .milliwatt: return value * 1_000
        case .kilowattHour: return value / 3_600_000
        case .wattHour: return value / 3_600
        case .joule: return value
        case .megajoule: return value / 1_000_000
        case .percent: return value * 100
        case .one: return value
        }
    }

    /// Parses a unit symbol, accepting a few common spellings (`°C`, `℃`, `C` is *not* accepted).
    public init?(symbol: some StringProtocol) {
        switch String(symbol) {
        case "°C", "℃": self = .celsius
        case "°F", "℉": self = .fahrenheit
        case "K": self = .kelvin
        case "W": self = .watt
        case "kW": self = .kilowatt
        case "mW": self = .milliwatt
        case "kWh": self = .kilowattHour
        case "Wh": self = .wattHour
        case "J": self = .joule
        case "MJ": self = .megajoule
        case "%": self = .percent
        case "one": self = .one
        default: return nil
        }
    }
}
