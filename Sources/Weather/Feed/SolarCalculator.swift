import Foundation
import Simulation

/// Sunrise and sunset by the standard "sunrise equation" (the NOAA-style low-precision
/// solar position: mean anomaly, equation of centre, ecliptic longitude, declination,
/// hour angle for a solar altitude of −0.833° to allow for refraction and the Sun's disc).
///
/// Accurate to a minute or two away from the polar circles, which is all the feed's
/// `sunrise`, `sunset` and day/night icons need.
enum SolarCalculator {
    /// The Sun's behaviour on one day at one place.
    enum SunTimes: Equatable {
        /// The Sun rises and sets.
        case normal(sunrise: SimInstant, sunset: SimInstant)
        /// The Sun stays above the horizon all day.
        case polarDay
        /// The Sun stays below the horizon all day.
        case polarNight

        /// Whether the Sun is up at `instant` (by this day's times).
        func isDay(at instant: SimInstant) -> Bool {
            switch self {
            case .normal(let rise, let set): rise <= instant && instant < set
            case .polarDay: true
            case .polarNight: false
            }
        }

        /// Sunrise and sunset in Unix seconds, both 0 when the Sun neither rises nor sets.
        var unixSeconds: (sunrise: Int64, sunset: Int64) {
            switch self {
            case .normal(let rise, let set): (rise.unixSeconds, set.unixSeconds)
            case .polarDay, .polarNight: (0, 0)
            }
        }
    }

    /// Sunrise and sunset on the civil date `date` at a place (longitude east positive).
    static func sunTimes(on date: CivilDate, latitude: Double, longitude: Double) -> SunTimes {
        let rad = Double.pi / 180
        let n = Double(date.daysSinceEpoch - 10_957)  // days since 2000-01-01 (J2000.0 is its noon)
        let meanSolarTime = n - longitude / 360
        let m = (357.5291 + 0.985_600_28 * meanSolarTime).truncatingRemainder(dividingBy: 360)
        let centre = 1.9148 * sin(m * rad) + 0.02 * sin(2 * m * rad) + 0.0003 * sin(3 * m * rad)
        let lambda = (m + centre + 180 + 102.9372).truncatingRemainder(dividingBy: 360)
        let transit = 2_451_545.0 + meanSolarTime + 0.0053 * sin(m * rad) - 0.0069 * sin(2 * lambda * rad)
        let sinDeclination = sin(lambda * rad) * sin(23.4397 * rad)
        let cosDeclination = (1 - sinDeclination * sinDeclination).squareRoot()
        let cosHourAngle = (sin(-0.833 * rad) - sin(latitude * rad) * sinDeclination) / (cos(latitude * rad) * cosDeclination)
        if !cosHourAngle.isFinite { return latitude * sinDeclination > 0 ? .polarDay : .polarNight }
        if cosHourAngle < -1 { return .polarDay }
        if cosHourAngle > 1 { return .polarNight }
        let hourAngleDays = acos(cosHourAngle) / rad / 360
        func instant(_ julian: Double) -> SimInstant {
            SimInstant(unixSeconds: Int64(((julian - 2_440_587.5) * 86_400).rounded()))
        }
        return .normal(sunrise: instant(transit - hourAngleDays), sunset: instant(transit + hourAngleDays))
    }
}
