import Simulation
import Weather

/// An outdoor temperature curve for planning: knots joined by straight lines, the first value held
/// before the first knot and the last after the last (the shape of an OpenWeatherMap 3-hour forecast).
public struct OutdoorProfile: Hashable, Sendable {
    /// One point of the curve.
    public struct Knot: Hashable, Sendable {
        /// When.
        public var at: SimInstant
        /// Outdoor temperature, °C.
        public var tempC: Double

        /// Creates a knot.
        public init(at: SimInstant, tempC: Double) {
            self.at = at
            self.tempC = tempC
        }
    }

    /// The knots, sorted by time, one per instant (never empty).
    public let knots: [Knot]

    /// A curve through `knots` (sorted here; for equal instants the later one wins); `nil` if there are none
    /// or a temperature is not finite.
    public init?(knots: [Knot]) {
        var sorted: [Knot] = []
        for knot in knots.enumerated().sorted(by: { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }).map(\.element) {
            guard knot.tempC.isFinite else { return nil }
            if sorted.last?.at == knot.at { sorted[sorted.count - 1] = knot } else { sorted.append(knot) }
        }
        guard !sorted.isEmpty else { return nil }
        self.knots = sorted
    }

    /// A constant temperature.
    public static func constant(_ tempC: Double) -> OutdoorProfile? { OutdoorProfile(knots: [Knot(at: .epoch, tempC: tempC)]) }

    /// The curve of a forecast, starting with the current observation `current` (if any) at `now`.
    public init?(forecast: WeatherForecast, current: Double?, now: SimInstant) {
        var knots = forecast.entries.filter { $0.at > now }.map { Knot(at: $0.at, tempC: $0.tempC) }
        if let current { knots.insert(Knot(at: now, tempC: current), at: 0) }
        self.init(knots: knots)
    }

    /// The temperature at `instant`, °C.
    public func temperatureC(at instant: SimInstant) -> Double {
        guard let first = knots.first, let last = knots.last else { return 0 }
        if instant <= first.at { return first.tempC }
        if instant >= last.at { return last.tempC }
        var low = 0, high = knots.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if knots[mid].at <= instant { low = mid } else { high = mid }
        }
        let a = knots[low], b = knots[high]
        let fraction = (instant - a.at).seconds / (b.at - a.at).seconds
        return a.tempC + (b.tempC - a.tempC) * fraction
    }

    /// The knot instants strictly between `start` and `end`, in order.
    public func knotInstants(after start: SimInstant, before end: SimInstant) -> [SimInstant] {
        knots.map(\.at).filter { $0 > start && $0 < end }
    }
}
