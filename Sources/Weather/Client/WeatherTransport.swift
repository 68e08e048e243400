import Foundation

/// How ``OpenWeatherMapClient`` performs an HTTP GET: in-process to the fake feed
/// (``FakeFeedTransport``) or over the network (``URLSessionWeatherTransport``).
public protocol WeatherTransport: Sendable {
    /// Performs `GET url` and returns the HTTP status and body, whatever the status.
    /// - Throws: ``WeatherError`` `weather.transport` when no HTTP answer arrives.
    func get(_ url: URL) async throws(WeatherError) -> (status: Int, body: Data)

    /// Performs `GET url` of a current-weather request without bytes, when this transport can: a 200 comes back
    /// as the body's value, exactly what the client would decode from the bytes ``get(_:)`` answers.
    /// - Returns: `nil` when the transport only speaks bytes (the default): the client then calls ``get(_:)``.
    /// - Throws: as ``get(_:)``.
    func currentWeather(_ url: URL) async throws(WeatherError) -> TypedWeatherAnswer?
}

extension WeatherTransport {
    /// Bytes only.
    public func currentWeather(_ url: URL) async throws(WeatherError) -> TypedWeatherAnswer? { nil }
}

/// A current-weather answer given without bytes (the typed in-process path of a run, see ``FakeFeedTransport``).
public enum TypedWeatherAnswer: Sendable, Equatable {
    /// A 200, its body as a value.
    case current(OWMCurrentWeather)
    /// Any other answer, as bytes.
    case response(status: Int, body: Data)
}

extension TypedWeatherAnswer {
    /// The answer for a response given as bytes.
    static func bytes(_ response: FeedResponse) -> TypedWeatherAnswer { .response(status: response.status, body: response.body) }
}
