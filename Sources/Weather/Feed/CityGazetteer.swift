import Simulation

/// Built-in descriptions of some well-known cities, so a scenario can name a city
/// (`"Budapest"`, country `"Hungary"` or `"HU"`) and get its OpenWeatherMap id, coordinates,
/// elevation and time zone.
///
/// Coordinates, ids and populations follow OpenWeatherMap's city list (GeoNames); they
/// only have to be plausible, since the feed serves simulated weather.
public enum CityGazetteer {
    /// One built-in city.
    public struct Entry: Sendable, Equatable {
        /// OpenWeatherMap's name.
        public let name: String
        /// ISO 3166 alpha-2 code.
        public let countryCode: String
        /// The country's English name.
        public let countryName: String
        /// OpenWeatherMap city id.
        public let owmID: Int
        /// Latitude, degrees north.
        public let latitude: Double
        /// Longitude, degrees east.
        public let longitude: Double
        /// IANA time-zone name.
        public let timeZone: String
        /// Elevation, m.
        public let elevationM: Double
        /// Population.
        public let population: Int
    }

    /// Every built-in city, sorted by name.
    public static let entries: [Entry] = [
        Entry(name: "Amsterdam", countryCode: "NL", countryName: "Netherlands", owmID: 2_759_794, latitude: 52.374, longitude: 4.8897,
              timeZone: "Europe/Amsterdam", elevationM: 0, population: 741_636),
        Entry(name: "Athens", countryCode: "GR", countryName: "Greece", owmID: 264_371, latitude: 37.9838, longitude: 23.7278,
              timeZone: "Europe/Athens", elevationM: 70, population: 664_046),
        Entry(name: "Barcelona", countryCode: "ES", countryName: "Spain", owmID: 3_128_760, latitude: 41.3888, longitude: 2.159,
              timeZone: "Europe/Madrid", elevationM: 12, population: 1_621_537),
        Entry(name: "Berlin", countryCode: "DE", countryName: "Germany", owmID: 2_950_159, latitude: 52.5244, longitude: 13.4105,
              timeZone: "Europe/Berlin", elevationM: 34, population: 3_426_354),
        Entry(name: "Budapest", countryCode: "HU", countryName: "Hungary", owmID: 3_054_643, latitude: 47.498, longitude: 19.0399,
              timeZone: "Europe/Budapest", elevationM: 150, population: 1_741_041),
        Entry(name: "Lisbon", countryCode: "PT", countryName: "Portugal", owmID: 2_267_057, latitude: 38.7167, longitude: -9.1333,
              timeZone: "Europe/Lisbon", elevationM: 45, population: 517_802),
        Entry(name: "London", countryCode: "GB", countryName: "United Kingdom", owmID: 2_643_743, latitude: 51.5085, longitude: -0.1257,
              timeZone: "Europe/London", elevationM: 11, population: 7_556_900),
        Entry(name: "Madrid", countryCode: "ES", countryName: "Spain", owmID: 3_117_735, latitude: 40.4165, longitude: -3.7026,
              timeZone: "Europe/Madrid", elevationM: 667, population: 3_255_944),
        Entry(name: "Munich", countryCode: "DE", countryName: "Germany", owmID: 2_867_714, latitude: 48.1374, longitude: 11.5755,
              timeZone: "Europe/Berlin", elevationM: 519, population: 1_260_391),
        Entry(name: "New York", countryCode: "US", countryName: "United States", owmID: 5_128_581, latitude: 40.7143, longitude: -74.006,
              timeZone: "America/New_York", elevationM: 10, population: 8_175_133),
        Entry(name: "Paris", countryCode: "FR", countryName: "France", owmID: 2_988_507, latitude: 48.8534, longitude: 2.3488,
              timeZone: "Europe/Paris", elevationM: 35, population: 2_138_551),
        Entry(name: "Prague", countryCode: "CZ", countryName: "Czechia", owmID: 3_067_696, latitude: 50.088, longitude: 14.4208,
              timeZone: "Europe/Prague", elevationM: 235, population: 1_165_581),
        Entry(name: "Rome", countryCode: "IT", countryName: "Italy", owmID: 3_169_070, latitude: 41.8947, longitude: 12.4839,
              timeZone: "Europe/Rome", elevationM: 21, population: 2_318_895),
        Entry(name: "Vienna", countryCode: "AT", countryName: "Austria", owmID: 2_761_369, latitude: 48.2085, longitude: 16.3721,
              timeZone: "Europe/Vienna", elevationM: 190, population: 1_691_468),
        Entry(name: "Warsaw", countryCode: "PL", countryName: "Poland", owmID: 756_135, latitude: 52.2298, longitude: 21.0118,
              timeZone: "Europe/Warsaw", elevationM: 100, population: 1_702_139),
    ]

    /// The built-in city `name` (case-insensitive), optionally in `country` (an ISO code such as
    /// `"HU"` or an English name such as `"Hungary"`, case-insensitive).
    /// - Throws: ``WeatherError`` `weather.invalidSource` when no built-in city matches,
    ///   listing the known ones.
    public static func city(named name: String, country: String? = nil) throws(WeatherError) -> CityInfo {
        let wantedName = name.lowercased()
        let wantedCountry = country?.lowercased()
        let match = entries.first { entry in
            entry.name.lowercased() == wantedName
                && (wantedCountry.map { $0 == entry.countryCode.lowercased() || $0 == entry.countryName.lowercased() } ?? true)
        }
        guard let match else {
            let known = entries.map { "\($0.name) (\($0.countryCode))" }.joined(separator: ", ")
            let inCountry = country.map { " in \"\($0)\"" } ?? ""
            throw WeatherError(.invalidSource,
                               "There is no built-in city \"\(name)\"\(inCountry); use one of \(known), or describe the city with CityInfo.")
        }
        let calendar: LocalCalendar
        do {
            calendar = try LocalCalendar(identifier: match.timeZone)
        } catch {
            throw WeatherError(.invalidSource, "The time zone \(match.timeZone) of \(match.name) is unknown on this machine: \(error.message)")
        }
        return try CityInfo(name: match.name, countryCode: match.countryCode, owmID: match.owmID, latitude: match.latitude,
                            longitude: match.longitude, calendar: calendar, elevationM: match.elevationM, population: match.population)
    }
}
