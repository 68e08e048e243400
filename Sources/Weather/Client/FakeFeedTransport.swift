import Foundation
import Simulation

/// A transport that hands each request to a ``FakeOpenWeatherMap`` in the same process,
/// at the simulated time its clock reads.
///
/// With `typed`, current-weather requests are answered without bytes (``currentWeather(_:)``): the feed's
/// body value reaches the client as it would after writing and reading its JSON. Runs switch it on with
/// their typed seams (see `World.Seams`); the bytes stay the default.
///
/// ```swift
/// let transport = FakeFeedTransport(feed: feed, clock: { kernel.now })
/// let client = OpenWeatherMapClient(baseURL: url, apiKey: "KEY", transport: transport)
/// ```
public struct FakeFeedTransport: WeatherTransport {
    /// The feed that answers.
    public let feed: FakeOpenWeatherMap
    /// The simulated clock, read once per request.
    public let clock: @Sendable () -> SimInstant

    /// Whether current-weather requests are answered as values (see ``currentWeather(_:)``).
    public let typed: Bool

    /// Creates a transport to `feed` reading the time from `clock`, answering current-weather requests as
    /// values when `typed`.
    public init(feed: FakeOpenWeatherMap, clock: @escaping @Sendable () -> SimInstant, typed: Bool = false) {
        self.feed = feed
        self.clock = clock
        self.typed = typed
    }

    /// Asks the feed; never fails at the transport level.
    public func get(_ url: URL) async throws(WeatherError) -> (status: Int, body: Data) {
        let response = feed.respond(to: url, at: clock())
        return (response.status, response.body)
    }

    /// With `typed`, the feed's answer without bytes; otherwise `nil` (bytes through ``get(_:)``).
    public func currentWeather(_ url: URL) async throws(WeatherError) -> TypedWeatherAnswer? {
        typed ? feed.answer(toTarget: url.absoluteString, at: clock()) : nil
    }
}
