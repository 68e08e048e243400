import Devices
import ScenarioFormat
import Simulation
import Weather

/// Feeds a city's weather to a thermal zone: the Weather target's piecewise-linear segments
/// as the Devices target's outdoor temperature source.
public struct WeatherOutdoorTemperature: OutdoorTemperatureSource {
    public let weather: CityWeather

    /// Feeds `weather` to a zone.
    public init(weather: CityWeather) { self.weather = weather }

    public func outdoorSegment(at instant: SimInstant) -> OutdoorTemperatureSegment {
        let segment = weather.outdoorSegment(at: instant)
        guard let start = segment.start else {
            // No beginning means flat up to `end`.
            return OutdoorTemperatureSegment(start: instant, end: segment.end, celsiusAtStart: segment.startC, slopeKPerSecond: 0)
        }
        return OutdoorTemperatureSegment(start: start, end: segment.end, celsiusAtStart: segment.startC,
                                         slopeKPerSecond: segment.slopeKPerSecond)
    }
}
