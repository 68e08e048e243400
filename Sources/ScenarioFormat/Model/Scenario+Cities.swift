import Booking
import Weather

extension Scenario {
    /// How the fake weather feed describes `city` (a key of `weather`).
    ///
    /// - A city described under `cities` gets that entry's coordinates and country (default: its
    ///   listings' country, else `ZZ`), the scenario's time zone and the stable id
    ///   ``CitySpec/derivedID(forCity:)``.
    /// - Otherwise a built-in city (``CityGazetteer``, matched by name and the listings' country)
    ///   keeps its real OpenWeatherMap id, coordinates and time zone.
    /// - Any other name is a city at 0° N 0° E with a derived id, so a scenario may name any city it
    ///   gives weather for.
    /// - Throws: ``WeatherError`` `weather.invalidSource` when the description is not a valid
    ///   ``CityInfo`` (the decoder checks every field first, so this means a bug).
    public func feedCity(named city: String) throws(WeatherError) -> CityInfo {
        let listingCountry = listings.first { $0.city == city }?.country
        if cities[city] == nil, let builtIn = try? CityGazetteer.city(named: city, country: listingCountry) {
            return builtIn
        }
        let spec = cities[city]
        let code = spec?.countryCode ?? WeatherService.countryCode(for: listingCountry) ?? "ZZ"
        return try CityInfo(name: city, countryCode: code, owmID: CitySpec.derivedID(forCity: city),
                            latitude: spec?.latitude ?? 0, longitude: spec?.longitude ?? 0, calendar: calendar)
    }
}
