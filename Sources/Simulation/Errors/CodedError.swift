import Foundation

/// The one error shape of every module: a stable code, a sentence for people, and an optional hint.
///
/// Each module has one error type (`SimulationError`, `SmartHomeError`, `PhysicsError`,
/// `WeatherError`, `DevicesError`, `BookingError`, `ReportsError`, `ScenarioError`, `RulesError`,
/// `ServeError`) and each conforms — `HTTPServer`'s `HTTPServerError` too, declared in `Serve` — as do the scenario file's `JSONParser.SyntaxError` and the command
/// line's `UsageError`. Scripts and scenario `expectError` fields match on ``codeName``; people read
/// ``explanation``. Code that handles errors of several modules (the scenario runner) catches
/// `any CodedError` once instead of one `catch` per type.
///
/// The texts are built here, once: ``description`` is `code: explanation`
/// (`reservation.overlap: Listing "x" is already booked …`) and ``explanation`` is the
/// message, then the hint, then one line per detail.
public protocol CodedError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The module's enumeration of stable codes (`reservation.overlap`-style raw values).
    associatedtype Code: RawRepresentable & Sendable where Code.RawValue == String

    /// What went wrong, as a stable code.
    var code: Code { get }
    /// What went wrong, where, and what to do — one or two full sentences.
    var message: String { get }
    /// A further sentence on what to do, when the message alone does not say it; `nil` by default.
    var hint: String? { get }
    /// Lines that follow the message, one per sub-problem (a scenario file's issues); empty by default.
    var details: [String] { get }
}

extension CodedError {
    /// No hint unless the type supplies one.
    public var hint: String? { nil }

    /// No detail lines unless the type supplies them.
    public var details: [String] { [] }

    /// The stable code's text, e.g. `reservation.overlap`.
    public var codeName: String { code.rawValue }

    /// What a person reads: the message, the hint after it on the same line, then one line per detail.
    public var explanation: String {
        let headline = hint.map { "\(message) \($0)" } ?? message
        return details.isEmpty ? headline : ([headline] + details).joined(separator: "\n")
    }

    /// `code: explanation`, e.g. `time.invalid: "2026-13-01" is not a date …`.
    public var description: String { "\(codeName): \(explanation)" }

    /// The ``explanation``, for `LocalizedError` users.
    public var errorDescription: String? { explanation }
}
