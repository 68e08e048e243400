import Simulation

/// One failed weather request, as the weather service logs it.
public struct WeatherErrorRecord: Hashable, Sendable, CustomStringConvertible {
    /// When the request failed (simulated time).
    public var at: SimInstant
    /// The city asked about.
    public var city: String
    /// The weather error code, e.g. `weather.rateLimited`.
    public var code: String
    /// The client's message (never contains the API key).
    public var message: String

    /// Creates a record.
    public init(at: SimInstant, city: String, code: String, message: String) {
        self.at = at
        self.city = city
        self.code = code
        self.message = message
    }

    /// `2026-01-09T10:05:00Z Budapest weather.server`.
    public var description: String { "\(at) \(city) \(code)" }
}
