import Simulation
import Weather

/// Where a city outside the built-in gazetteer lies, as written under the top-level `cities`
/// (SCENARIO-FORMAT.md, "any city"): `{"Siófok": {"country": "HU", "lat": 46.9, "lon": 18.05}}`.
public struct CitySpec: Sendable, Equatable {
    /// The city's name, exactly as the `cities` key (and the listings' `city`) spell it.
    public var name: String
    /// ISO 3166 alpha-2 code, upper case, when given.
    public var countryCode: String?
    /// Latitude, degrees north (−90…90).
    public var latitude: Double
    /// Longitude, degrees east (−180…180).
    public var longitude: Double

    /// Creates a city description (the decoder has checked the ranges).
    public init(name: String, countryCode: String?, latitude: Double, longitude: Double) {
        self.name = name
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The first OpenWeatherMap id ``derivedID(forCity:)`` hands out; real OpenWeatherMap ids are
    /// far below it (under 13 million), so a derived id never collides with a built-in city's.
    public static let derivedIDBase = 900_000_000

    /// The stable OpenWeatherMap id of a city that is not built in: `900000000 + FNV-1a-64(name in
    /// lower case, UTF-8) mod 100000000`. The same name gives the same id in every run, process and
    /// machine; `q=` and `id=` requests both find the city.
    public static func derivedID(forCity name: String) -> Int {
        derivedIDBase + Int(StableHash.fnv1a64(name.lowercased()) % 100_000_000)
    }
}
