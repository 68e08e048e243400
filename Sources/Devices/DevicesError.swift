import Foundation
import Simulation

/// The one error type of the `Devices` module: a stable code and a sentence naming the field and value.
public struct DevicesError: CodedError, Equatable {
    /// Stable, machine-readable codes.
    public enum Code: String, Sendable, CaseIterable {
        /// A device or zone parameter is out of range or not a number.
        case invalidParameter = "device.invalidParameter"
        /// A device id is already used in the zone.
        case duplicateDevice = "device.duplicate"
        /// No device with that id in the zone.
        case deviceNotFound = "device.notFound"
        /// The id cannot be part of an openHAB UID.
        case invalidID = "device.invalidID"
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// What went wrong, where, and what to do.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Checks that `value` is finite and satisfies `isValid`, else throws `device.invalidParameter`.
    static func require(_ value: Double, _ field: String, unit: String, _ rule: String, _ isValid: (Double) -> Bool) throws(DevicesError) {
        guard value.isFinite, isValid(value) else {
            throw DevicesError(.invalidParameter, "\(field) is \(value) \(unit) but must be \(rule).")
        }
    }
}
