import Foundation
import Simulation

/// A transport that hands each request to a ``FakeOpenWeatherMap`` in the same process,
/// at the simulated time its clock reads.
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

    /// Creates a transport to `feed` reading the time from `clock`.
    public init(feed: FakeOpenWeatherMap, clock: @escaping @Sendable () -> SimInstant) {
        self.feed = feed
        self.clock = clock
    }

    /// Asks the feed; never fails at the transport level.
    public func get(_ url: URL) async throws(WeatherError) -> (status: Int, body: Data) {
        let response = feed.respond(to: url, at: clock())
        return (response.status, response.body)
    }
}
