import Simulation

/// A city's weather given as a time series of samples, interpolated in between.
///
/// Before the first point the first sample holds; after the last point the last sample
/// holds. With ``Interpolation/linear`` the temperature, humidity, wind speed and pressure
/// are linear between neighbouring points and the discrete fields (condition, wind
/// direction, clouds, precipitation) are those of the earlier point; with
/// ``Interpolation/step`` the whole earlier sample holds until the next point.
public struct WeatherSeries: Sendable, Equatable {
    /// How values between two points are found.
    public enum Interpolation: String, Sendable, CaseIterable {
        /// Straight lines between points (the default).
        case linear
        /// Each point holds until the next one.
        case step
    }

    /// One sample at one instant.
    public struct Point: Sendable, Equatable {
        /// When the sample applies.
        public let at: SimInstant
        /// The weather at ``at``.
        public let sample: WeatherSample

        /// Creates a point.
        public init(at: SimInstant, sample: WeatherSample) {
            self.at = at
            self.sample = sample
        }
    }

    /// The points, in strictly increasing time; never empty.
    public let points: [Point]
    /// How values between points are found.
    public let interpolation: Interpolation

    /// Creates a series.
    /// - Parameters:
    ///   - points: at least one point, in strictly increasing time.
    ///   - interpolation: ``Interpolation/linear`` unless told otherwise.
    ///   - fieldPath: where the series comes from (`"weather.Budapest.series"`), for error messages.
    /// - Throws: ``WeatherError`` `weather.invalidSource` for an empty series or points out of
    ///   order or at the same instant, naming both points and their times.
    public init(points: [Point], interpolation: Interpolation = .linear, fieldPath: String = "series") throws(WeatherError) {
        guard !points.isEmpty else {
            throw WeatherError(.invalidSource, "\(fieldPath) is empty; give at least one point with \"at\" and \"tempC\".")
        }
        for i in points.indices.dropFirst() where points[i].at <= points[i - 1].at {
            let what = points[i].at == points[i - 1].at ? "is at the same time as" : "is before"
            throw WeatherError(.invalidSource,
                               "\(fieldPath)[\(i)].at (\(points[i].at)) \(what) \(fieldPath)[\(i - 1)].at (\(points[i - 1].at)); list the points in strictly increasing time, without duplicates.")
        }
        self.points = points
        self.interpolation = interpolation
    }

    /// The weather at `instant`.
    public func sample(at instant: SimInstant) -> WeatherSample {
        let segment = outdoorSegment(at: instant)
        let tempC = segment.temperatureC(at: instant)
        guard let i = index(before: instant) else { return points[0].sample.withTemperature(tempC) }
        guard i + 1 < points.count, interpolation == .linear else { return points[i].sample.withTemperature(tempC) }
        let a = points[i], b = points[i + 1]
        let fraction = (instant - a.at).seconds / (b.at - a.at).seconds
        return WeatherSample.interpolated(from: a.sample, to: b.sample, fraction: fraction, tempC: tempC)
    }

    /// The piece of the temperature curve that contains `instant`: flat before the first
    /// point and after the last, linear (or flat, for ``Interpolation/step``) between points.
    public func outdoorSegment(at instant: SimInstant) -> OutdoorSegment {
        guard let i = index(before: instant) else {
            return .flat(points[0].sample.tempC, from: nil, to: points[0].at)
        }
        let a = points[i]
        guard i + 1 < points.count else { return .flat(a.sample.tempC, from: a.at, to: nil) }
        let b = points[i + 1]
        switch interpolation {
        case .step:
            return .flat(a.sample.tempC, from: a.at, to: b.at)
        case .linear:
            let slope = (b.sample.tempC - a.sample.tempC) / (b.at - a.at).seconds
            return OutdoorSegment(start: a.at, end: b.at, startC: a.sample.tempC, slopeKPerSecond: slope)
        }
    }

    /// The index of the last point at or before `instant`, or `nil` if `instant` is before the first.
    /// - Complexity: O(log n).
    private func index(before instant: SimInstant) -> Int? {
        var low = 0, high = points.count  // invariant: points[..<low].at <= instant < points[high...].at
        while low < high {
            let mid = (low + high) / 2
            if points[mid].at <= instant { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }
}
