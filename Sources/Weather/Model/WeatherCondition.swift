import Simulation

/// A weather condition group, named as OpenWeatherMap's `weather[0].main` names it.
///
/// Each condition carries the representative OpenWeatherMap details the fake feed reports
/// for it — condition id, description, icon, typical cloud cover, precipitation and
/// visibility — so a scenario only has to say `"Snow"`.
public enum WeatherCondition: String, Sendable, CaseIterable, Codable {
    /// Thunderstorm (ids 2xx).
    case thunderstorm = "Thunderstorm"
    /// Drizzle (ids 3xx).
    case drizzle = "Drizzle"
    /// Rain (ids 5xx).
    case rain = "Rain"
    /// Snow (ids 6xx).
    case snow = "Snow"
    /// Mist (701).
    case mist = "Mist"
    /// Smoke (711).
    case smoke = "Smoke"
    /// Haze (721).
    case haze = "Haze"
    /// Dust (731, 761).
    case dust = "Dust"
    /// Fog (741).
    case fog = "Fog"
    /// Sand (751).
    case sand = "Sand"
    /// Volcanic ash (762).
    case ash = "Ash"
    /// Squalls (771).
    case squall = "Squall"
    /// Tornado (781).
    case tornado = "Tornado"
    /// Clear sky (800).
    case clear = "Clear"
    /// Clouds (801–804).
    case clouds = "Clouds"

    /// Parses a condition name as a scenario writes it, ignoring case (`"snow"` → ``snow``).
    /// - Parameter fieldPath: where the name came from, for the error message.
    /// - Throws: ``WeatherError`` `weather.invalidSource` naming the field, the value and the
    ///   accepted names (with a "did you mean" when one is close).
    public init(name: String, fieldPath: String = "condition") throws(WeatherError) {
        let lowered = name.lowercased()
        if let match = Self.allCases.first(where: { $0.rawValue.lowercased() == lowered }) {
            self = match
            return
        }
        let names = Self.allCases.map(\.rawValue)
        let closest = Suggestion.closest(to: lowered, in: names.map { $0.lowercased() })
            .flatMap { lower in names.first { $0.lowercased() == lower } }
        let hint = closest.map { " Did you mean \"\($0)\"?" } ?? ""
        throw WeatherError(.invalidSource,
                           "\(fieldPath) is \"\(name)\", which is not an OpenWeatherMap condition; use one of \(names.joined(separator: ", ")).\(hint)")
    }

    /// The condition group of an OpenWeatherMap condition id (`600` → ``snow``), or `nil` for
    /// an id outside every group.
    public init?(owmConditionID id: Int) {
        switch id {
        case 200..<300: self = .thunderstorm
        case 300..<400: self = .drizzle
        case 500..<600: self = .rain
        case 600..<700: self = .snow
        case 701: self = .mist
        case 711: self = .smoke
        case 721: self = .haze
        case 731, 761: self = .dust
        case 741: self = .fog
        case 751: self = .sand
        case 762: self = .ash
        case 771: self = .squall
        case 781: self = .tornado
        case 800: self = .clear
        case 801...804: self = .clouds
        default: return nil
        }
    }

    /// The representative OpenWeatherMap condition id the feed reports (`Snow` → 600, light snow).
    public var owmConditionID: Int {
        switch self {
        case .thunderstorm: 201
        case .drizzle: 300
        case .rain: 500
        case .snow: 600
        case .mist: 701
        case .smoke: 711
        case .haze: 721
        case .dust: 761
        case .fog: 741
        case .sand: 751
        case .ash: 762
        case .squall: 771
        case .tornado: 781
        case .clear: 800
        case .clouds: 803
        }
    }

    /// OpenWeatherMap's description of ``owmConditionID`` (`"light snow"`).
    public var owmDescription: String {
        switch self {
        case .thunderstorm: "thunderstorm with rain"
        case .drizzle: "light intensity drizzle"
        case .rain: "light rain"
        case .snow: "light snow"
        case .mist: "mist"
        case .smoke: "smoke"
        case .haze: "haze"
        case .dust: "dust"
        case .fog: "fog"
        case .sand: "sand"
        case .ash: "volcanic ash"
        case .squall: "squalls"
        case .tornado: "tornado"
        case .clear: "clear sky"
        case .clouds: "broken clouds"
        }
    }

    /// OpenWeatherMap's icon code, with `d` by day and `n` by night (`"13n"`).
    public func owmIcon(isDay: Bool) -> String {
        let base: String
        switch self {
        case .thunderstorm: base = "11"
        case .drizzle: base = "09"
        case .rain: base = "10"
        case .snow: base = "13"
        case .clear: base = "01"
        case .clouds: base = "04"
        case .mist, .smoke, .haze, .dust, .fog, .sand, .ash, .squall, .tornado: base = "50"
        }
        return base + (isDay ? "d" : "n")
    }

    /// Whether the condition brings precipitation (rain or snow in the response).
    public var isPrecipitation: Bool {
        switch self {
        case .thunderstorm, .drizzle, .rain, .snow: true
        default: false
        }
    }

    /// Whether precipitation falls as snow (reported under `snow`, otherwise under `rain`).
    public var precipitationIsSnow: Bool { self == .snow }

    /// The cloud cover, %, the feed reports unless a sample says otherwise.
    public var typicalCloudsPercent: Int {
        switch self {
        case .clear: 0
        case .clouds: 75
        case .rain, .drizzle, .snow, .fog: 90
        case .thunderstorm, .tornado: 100
        case .mist, .ash: 40
        case .smoke, .haze, .dust, .sand: 20
        case .squall: 75
        }
    }

    /// The precipitation, mm per hour, the feed reports unless a sample says otherwise
    /// (0 for dry conditions).
    public var typicalPrecipitationMmPerHour: Double {
        switch self {
        case .rain: 0.5
        case .drizzle: 0.2
        case .thunderstorm: 2.0
        case .snow: 0.3
        default: 0
        }
    }

    /// The visibility, m, the feed reports: 10 000 (OpenWeatherMap's maximum) except in
    /// fog (500) and in the other haze-like conditions (5 000).
    public var typicalVisibilityM: Int {
        switch self {
        case .fog: 500
        case .mist, .smoke, .haze, .dust, .sand, .ash: 5_000
        default: 10_000
        }
    }
}
