import Simulation

/// A city's whole weather history: a base ``WeatherSource`` plus timeline overrides.
///
/// From an override's instant on, the weather is that override's constant sample until the
/// next override (of the same city); before the first override the base source applies.
/// Overrides at the same instant: the one added last wins, as the timeline's "same `at`,
/// file order" rule demands.
///
/// The temperature is a chain of ``OutdoorSegment``s: the base source's segments, cut at
/// the first override, then one flat segment per override ending at the next one.
public struct CityWeather: Sendable, Equatable {
    /// The weather without overrides.
    public let base: WeatherSource
    /// The overrides, sorted by time, one per instant.
    public private(set) var overrides: [WeatherOverride]

    /// Combines a base source with overrides given in any order; for several overrides at the
    /// same instant the later one in `overrides` wins.
    public init(base: WeatherSource, overrides: [WeatherOverride] = []) {
        self.base = base
        self.overrides = []
        for override in overrides { insert(override) }
    }

    /// This weather with one more override.
    public func overriding(_ override: WeatherOverride) -> CityWeather {
        var copy = self
        copy.insert(override)
        return copy
    }

    /// This weather with an override built like a timeline `weather` step: `tempC` is given,
    /// every field left `nil` keeps its value at `from`.
    /// - Throws: ``WeatherError`` `weather.invalidSource` for an invalid field (see ``WeatherSample``).
    public func overriding(from: SimInstant, tempC: Double, humidity: Double? = nil, condition: WeatherCondition? = nil,
                           windMps: Double? = nil, fieldPath: String = "weather") throws(WeatherError) -> CityWeather {
        let current = sample(at: from)
        let newCondition = condition ?? current.condition
        let sample = try WeatherSample(
            tempC: tempC, humidity: humidity ?? current.humidity, condition: newCondition,
            windMps: windMps ?? current.windMps, windDeg: current.windDeg, pressureHPa: current.pressureHPa,
            cloudsPercent: condition == nil ? current.cloudsPercent : nil,
            precipitationMmPerHour: condition == nil ? current.precipitationMmPerHour : nil,
            fieldPath: fieldPath)
        return overriding(WeatherOverride(from: from, sample: sample))
    }

    /// The weather at `instant`.
    public func sample(at instant: SimInstant) -> WeatherSample {
        if let i = overrideIndex(atOrBefore: instant) { return overrides[i].sample }
        return base.sample(at: instant)
    }

    /// The piece of the temperature curve containing `instant`; segments end at override instants.
    public func outdoorSegment(at instant: SimInstant) -> OutdoorSegment {
        if let i = overrideIndex(atOrBefore: instant) {
            let next = i + 1 < overrides.count ? overrides[i + 1].from : nil
            return .flat(overrides[i].sample.tempC, from: overrides[i].from, to: next)
        }
        let segment = base.outdoorSegment(at: instant)
        guard let firstOverride = overrides.first?.from else { return segment }
        let end = segment.end.map { min($0, firstOverride) } ?? firstOverride
        return OutdoorSegment(start: segment.start, end: end, startC: segment.startC, slopeKPerSecond: segment.slopeKPerSecond)
    }

    /// The weather at `instant` as a forecast issued at `issuedAt` would give it: overrides
    /// after `issuedAt` are unknown then, so the override in force at `issuedAt` (if any)
    /// persists; otherwise the base source answers.
    public func forecastSample(at instant: SimInstant, issuedAt: SimInstant) -> WeatherSample {
        if instant < issuedAt { return sample(at: instant) }
        if let i = overrideIndex(atOrBefore: issuedAt) { return overrides[i].sample }
        return base.sample(at: instant)
    }

    /// Inserts keeping the array sorted; an override at an existing instant replaces it.
    private mutating func insert(_ override: WeatherOverride) {
        if let i = overrideIndex(atOrBefore: override.from), overrides[i].from == override.from {
            overrides[i] = override
        } else {
            let position = (overrideIndex(atOrBefore: override.from) ?? -1) + 1
            overrides.insert(override, at: position)
        }
    }

    /// The index of the last override at or before `instant`. - Complexity: O(log n).
    private func overrideIndex(atOrBefore instant: SimInstant) -> Int? {
        var low = 0, high = overrides.count
        while low < high {
            let mid = (low + high) / 2
            if overrides[mid].from <= instant { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }
}
