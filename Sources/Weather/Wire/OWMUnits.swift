/// The `units` query parameter: which units the temperatures and wind speed come in.
///
/// `standard` is OpenWeatherMap's default (Kelvin). Values on the wire are rounded to two
/// decimals, as the service does.
public enum OWMUnits: String, Sendable, CaseIterable {
    /// Kelvin and m/s (the default when `units` is absent).
    case standard
    /// °C and m/s.
    case metric
    /// °F and miles per hour.
    case imperial

    /// Miles per hour in one metre per second: 3600 / 1609.344.
    public static let mphPerMps = 3_600 / 1_609.344

    /// A temperature in these units, rounded to 2 decimals (`-3.2` °C → `269.95` K, `26.24` °F).
    public func temperature(fromCelsius celsius: Double) -> Double {
        switch self {
        case .standard: NumberText.rounded(celsius + 273.15, decimals: 2)
        case .metric: NumberText.rounded(celsius, decimals: 2)
        case .imperial: NumberText.rounded(celsius * 9 / 5 + 32, decimals: 2)
        }
    }

    /// °C from a temperature in these units, rounded to 2 decimals.
    public func celsius(fromTemperature value: Double) -> Double {
        switch self {
        case .standard: NumberText.rounded(value - 273.15, decimals: 2)
        case .metric: value
        case .imperial: NumberText.rounded((value - 32) * 5 / 9, decimals: 2)
        }
    }

    /// A wind speed in these units, rounded to 2 decimals.
    public func windSpeed(fromMetersPerSecond mps: Double) -> Double {
        switch self {
        case .standard, .metric: NumberText.rounded(mps, decimals: 2)
        case .imperial: NumberText.rounded(mps * Self.mphPerMps, decimals: 2)
        }
    }

    /// m/s from a wind speed in these units, rounded to 2 decimals.
    public func metersPerSecond(fromWindSpeed value: Double) -> Double {
        switch self {
        case .standard, .metric: value
        case .imperial: NumberText.rounded(value / Self.mphPerMps, decimals: 2)
        }
    }
}
