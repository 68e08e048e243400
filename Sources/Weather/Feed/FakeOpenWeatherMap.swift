import Foundation
import Simulation
import Synchronization

/// An in-process stand-in for api.openweathermap.org that answers from simulated weather at
/// simulated time.
///
/// It serves `GET /data/2.5/weather` (current weather), `GET /data/2.5/forecast`
/// (40 steps of 3 hours) and `GET /data/3.0/onecall` (by `lat`/`lon` only; `exclude` drops
/// sections) with the same JSON, statuses and error bodies as the real service
/// (WEATHER.md), so a real OpenWeatherMap client works against it unchanged.
///
/// A request is checked in this order:
/// 1. the path: anything else → 404 `{"cod":"404","message":"Internal error"}`;
/// 2. `appid`: missing or not one of the feed's keys → 401;
/// 3. the per-key request limit: more than ``requestsPerMinute`` requests with one key in
///    one simulated minute (a fixed window, `⌊dt / 60⌋`) → 429; every request counts, also
///    refused ones, as with the real service;
/// 4. the location: `q=City`, `q=City,CC` (case-insensitive; with `q=City,State,CC` the last
///    part is the country), `id=`, or `lat=&lon=` (the nearest city within
///    ``matchRadiusKm``); no location → 400 `Nothing to geocode`, unknown → 404 `city not found`;
/// 5. an injected fault for that city (``setFault(_:forCity:)``) → its status and body.
///
/// `units` is `standard` (Kelvin, the default), `metric` or `imperial`; an unknown value
/// falls back to `standard`, as the real service does. `cnt` limits the forecast's length.
/// Other parameters (`lang`, `mode`) are ignored; the answer is always JSON in English.
///
/// All state sits behind one `Mutex`, so the feed may be shared freely; every answer is a
/// pure function of the configuration, the request and the simulated instant passed in
/// (and of the earlier requests, for the limit).
public final class FakeOpenWeatherMap: Sendable {
    /// The request limit of OpenWeatherMap's free plan: 60 per minute.
    public static let freePlanRequestsPerMinute = 60
    /// How far from a known city a `lat=&lon=` request may be and still match it, km.
    public static let matchRadiusKm = 50.0

    private struct City {
        var info: CityInfo
        var weather: CityWeather
        var fault: FeedFault?
    }

    private struct Window {
        var minute: Int64
        var count: Int
    }

    private struct State {
        var cities: [City] = []
        var apiKeys: Set<String>
        var requestsPerMinute: Int?
        var windows: [String: Window] = [:]
        var requestCount = 0
        /// Request target → what it asks, read once: a client sends the same few targets every hour. Emptied
        /// when a city is added (a located city may change) and when it holds ``preparedLimit`` targets.
        var prepared: [String: Prepared] = [:]
        /// The last target asked about and what it asks (compared before ``prepared`` is hashed).
        var lastPrepared: (target: String, prepared: Prepared)?
    }

    /// What a request target asks, independent of the time and of the feed's keys, limits and faults.
    private struct Prepared {
        let request: FeedRequest
        /// `nil` for a path the feed does not serve.
        let endpoint: Endpoint?
        /// The `appid` (or `APPID`).
        let key: String?
        let units: OWMUnits
        /// The city the request names among the feed's cities, or the response saying why none
        /// (the same until a city is added).
        let located: Lookup<Int>

        init(target: String, cities: [City]) {
            request = FeedRequest(target: target)
            switch request.path {
            case "/data/2.5/weather": endpoint = .current
            case "/data/2.5/forecast": endpoint = .forecast
            case "/data/3.0/onecall": endpoint = .oneCall
            default: endpoint = nil
            }
            key = request["appid"] ?? request["APPID"]
            units = request["units"].flatMap(OWMUnits.init(rawValue:)) ?? .standard
            located = FakeOpenWeatherMap.locate(request, in: cities)
        }
    }

    /// How many request targets the feed remembers (a server's clients may send any number).
    private static let preparedLimit = 256

    private let state: Mutex<State>

    /// Creates a feed with no cities.
    /// - Parameters:
    ///   - apiKeys: the keys it accepts (none: every request gets 401).
    ///   - requestsPerMinute: the per-key limit per simulated minute; `nil` for no limit.
    ///     Negative values count as 0 (every request refused).
    public init(apiKeys: [String] = [], requestsPerMinute: Int? = FakeOpenWeatherMap.freePlanRequestsPerMinute) {
        state = Mutex(State(apiKeys: Set(apiKeys), requestsPerMinute: requestsPerMinute.map { max(0, $0) }))
    }

