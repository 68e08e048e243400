import Devices
import ScenarioFormat
import Simulation
import Synchronization
import Weather

/// Feeds a city's weather to a thermal zone: the Weather target's piecewise-linear segments
/// as the Devices target's outdoor temperature source.
///
/// A city's weather is a fixed function of time, so the segments last handed out are remembered
/// and handed out again for an instant inside them, by this source and its copies (a world gives
/// every zone of a city copies of one source): the city's zones ask for the same hour's segment
/// one after another, and working one out (the diurnal wave's knots, their seeded noise) is not free.
public struct WeatherOutdoorTemperature: OutdoorTemperatureSource {
    public let weather: CityWeather
    private let recent = Recent()

    /// The two segments with a start handed out last, newest first.
    private final class Recent: Sendable {
        let segments = Mutex<(OutdoorTemperatureSegment?, OutdoorTemperatureSegment?)>((nil, nil))
    }

    /// Feeds `weather` to a zone.
    public init(weather: CityWeather) { self.weather = weather }

    public func outdoorSegment(at instant: SimInstant) -> OutdoorTemperatureSegment {
        // A remembered segment holds `instant` in [start, end): the weather's segments are half-open,
        // and every instant inside one gets that same segment from the weather.
        func holds(_ segment: OutdoorTemperatureSegment?) -> Bool {
            guard let segment, segment.start <= instant else { return false }
            return segment.end.map { instant < $0 } ?? true
        }
        if let hit = recent.segments.withLock({ holds($0.0) ? $0.0 : holds($0.1) ? $0.1 : nil }) { return hit }
        let segment = weather.outdoorSegment(at: instant)
        let made = Self.zoneSegment(segment, at: instant)
        // One without a start is made to start at `instant`: not the same for other instants.
        if segment.start != nil { recent.segments.withLock { $0 = (made, $0.0) } }
        return made
    }

    /// The weather's `segment` holding `instant`, as a zone takes it.
    private static func zoneSegment(_ segment: OutdoorSegment, at instant: SimInstant) -> OutdoorTemperatureSegment {
        guard let start = segment.start else {
            // No beginning means flat up to `end`.
            return OutdoorTemperatureSegment(start: instant, end: segment.end, celsiusAtStart: segment.startC, slopeKPerSecond: 0)
        }
        return OutdoorTemperatureSegment(start: start, end: segment.end, celsiusAtStart: segment.startC,
                                         slopeKPerSecond: segment.slopeKPerSecond)
    }
}
