import Foundation
import Synchronization

/// A client of OpenWeatherMap's current-weather and forecast APIs.
///
/// It builds the same requests a production deployment sends
/// (`{base}/data/2.5/weather?q=Budapest,HU&appid=KEY&units=metric`), decodes the same JSON,
/// and turns failures into ``WeatherError``s; only the transport decides whether the answer
/// comes from the fake feed or from api.openweathermap.org.
///
/// | answer | error code |
/// |---|---|
/// | 401 | `weather.unauthorized` |
/// | 404 | `weather.cityNotFound` |
/// | 429 | `weather.rateLimited` |
/// | 5xx | `weather.server` |
/// | 400 and other statuses | `weather.badRequest` |
/// | 200 that is not the expected JSON | `weather.decoding` |
/// | no HTTP answer | `weather.transport` |
///
/// Messages quote the service's own `message` and never contain the API key.
public struct OpenWeatherMapClient: Sendable {
    /// The service root, e.g. `https://api.openweathermap.org`.
    public let baseURL: URL
    /// ``baseURL`` as text without trailing slashes, the prefix of every request URL.
    private let baseText: String
    /// The API key sent as `appid`.
    public let apiKey: String
    /// The units requested; results are converted to °C and m/s whatever they are.
    public let units: OWMUnits
    /// How requests are sent.
    public let transport: any WeatherTransport

    /// Creates a client.
    /// - Parameters:
    ///   - baseURL: the service root (a path prefix is kept: `http://host/owm` → `http://host/owm/data/2.5/weather`).
    ///   - apiKey: the `appid`.
    ///   - transport: the fake feed's or the network's.
    ///   - units: the `units` to request (default `metric`).
    public init(baseURL: URL, apiKey: String, transport: any WeatherTransport, units: OWMUnits = .metric) {
        self.baseURL = baseURL
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        baseText = base
        self.apiKey = apiKey
        self.transport = transport
        self.units = units
    }

    // MARK: Requests

    /// The current weather at `location`.
    /// - Throws: ``WeatherError`` as in the table above.
    public func currentWeather(for location: WeatherLocation) async throws(WeatherError) -> CurrentWeather {
        try await currentWeather(try currentWeatherRequest(for: location))
    }

    /// A current-weather request built once, to be sent as often as wanted (its URL is the same every time):
    /// ``currentWeather(_:)`` sends it.
    public struct CurrentWeatherRequest: Sendable, Equatable {
        /// What the request asks about.
        public let location: WeatherLocation
        /// ``currentWeatherURL(for:)`` of the location.
        public let url: URL
        /// The units the URL requests, which the answer is read in.
        public let units: OWMUnits
        /// The last answer's body read by hand: the next is read against it (``OWMCurrentWeather/read(_:after:)``).
        let lastBody = LastBody()

        init(location: WeatherLocation, url: URL, units: OWMUnits) {
            self.location = location
            self.url = url
            self.units = units
        }

        /// Requests are equal when they ask the same (what they remember of their answers aside).
        public static func == (lhs: CurrentWeatherRequest, rhs: CurrentWeatherRequest) -> Bool {
            lhs.location == rhs.location && lhs.url == rhs.url && lhs.units == rhs.units
        }
    }

    /// The last body a ``CurrentWeatherRequest`` read by hand (shared by its copies; a request may be sent from anywhere).
    final class LastBody: Sendable {
        let body = Mutex<OWMCurrentWeather.ReadBody?>(nil)
    }

    /// The request ``currentWeather(for:)`` sends for `location`, built once to be sent many times.
    /// - Throws: ``WeatherError`` `weather.badRequest` if the base URL cannot take a path.
    public func currentWeatherRequest(for location: WeatherLocation) throws(WeatherError) -> CurrentWeatherRequest {
        CurrentWeatherRequest(location: location, url: try currentWeatherURL(for: location), units: units)
    }

    /// Sends a prepared current-weather request (through this client's transport) and reads the answer.
    /// - Throws: ``WeatherError`` as in the table above.
    public func currentWeather(_ request: CurrentWeatherRequest) async throws(WeatherError) -> CurrentWeather {
        let body: Data
        switch try await transport.currentWeather(request.url) {
        case .current(let wire)?:
            return try CurrentWeather(wire, units: request.units)
        case .response(let status, let bytes)?:
            body = try Self.checked(status: status, body: bytes, location: request.location)
        case nil:
            body = try await fetch(request.url, location: request.location)
        }
        return try CurrentWeather(try Self.decodeCurrentWeather(body, location: request.location, lastBody: request.lastBody),
                                  units: request.units)
    }

    /// The current weather in city `name`, optionally in country `countryCode` (`"HU"`).
    /// - Throws: ``WeatherError`` as in the table above.
    public func currentWeather(city name: String, countryCode: String? = nil) async throws(WeatherError) -> CurrentWeather {
        try await currentWeather(for: .city(name, countryCode: countryCode))
    }

    /// The 5-day / 3-hour forecast for `location`, optionally limited to `count` steps.
    /// - Throws: ``WeatherError`` as in the table above.
    public func forecast(for location: WeatherLocation, count: Int? = nil) async throws(WeatherError) -> WeatherForecast {
        let url = try forecastURL(for: location, count: count)
        let body = try await fetch(url, location: location)
        let wire: OWMForecastResponse = try Self.decode(body, what: "forecast", location: location)
        return try WeatherForecast(wire, units: units)
    }

    // MARK: URLs