    // MARK: Configuration

    /// Accepts `key` from now on.
    public func addAPIKey(_ key: String) {
        state.withLock { _ = $0.apiKeys.insert(key) }
    }

    /// Stops accepting `key`.
    public func removeAPIKey(_ key: String) {
        state.withLock { _ = $0.apiKeys.remove(key) }
    }

    /// The per-key limit per simulated minute (`nil`: unlimited).
    public var requestsPerMinute: Int? { state.withLock { $0.requestsPerMinute } }

    /// Changes the per-key limit; `nil` removes it. Counts of the current minute are kept.
    public func setRequestsPerMinute(_ limit: Int?) {
        state.withLock { $0.requestsPerMinute = limit.map { max(0, $0) } }
    }

    /// How many requests the feed has answered, whatever the outcome.
    public var requestCount: Int { state.withLock { $0.requestCount } }

    /// Adds a city and its weather.
    /// - Throws: ``WeatherError`` `weather.invalidSource` when a city with the same
    ///   OpenWeatherMap id, or the same name in the same country, is already there.
    public func addCity(_ info: CityInfo, weather: CityWeather) throws(WeatherError) {
        try state.withLock { (state: inout State) throws(WeatherError) in
            if let clash = state.cities.first(where: {
                $0.info.owmID == info.owmID || $0.info.matches(name: info.name, countryCode: info.countryCode)
            }) {
                throw WeatherError(.invalidSource,
                                   "The feed already has \(clash.info.name),\(clash.info.countryCode) (id \(clash.info.owmID)); cannot add \(info.name),\(info.countryCode) (id \(info.owmID)) as well.")
            }
            state.cities.append(City(info: info, weather: weather, fault: nil))
            state.prepared.removeAll()
            state.lastPrepared = nil
        }
    }

    /// The names of the cities, as `Name,CC`, sorted.
    public var cityNames: [String] {
        state.withLock { $0.cities.map { "\($0.info.name),\($0.info.countryCode)" } }.sorted()
    }

    /// The city `name` (`"Budapest"` or `"Budapest,HU"`), if the feed has it.
    public func city(named name: String) -> CityInfo? {
        state.withLock { state in Self.index(of: name, in: state.cities).map { state.cities[$0].info } }
    }

    /// The weather of city `name` (`"Budapest"` or `"Budapest,HU"`), if the feed has it.
    public func weather(forCity name: String) -> CityWeather? {
        state.withLock { state in Self.index(of: name, in: state.cities).map { state.cities[$0].weather } }
    }

    /// Replaces the weather of city `name`.
    /// - Throws: ``WeatherError`` `weather.cityNotFound` when the feed has no such city.
    public func setWeather(_ weather: CityWeather, forCity name: String) throws(WeatherError) {
        try update(name) { $0.weather = weather }
    }

    /// Adds a timeline override to the weather of city `name` (a scenario `weather` step).
    /// - Throws: ``WeatherError`` `weather.cityNotFound` when the feed has no such city.
    public func addOverride(_ override: WeatherOverride, forCity name: String) throws(WeatherError) {
        try update(name) { $0.weather = $0.weather.overriding(override) }
    }

    /// Makes every request for city `name` fail with `fault` until cleared with `nil`
    /// (a scenario `feed` step).
    /// - Throws: ``WeatherError`` `weather.cityNotFound` when the feed has no such city.
    public func setFault(_ fault: FeedFault?, forCity name: String) throws(WeatherError) {
        try update(name) { $0.fault = fault }
    }

    /// The fault injected for city `name`, if any.
    public func fault(forCity name: String) -> FeedFault? {
        state.withLock { state in Self.index(of: name, in: state.cities).flatMap { state.cities[$0].fault } }
    }

    // MARK: Requests

    /// Answers a GET of `url` at simulated time `instant` (host and scheme are ignored).
    public func respond(to url: URL, at instant: SimInstant) -> FeedResponse {
        respond(toTarget: url.absoluteString, at: instant)
    }

