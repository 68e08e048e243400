import Foundation
import Simulation

/// Where a city is and how the fake feed names it: the geographic half of a feed city.
public struct CityInfo: Sendable, Equatable {
    /// The name OpenWeatherMap uses (`Budapest`); matched case-insensitively in `q=`.
    public let name: String
    /// ``name`` lower-cased, compared with every request's `q`.
    let lowercasedName: String
    /// ISO 3166-1 alpha-2 country code, upper case (`HU`).
    public let countryCode: String
    /// OpenWeatherMap's city id (`3054643`), for `id=` requests.
    public let owmID: Int
    /// Latitude, degrees north (−90…90).
    public let latitude: Double
    /// Longitude, degrees east (−180…180).
    public let longitude: Double
    /// The city's local calendar (its IANA zone), for `timezone` and local hours.
    public let calendar: LocalCalendar
    /// Height above sea level, m, for `grnd_level`.
    public let elevationM: Double
    /// Population, reported by the forecast (0 when unknown).
    public let population: Int

    /// Creates a validated city description.
    /// - Throws: ``WeatherError`` `weather.invalidSource` naming the field and value for an
    ///   empty name or one with a comma, a country code that is not two letters, coordinates
    ///   out of range or not finite, or a negative population.
    public init(name: String, countryCode: String, owmID: Int, latitude: Double, longitude: Double,
                calendar: LocalCalendar, elevationM: Double = 0, population: Int = 0) throws(WeatherError) {
        let trimmed = name.trimmingBlanks
        guard !trimmed.isEmpty, !trimmed.contains(",") else {
            throw WeatherError(.invalidSource, "city name \"\(name)\" is empty or contains a comma; give the plain city name, e.g. \"Budapest\".")
        }
        let code = countryCode.uppercased()
        guard code.count == 2, code.unicodeScalars.allSatisfy({ $0.value >= 65 && $0.value <= 90 }) else {
            throw WeatherError(.invalidSource,
                               "countryCode of \(trimmed) is \"\(countryCode)\", not an ISO 3166 two-letter code; write e.g. \"HU\".")
        }
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw WeatherError(.invalidSource, "latitude of \(trimmed) is \(NumberText.plain(latitude)), outside −90…90 degrees.")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw WeatherError(.invalidSource, "longitude of \(trimmed) is \(NumberText.plain(longitude)), outside −180…180 degrees.")
        }
        guard elevationM.isFinite, (-500...9_000).contains(elevationM) else {
            throw WeatherError(.invalidSource, "elevationM of \(trimmed) is \(NumberText.plain(elevationM)), outside −500…9000 m.")
        }
        guard population >= 0 else {
            throw WeatherError(.invalidSource, "population of \(trimmed) is \(population); give 0 or more (0 = unknown).")
        }
        self.name = trimmed
        lowercasedName = trimmed.lowercased()
        self.countryCode = code
        self.owmID = owmID
        self.latitude = latitude
        self.longitude = longitude
        self.calendar = calendar
        self.elevationM = elevationM
        self.population = population
    }

    /// Great-circle distance to a point, km (haversine, mean Earth radius 6371.0088 km).
    public func distanceKm(toLatitude lat: Double, longitude lon: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat - latitude) * rad, dLon = (lon - longitude) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(latitude * rad) * cos(lat * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371.0088 * asin(min(1, a.squareRoot()))
    }

    /// Whether `name` (case-insensitive) and, if given, `countryCode` (case-insensitive) match this city.
    func matches(name query: String, countryCode queryCountry: String?) -> Bool {
        matches(lowercasedName: query.trimmingBlanks.lowercased(),
                uppercasedCountryCode: queryCountry?.trimmingBlanks.uppercased())
    }

    /// ``matches(name:countryCode:)`` for a query already trimmed and case-folded (to look through many
    /// cities normalising the query once).
    func matches(lowercasedName query: String, uppercasedCountryCode queryCountry: String?) -> Bool {
        guard query == lowercasedName else { return false }
        guard let queryCountry else { return true }
        return queryCountry == countryCode
    }
}
