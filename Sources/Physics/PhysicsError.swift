import Foundation
import Simulation

/// The one error type of the `Physics` module: a stable code plus a sentence for people.
///
/// Physics functions are pure, so the only things that can go wrong are inputs that the
/// 1R1C model cannot accept: a non-positive or non-finite `UA` or capacitance, a
/// temperature that is NaN, or a combination whose derived quantities (time constant,
/// steady state) overflow. The message names the field, the value it had and what is
/// allowed, e.g. `uaWPerK is -5.0 W/K; it must be a finite number greater than 0 W/K …`.
public struct PhysicsError: CodedError, Equatable {
    /// Stable, machine-readable codes; scripts and scenario `expectError` fields match on these.
    public enum Code: String, Sendable, CaseIterable {
        /// An input value is NaN, infinite, or outside the range the model allows.
        case invalidParameter = "physics.invalidParameter"
        /// Every input is valid on its own, but a derived quantity (time constant, steady
        /// state, outdoor temperature at a later time) is not a finite number.
        case outOfRange = "physics.outOfRange"
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// What went wrong, where, and what to do — one or two full sentences.
    public let message: String

    /// Creates an error with a code and a full-sentence message.
    ///
    /// - Parameters:
    ///   - code: The stable code.
    ///   - message: One or two sentences naming the field, its value and what is allowed.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}

extension PhysicsError {
    /// Builds the `physics.invalidParameter` error for one named field.
    ///
    /// - Parameters:
    ///   - field: The parameter's name as the caller spelled it, e.g. `uaWPerK`.
    ///   - value: The rejected value.
    ///   - unit: The unit printed after the value, e.g. `W/K`; empty for none.
    ///   - allowed: What is allowed, completing "it must be …".
    static func invalid(_ field: String, _ value: Double, unit: String, allowed: String) -> PhysicsError {
        let shown = unit.isEmpty ? "\(value)" : "\(value) \(unit)"
        return PhysicsError(.invalidParameter, "\(field) is \(shown); it must be \(allowed).")
    }

    /// Checks that a temperature or other signed quantity is a finite number.
    ///
    /// - Parameters:
    ///   - value: The value to check.
    ///   - field: Its name, for the message.
    ///   - unit: Its unit, for the message.
    /// - Throws: `physics.invalidParameter` when `value` is NaN or infinite.
    static func requireFinite(_ value: Double, _ field: String, unit: String) throws(PhysicsError) {
        guard value.isFinite else {
            throw invalid(field, value, unit: unit, allowed: "a finite number")
        }
    }
}