    /// Answers a GET of `target` — an origin-form request target such as
    /// `/data/2.5/weather?q=Budapest,HU&appid=KEY`, or an absolute URL — at simulated time `instant`.
    public func respond(toTarget target: String, at instant: SimInstant) -> FeedResponse {
        switch admit(target, at: instant) {
        case .refused(let response):
            return response
        case .found(let found):
            return Self.response(found, at: instant)
        }
    }

    /// Answers a GET of `target` as ``respond(toTarget:at:)`` does, but gives a current-weather body as the value
    /// its bytes are written from (the typed path of ``FakeFeedTransport``); it counts, limits and fails
    /// exactly as ``respond(toTarget:at:)``, whose bytes are that value written.
    public func answer(toTarget target: String, at instant: SimInstant) -> TypedWeatherAnswer {
        switch admit(target, at: instant) {
        case .refused(let response):
            return .bytes(response)
        case .found(let found):
            guard found.endpoint == .current else { return .bytes(Self.response(found, at: instant)) }
            // As the client reads it back from the bytes; one that cannot be written is the feed's 500 either way.
            return Self.currentBody(found, at: instant).readBack.map { .current($0) } ?? .bytes(.fault(.serverError))
        }
    }

    // MARK: Private

    /// A request the feed serves: the city it names, with what the answer is made from.
    private struct Found {
        let city: CityInfo
        let weather: CityWeather
        let request: FeedRequest
        let endpoint: Endpoint
        let units: OWMUnits
    }

    /// Counts the request and checks it (path, key, limit, location, fault): the city to answer about, or the refusal.
    private func admit(_ target: String, at instant: SimInstant) -> Lookup<Found> {
        state.withLock { state in
            state.requestCount += 1
            let prepared: Prepared
            if let last = state.lastPrepared, last.target == target {
                prepared = last.prepared  // the same target as the last request (an hourly client's usual case): no hashing
            } else if let known = state.prepared[target] {
                prepared = known
                state.lastPrepared = (target, known)
            } else {
                prepared = Prepared(target: target, cities: state.cities)
                if state.prepared.count >= Self.preparedLimit { state.prepared.removeAll() }
                state.prepared[target] = prepared
                state.lastPrepared = (target, prepared)
            }
            guard let endpoint = prepared.endpoint else { return .refused(.error(404, .unknownPath)) }
            guard let key = prepared.key, state.apiKeys.contains(key) else { return .refused(.fault(.unauthorized)) }
            if let limit = state.requestsPerMinute {
                let minute = instant.unixSeconds.floorDivided(by: 60).quotient
                // One look-up, the window counted in place.
                if Self.count(&state.windows[key, default: Window(minute: minute, count: 0)], minute: minute) > limit {
                    return .refused(.fault(.rateLimited))
                }
            }
            if endpoint == .oneCall, prepared.request["lat"] == nil || prepared.request["lon"] == nil {
                return .refused(.error(400, .nothingToGeocode))  // One Call takes coordinates only
            }
            switch prepared.located {
            case .refused(let response):
                return .refused(response)
            case .found(let i):
                if let fault = state.cities[i].fault { return .refused(.fault(fault)) }
                return .found(Found(city: state.cities[i].info, weather: state.cities[i].weather, request: prepared.request,
                                    endpoint: endpoint, units: prepared.units))
            }
        }
    }

    /// Counts a request in a key's window of `minute` (a window of another minute starts afresh): the count.
    private static func count(_ window: inout Window, minute: Int64) -> Int {
        if window.minute != minute { window = Window(minute: minute, count: 0) }
        window.count += 1
        return window.count
    }

    /// The current-weather body of a found request.
    private static func currentBody(_ found: Found, at instant: SimInstant) -> OWMCurrentWeather {
        FeedRenderer.current(city: found.city, sample: found.weather.sample(at: instant), at: instant, units: found.units)
    }

