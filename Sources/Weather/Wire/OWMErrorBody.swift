/// An OpenWeatherMap error body: `{"cod":401,"message":"Invalid API key. …"}`.
///
/// `cod` is a number for some errors and a string for others (``OWMCode``). The static
/// bodies are the ones the real service sends; encoded with ``OrderedJSONEncoder`` they are
/// byte for byte what it sends.
public struct OWMErrorBody: Sendable, Equatable, Codable {
    /// The status, as number or string.
    public var cod: OWMCode
    /// What went wrong, in the service's words.
    public var message: String

    /// Creates a body.
    public init(cod: OWMCode, message: String) {
        self.cod = cod
        self.message = message
    }

    /// 401, missing or unknown API key (numeric `cod`).
    public static let invalidAPIKey = OWMErrorBody(
        cod: .number(401), message: "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info.")

    /// 404, unknown location (string `cod`).
    public static let cityNotFound = OWMErrorBody(cod: .text("404"), message: "city not found")

    /// 429, request limit exceeded (numeric `cod`).
    public static let rateLimited = OWMErrorBody(
        cod: .number(429),
        message: "Your account is temporary blocked due to exceeding of requests limitation of your subscription type. Please choose the proper subscription https://openweathermap.org/price")

    /// 500, server failure (numeric `cod`).
    public static let internalError = OWMErrorBody(cod: .number(500), message: "Internal error")

    /// 404 for a path the service does not have (string `cod`).
    public static let unknownPath = OWMErrorBody(cod: .text("404"), message: "Internal error")

    /// 400, no location parameter (string `cod`).
    public static let nothingToGeocode = OWMErrorBody(cod: .text("400"), message: "Nothing to geocode")
}
