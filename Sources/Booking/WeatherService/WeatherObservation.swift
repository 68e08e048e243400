import Simulation

/// An outdoor temperature as the weather service hands it to automations: the value, when the feed
/// observed it, and whether it is the last good value kept through a feed error.
public struct WeatherObservation: Hashable, Sendable {
    /// The city as asked (`Budapest`).
    public var city: String
    /// The ISO 3166 country code the request used, if any (`HU`).
    public var countryCode: String?
    /// Air temperature, °C.
    public var tempC: Double
    /// When the feed observed it (OpenWeatherMap's `dt`).
    public var observedAt: SimInstant
    /// When the service received it.
    public var fetchedAt: SimInstant
    /// `true` when the latest request failed and this is the last good value.
    public var isStale: Bool
    /// The error code of the failed request that made the value stale (`weather.server`), if any.
    public var staleBecause: String?

    /// Creates an observation.
    public init(city: String, countryCode: String?, tempC: Double, observedAt: SimInstant, fetchedAt: SimInstant,
                isStale: Bool = false, staleBecause: String? = nil) {
        self.city = city
        self.countryCode = countryCode
        self.tempC = tempC
        self.observedAt = observedAt
        self.fetchedAt = fetchedAt
        self.isStale = isStale
        self.staleBecause = staleBecause
    }
}