    /// The answer to a found request, as bytes.
    private static func response(_ found: Found, at instant: SimInstant) -> FeedResponse {
        let (city, weather, request, units) = (found.city, found.weather, found.request, found.units)
        switch found.endpoint {
        case .current:
            // The hand-written writer: the same bytes as OrderedJSONEncoder, without its node tree; straight from the
            // rendered body (its ``OWMCurrentWeather/readBack`` writes the same bytes: `-0` is written `0` either way,
            // and a non-finite number is the feed's 500 either way).
            guard let bytes = currentBody(found, at: instant).compactJSON() else { return .fault(.serverError) }
            return FeedResponse(status: 200, body: bytes)
        case .forecast:
            let count = request["cnt"].flatMap { Int($0) }.map { min(max($0, 1), 40) } ?? 40
            return encoded(FeedRenderer.forecast(city: city, weather: weather, at: instant, units: units, count: count))
        case .oneCall:
            let exclude = Set((request["exclude"] ?? "").split(separator: ",").map { $0.trimmingBlanks.lowercased() })
            if let unknown = exclude.subtracting(FeedRenderer.oneCallSections).sorted().first {
                return .error(400, OWMErrorBody(cod: .text("400"), message: "\(unknown) is not a valid value for exclude"))
            }
            return encoded(FeedRenderer.oneCall(city: city, weather: weather, at: instant, units: units, exclude: exclude))
        }
    }

    /// A 200 with `body` as JSON, or the feed's 500 when it cannot be written.
    private static func encoded(_ body: some Encodable) -> FeedResponse {
        do throws(SimulationError) {
            return FeedResponse(status: 200, body: try OrderedJSONEncoder().encode(body))
        } catch {
            return .fault(.serverError)
        }
    }

    private enum Endpoint {
        case current, forecast, oneCall
    }

    /// The result of a look-up: what was found, or the error response to send instead.
    private enum Lookup<Found> {
        case found(Found)
        case refused(FeedResponse)
    }

    private func update(_ name: String, _ change: (inout City) -> Void) throws(WeatherError) {
        try state.withLock { (state: inout State) throws(WeatherError) in
            guard let i = Self.index(of: name, in: state.cities) else {
                let known = state.cities.map { "\($0.info.name),\($0.info.countryCode)" }.sorted().joined(separator: ", ")
                throw WeatherError(.cityNotFound,
                                   "The fake feed has no city \"\(name)\"; add it with addCity first (known: \(known.isEmpty ? "none" : known)).")
            }
            change(&state.cities[i])
        }
    }

    /// The index of the city `spec` (`Name` or `Name,CC`, or `Name,State,CC`), first match in insertion order.
    private static func index(of spec: String, in cities: [City]) -> Int? {
        // Cut at the first and the last comma (bytes: a comma is ASCII, so the cuts fall between characters).
        let bytes = spec.utf8
        let name = Substring(bytes[..<(bytes.firstIndex(of: UInt8(ascii: ",")) ?? bytes.endIndex)])
        let country = bytes.lastIndex(of: UInt8(ascii: ",")).map { Substring(bytes[bytes.index(after: $0)...]) }
        // Normalised once here rather than once per city.
        let wantedName = name.trimmingBlanks.lowercased()
        let wantedCountry = country?.trimmingBlanks.uppercased()
        return cities.firstIndex { $0.info.matches(lowercasedName: wantedName, uppercasedCountryCode: wantedCountry) }
    }

    /// Finds the requested city, or the 400/404 response saying why not.
    private static func locate(_ request: FeedRequest, in cities: [City]) -> Lookup<Int> {
        if let q = request["q"] {
            guard !q.trimmingBlanks.isEmpty else { return .refused(.error(400, .nothingToGeocode)) }
            return index(of: q, in: cities).map { .found($0) } ?? .refused(.fault(.cityNotFound))
        }
        if let idText = request["id"] {
            guard let id = Int(idText) else { return .refused(.error(400, OWMErrorBody(cod: .text("400"), message: "\(idText) is not a city ID"))) }
            return cities.firstIndex { $0.info.owmID == id }.map { .found($0) } ?? .refused(.fault(.cityNotFound))
        }
        if let latText = request["lat"], let lonText = request["lon"] {
            guard let lat = Double(latText), lat.isFinite, (-90...90).contains(lat) else {
                return .refused(.error(400, OWMErrorBody(cod: .text("400"), message: "wrong latitude")))
            }
            guard let lon = Double(lonText), lon.isFinite, (-180...180).contains(lon) else {
                return .refused(.error(400, OWMErrorBody(cod: .text("400"), message: "wrong longitude")))
            }
            var best: (index: Int, km: Double)?
            for (i, city) in cities.enumerated() {
                let km = city.info.distanceKm(toLatitude: lat, longitude: lon)
                if km <= matchRadiusKm, km < (best?.km ?? .infinity) { best = (i, km) }
            }
            return best.map { .found($0.index) } ?? .refused(.fault(.cityNotFound))
        }
        return .refused(.error(400, .nothingToGeocode))
    }
}
