import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Weather

/// A transport over the network with `URLSession`, for the real OpenWeatherMap service.
///
/// Not used in simulations (which must not touch the network or the wall clock).
public struct URLSessionWeatherTransport: WeatherTransport {
    /// The session requests go through.
    public let session: URLSession
    /// How long to wait for an answer, seconds.
    public let timeoutSeconds: Double

    /// Creates a transport.
    /// - Parameters:
    ///   - session: the session to use (default: the shared one).
    ///   - timeoutSeconds: the request timeout (default 10 s).
    public init(session: URLSession = .shared, timeoutSeconds: Double = 10) {
        self.session = session
        self.timeoutSeconds = timeoutSeconds
    }

    /// Performs the GET.
    /// - Throws: ``WeatherError`` `weather.transport` when the request fails without an HTTP answer.
    public func get(_ url: URL) async throws(WeatherError) -> (status: Int, body: Data) {
        var request = URLRequest(url: url, timeoutInterval: timeoutSeconds)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw WeatherError(.transport, "The request to \(Self.redacted(url)) failed before any answer: \(error.localizedDescription); check the network and the base URL.")
        }
        guard let http = response as? HTTPURLResponse else {
            throw WeatherError(.transport, "The answer from \(Self.redacted(url)) is not an HTTP response; check the base URL's scheme.")
        }
        return (http.statusCode, data)
    }

    /// The URL with the API key replaced by `***`, for messages and logs.
    static func redacted(_ url: URL) -> String {
        OpenWeatherMapClient.redacted(url)
    }
}
