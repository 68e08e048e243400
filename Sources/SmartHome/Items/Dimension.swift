/// A physical dimension of a `Number:Dimension` Item.
public enum Dimension: String, Sendable, Hashable, CaseIterable {
    /// Temperatures; default unit °C.
    case temperature = "Temperature"
    /// Power; default unit W.
    case power = "Power"
    /// Energy; default unit kWh.
    case energy = "Energy"
    /// Ratios; default unit ONE (a plain number), so a percentage Item carries `unit` metadata `%`.
    case dimensionless = "Dimensionless"

    /// The unit an Item of this dimension shows its state in (the twin's system defaults).
    public var defaultUnit: QuantityUnit {
        switch self {
        case .temperature: return .celsius
        case .power: return .watt
        case .energy: return .kilowattHour
        case .dimensionless: return .one
        }
    }
}
