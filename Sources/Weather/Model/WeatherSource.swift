import Simulation

/// Where a city's weather comes from before any timeline override: one of the three forms
/// of the scenario file's `weather` section.
public enum WeatherSource: Sendable, Equatable {
    /// The same weather at all times (`{"constantC": -2}`).
    case constant(WeatherSample)
    /// A time series, interpolated (`{"series": [...], "interpolation": "linear"}`).
    case series(WeatherSeries)
    /// A daily wave with seeded noise (`{"diurnal": {...}}`).
    case diurnal(DiurnalWeather)

    /// The weather at `instant`.
    public func sample(at instant: SimInstant) -> WeatherSample {
        switch self {
        case .constant(let sample): sample
        case .series(let series): series.sample(at: instant)
        case .diurnal(let diurnal): diurnal.sample(at: instant)
        }
    }

    /// The piece of the temperature curve that contains `instant`: one infinite flat
    /// segment for a constant, the stretch between points for a series, the hour between
    /// knots for a diurnal wave.
    public func outdoorSegment(at instant: SimInstant) -> OutdoorSegment {
        switch self {
        case .constant(let sample): .flat(sample.tempC, from: nil, to: nil)
        case .series(let series): series.outdoorSegment(at: instant)
        case .diurnal(let diurnal): diurnal.outdoorSegment(at: instant)
        }
    }
}
