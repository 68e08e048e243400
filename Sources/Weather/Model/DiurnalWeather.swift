import Foundation
import Simulation

/// A city's weather as a daily temperature wave plus seeded noise.
///
/// **Definition.** The temperature is the piecewise-linear curve through hourly *knots*,
/// one at every whole UTC hour `k` (the instant `k · 3600 s` after the Unix epoch):
///
///     knot(k) = meanC − amplitudeK · cos(2π · (h(k) − minAtHour) / 24) + noiseK · z(k)
///
/// where `h(k)` is the local wall-clock hour of day (fractional for zones with a minutes
/// offset) at that instant in the city's ``calendar`` — daylight saving included, so the
/// minimum stays at `minAtHour` local time all year — and `z(k)` is a standard normal
/// variate drawn from `SplitMix64.stream(seed: seed, named: "weather/<city>/<k>")`
/// (`k` in decimal). Between knots the temperature is linear.
///
/// The value at any instant is therefore a pure function of the seed, the city name, the
/// calendar and the instant: it never depends on which times were asked before or in what
/// order. Humidity, condition, wind and the other fields come unchanged from ``template``.
public struct DiurnalWeather: Sendable, Equatable {
    /// The daily mean temperature, °C.
    public let meanC: Double
    /// Half the daily swing, K (0 or more): the temperature runs from `meanC − amplitudeK`
    /// at ``minAtHour`` to `meanC + amplitudeK` twelve hours later.
    public let amplitudeK: Double
    /// The local hour of the daily minimum, 0–23.
    public let minAtHour: Int
    /// The standard deviation of the hourly noise, K (0 or more; 0 for a pure sine).
    public let noiseK: Double
    /// The scenario seed the noise is derived from.
    public let seed: UInt64
    /// The city name, part of the noise stream's name.
    public let city: String
    /// The city's local calendar, for the local hour of day.
    public let calendar: LocalCalendar
    /// Every field except the temperature (humidity, condition, wind, …).
    public let template: WeatherSample
    /// The FNV-1a hash of `weather/<city>/`, the part of every noise stream's name that stays the same.
    private let noiseNamePrefixHash: UInt64

    /// The spacing of the knots: one hour.
    public static let knotSpacing = SimDuration.hours(1)

    /// Creates a diurnal source.
    /// - Parameters:
    ///   - meanC: the daily mean, °C.
    ///   - amplitudeK: half the daily swing, K.
    ///   - minAtHour: the local hour of the minimum, 0–23.
    ///   - noiseK: the noise's standard deviation, K.
    ///   - seed: the scenario seed.
    ///   - city: the city name (it names the noise streams).
    ///   - calendar: the city's calendar.
    ///   - template: humidity, condition, wind … (its temperature is ignored); default: a
    ///     sample with the defaults of ``WeatherSample/init(tempC:humidity:condition:windMps:windDeg:pressureHPa:cloudsPercent:precipitationMmPerHour:fieldPath:)``.
    ///   - fieldPath: where the source comes from (`"weather.Budapest.diurnal"`), for error messages.
    /// - Throws: ``WeatherError`` `weather.invalidSource` naming the field and value for a
    ///   non-finite number, a negative amplitude or noise, or `minAtHour` outside 0–23.
    public init(meanC: Double, amplitudeK: Double, minAtHour: Int, noiseK: Double = 0, seed: UInt64, city: String,
                calendar: LocalCalendar, template: WeatherSample? = nil, fieldPath: String = "diurnal") throws(WeatherError) {
        for (name, value) in [("meanC", meanC), ("amplitudeK", amplitudeK), ("noiseK", noiseK)] where !value.isFinite {
            throw WeatherError(.invalidSource, "\(fieldPath).\(name) is \(value), which is not a finite number; give a plain number.")
        }
        guard amplitudeK >= 0 else {
            throw WeatherError(.invalidSource,
                               "\(fieldPath).amplitudeK is \(NumberText.plain(amplitudeK)), but an amplitude cannot be negative; give 0 or more K (half the daily swing).")
        }
        guard noiseK >= 0 else {
            throw WeatherError(.invalidSource,
                               "\(fieldPath).noiseK is \(NumberText.plain(noiseK)), but a standard deviation cannot be negative; give 0 or more K.")
        }
        guard (0...23).contains(minAtHour) else {
            throw WeatherError(.invalidSource,
                               "\(fieldPath).minAtHour is \(minAtHour), outside 0–23; give the local hour of the daily minimum, e.g. 5.")
        }
        self.meanC = meanC
        self.amplitudeK = amplitudeK
        self.minAtHour = minAtHour
        self.noiseK = noiseK
        self.seed = seed
        self.city = city
        self.calendar = calendar
        noiseNamePrefixHash = StableHash.fnv1a64("weather/\(city)/")
        if let template {
            self.template = template
        } else {
            self.template = try WeatherSample(tempC: meanC, fieldPath: fieldPath)
        }
    }

    /// The knot temperature at the whole UTC hour `hour` (hours since the Unix epoch), °C.
    public func knotC(hour: Int64) -> Double {
        let instant = SimInstant(unixMilliseconds: hour * 3_600_000)
        // localDateTime(at:).time.millisecondOfDay, without the calendar date in between.
        let millisecondOfDay = calendar.wallMilliseconds(at: instant).floorDivided(by: 86_400_000).remainder
        let hourOfDay = Double(millisecondOfDay) / 3_600_000
        var value = meanC - amplitudeK * cos(2 * Double.pi * (hourOfDay - Double(minAtHour)) / 24)
        if noiseK > 0 {
            // The stream named "weather/<city>/<hour>", its name hashed on from the part that stays the same.
            var random = SplitMix64.stream(seed: seed, nameHash: StableHash.fnv1a64(noiseNamePrefixHash, appendingDecimal: hour))
            value += noiseK * random.nextGaussian()
        }
        return value
    }

    /// The straight piece between the knots around `instant`.
    public func outdoorSegment(at instant: SimInstant) -> OutdoorSegment {
        let hour = instant.unixMilliseconds.floorDivided(by: 3_600_000).quotient
        let startC = knotC(hour: hour)
        let endC = knotC(hour: hour + 1)
        let start = SimInstant(unixMilliseconds: hour * 3_600_000)
        return OutdoorSegment(start: start, end: start + Self.knotSpacing, startC: startC,
                              slopeKPerSecond: (endC - startC) / Self.knotSpacing.seconds)
    }

    /// The weather at `instant`: ``template`` with the curve's temperature.
    public func sample(at instant: SimInstant) -> WeatherSample {
        template.withTemperature(outdoorSegment(at: instant).temperatureC(at: instant))
    }
}
