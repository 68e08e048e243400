/// An error the fake feed can be told to answer with for a city (a scenario `feed` step).
public enum FeedFault: Int, Sendable, CaseIterable {
    /// HTTP 401, invalid API key.
    case unauthorized = 401
    /// HTTP 404, city not found.
    case cityNotFound = 404
    /// HTTP 429, request limit exceeded.
    case rateLimited = 429
    /// HTTP 500, internal error.
    case serverError = 500

    /// The fault for an HTTP status as a scenario writes it (`"error": 429`).
    /// - Throws: ``WeatherError`` `weather.invalidSource` for any other status.
    public init(status: Int, fieldPath: String = "feed.error") throws(WeatherError) {
        guard let fault = FeedFault(rawValue: status) else {
            throw WeatherError(.invalidSource,
                               "\(fieldPath) is \(status), which the fake feed cannot inject; use 401, 404, 429, 500, or null to clear.")
        }
        self = fault
    }

    /// The HTTP status.
    public var status: Int { rawValue }

    /// The body the real service sends with this status.
    public var body: OWMErrorBody {
        switch self {
        case .unauthorized: .invalidAPIKey
        case .cityNotFound: .cityNotFound
        case .rateLimited: .rateLimited
        case .serverError: .internalError
        }
    }
}