    /// `{base}/data/2.5/weather?{location}&appid={key}&units={units}`, percent-encoded.
    /// - Throws: ``WeatherError`` `weather.badRequest` if the base URL cannot take a path.
    public func currentWeatherURL(for location: WeatherLocation) throws(WeatherError) -> URL {
        try url(path: "/data/2.5/weather", location.queryItems + [("appid", apiKey), ("units", units.rawValue)])
    }

    /// `{base}/data/2.5/forecast?{location}&appid={key}&units={units}[&cnt={count}]`, percent-encoded.
    /// - Throws: ``WeatherError`` `weather.badRequest` if the base URL cannot take a path.
    public func forecastURL(for location: WeatherLocation, count: Int? = nil) throws(WeatherError) -> URL {
        var items = location.queryItems + [("appid", apiKey), ("units", units.rawValue)]
        if let count { items.append(("cnt", String(count))) }
        return try url(path: "/data/2.5/forecast", items)
    }

    private func url(path: String, _ items: [(name: String, value: String)]) throws(WeatherError) -> URL {
        let base = baseText
        let query = items.map { "\(Self.percentEncoded($0.name))=\(Self.percentEncoded($0.value))" }.joined(separator: "&")
        guard let url = URL(string: base + path + "?" + query) else {
            throw WeatherError(.badRequest, "No request URL can be built from the base URL \"\(baseURL.absoluteString)\"; give a URL such as https://api.openweathermap.org.")
        }
        return url
    }

    /// Percent-encodes everything except the unreserved characters `A–Z a–z 0–9 - . _ ~` and `,`
    /// (so `q=Budapest,HU` stays readable, a space becomes `%20` and `+` becomes `%2B`).
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: ","):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// `url` with the value of `appid` replaced by `***`.
    public static func redacted(_ url: URL) -> String {
        let text = url.absoluteString
        guard let range = text.range(of: "appid=") else { return text }
        let end = text[range.upperBound...].firstIndex(of: "&") ?? text.endIndex
        return text.replacingCharacters(in: range.upperBound..<end, with: "***")
    }

    // MARK: Answers

    /// Sends the request; returns the body of a 200, throws the mapped error otherwise.
    private func fetch(_ url: URL, location: WeatherLocation) async throws(WeatherError) -> Data {
        let (status, body) = try await transport.get(url)
        return try Self.checked(status: status, body: body, location: location)
    }

    /// The body of a 200; the error of any other answer.
    private static func checked(status: Int, body: Data, location: WeatherLocation) throws(WeatherError) -> Data {
        guard status == 200 else { throw error(status: status, body: body, location: location) }
        return body
    }

    /// The error for a non-200 answer, quoting OpenWeatherMap's `message`.
    public static func error(status: Int, body: Data, location: WeatherLocation) -> WeatherError {
        let said: String
        // The hand-written reader when it settles the body, otherwise JSONDecoder (the same value where both read it).
        if let decoded = body.withUnsafeBytes({ OWMErrorBody(compactJSON: $0) }) ?? (try? JSONDecoder().decode(OWMErrorBody.self, from: body)) {
            said = "\"\(decoded.message)\""
        } else if body.isEmpty {
            said = "no message"
        } else {
            said = "\"\(String(decoding: body.prefix(200), as: UTF8.self))\""
        }
        switch status {
        case 401:
            return WeatherError(.unauthorized,
                                "OpenWeatherMap rejected the API key while asking about \(location) (HTTP 401: \(said)); check the API key the weather service is configured with.")
        case 404:
            return WeatherError(.cityNotFound,
                                "OpenWeatherMap does not know the location \(location) (HTTP 404: \(said)); check the city name and country code.")
        case 429:
            return WeatherError(.rateLimited,
                                "OpenWeatherMap refused the request for \(location) because the API key exceeded its request limit (HTTP 429: \(said)); wait for the next minute or ask less often.")
        case 500...599:
            return WeatherError(.server,
                                "OpenWeatherMap failed while answering about \(location) (HTTP \(status): \(said)); try again later.")
        default:
            return WeatherError(.badRequest,
                                "OpenWeatherMap rejected the request for \(location) (HTTP \(status): \(said)); check the request parameters.")
        }
    }

    /// A current-weather body: read by the hand-written reader when it can settle it, otherwise (and for
    /// every error message) by `JSONDecoder`, which gives the same value for every body the reader accepts.
    /// The body is read against the request's last one (`lastBody`), which it then replaces.
    private static func decodeCurrentWeather(_ body: Data, location: WeatherLocation, lastBody: LastBody) throws(WeatherError) -> OWMCurrentWeather {
        if let read = OWMCurrentWeather.read(body, after: lastBody.body.withLock { $0 }) {
            lastBody.body.withLock { $0 = read }
            return read.value
        }
        return try decode(body, what: "current-weather", location: location)
    }

    private static func decode<T: Decodable>(_ body: Data, what: String, location: WeatherLocation) throws(WeatherError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw WeatherError(.decoding,
                               "The \(what) answer for \(location) is not OpenWeatherMap JSON: \(describe(error)); check that the base URL points at an OpenWeatherMap-compatible service.")
        }
    }

    /// A one-line account of a decoding failure.
    private static func describe(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var out = ""
            for key in keys {
                if let index = key.intValue { out += "[\(index)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
            }
            return out.isEmpty ? "the top level" : out
        }
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)) is not of type \(type)"
        case .valueNotFound(let type, let context): return "\(path(context.codingPath)) is null where \(type) is needed"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the body is not valid JSON" : "\(path(context.codingPath)) is malformed"
        @unknown default: return "\(error)"
        }
    }
}
