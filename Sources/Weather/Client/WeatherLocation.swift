/// What an OpenWeatherMap request asks about: a city by name, by id, or coordinates.
public enum WeatherLocation: Sendable, Equatable, CustomStringConvertible {
    /// `q=Budapest` or `q=Budapest,HU`.
    case city(String, countryCode: String?)
    /// `id=3054643`.
    case cityID(Int)
    /// `lat=47.5&lon=19.04`.
    case coordinates(latitude: Double, longitude: Double)

    /// The location's query parameters, in the order the client sends them.
    var queryItems: [(name: String, value: String)] {
        switch self {
        case .city(let name, let country):
            [("q", country.map { "\(name),\($0)" } ?? name)]
        case .cityID(let id):
            [("id", String(id))]
        case .coordinates(let lat, let lon):
            [("lat", NumberText.plain(lat)), ("lon", NumberText.plain(lon))]
        }
    }

    /// `Budapest,HU`, `id 3054643` or `47.5,19.04`, for messages.
    public var description: String {
        switch self {
        case .city(let name, let country): country.map { "\(name),\($0)" } ?? name
        case .cityID(let id): "city id \(id)"
        case .coordinates(let lat, let lon): "\(NumberText.plain(lat)),\(NumberText.plain(lon))"
        }
    }
}
