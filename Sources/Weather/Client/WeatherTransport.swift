import Foundation

/// How ``OpenWeatherMapClient`` performs an HTTP GET: in-process to the fake feed
/// (``FakeFeedTransport``) or over the network (``URLSessionWeatherTransport``).
public protocol WeatherTransport: Sendable {
    /// Performs `GET url` and returns the HTTP status and body, whatever the status.
    /// - Throws: ``WeatherError`` `weather.transport` when no HTTP answer arrives.
    func get(_ url: URL) async throws(WeatherError) -> (status: Int, body: Data)
}
