import Simulation

/// A timeline `weather` step: from ``from`` on, the city's weather is ``sample``, until the next override.
public struct WeatherOverride: Sendable, Equatable {
    /// When the override takes effect (inclusive).
    public let from: SimInstant
    /// The constant weather from then on.
    public let sample: WeatherSample

    /// Creates an override.
    public init(from: SimInstant, sample: WeatherSample) {
        self.from = from
        self.sample = sample
    }
}
