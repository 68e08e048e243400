import Foundation
import Simulation

/// The one error type of the `Weather` module: a stable code plus a sentence for people.
///
/// Scenario `expectError` fields and the booking services match on ``code``; people read
/// ``message``, which says what went wrong, where, and what to do about it.
public struct WeatherError: CodedError, Equatable {
    /// Stable, machine-readable codes.
    public enum Code: String, Sendable, CaseIterable {
        /// The weather service rejected the API key (HTTP 401).
        case unauthorized = "weather.unauthorized"
        /// The weather service does not know the requested location (HTTP 404).
        case cityNotFound = "weather.cityNotFound"
        /// The API key exceeded its request limit (HTTP 429).
        case rateLimited = "weather.rateLimited"
        /// The weather service failed (HTTP 5xx).
        case server = "weather.server"
        /// The weather service rejected the request as malformed (HTTP 400 and other 4xx), or
        /// no request URL could be built.
        case badRequest = "weather.badRequest"
        /// A response could not be read as the expected OpenWeatherMap JSON.
        case decoding = "weather.decoding"
        /// The request never got an HTTP answer (no connection, timeout, …).
        case transport = "weather.transport"
        /// A weather source, sample or city description is not valid.
        case invalidSource = "weather.invalidSource"
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// What went wrong, where, and what to do — one or two full sentences.
    public let message: String

    /// Creates an error with a code and a full-sentence message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
