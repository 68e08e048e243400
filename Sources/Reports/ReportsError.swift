import Foundation
import Simulation

/// The one error type of the `Reports` module: a stable code plus a sentence for people.
///
/// Ledger queries and report builders throw it when the recorded meters cannot answer a
/// question exactly (a snapshot is missing, a window is backwards) or when a figure cannot be
/// written (not a finite number). Scripts match on ``code``; people read ``message``, which
/// says what went wrong, where, and what to do about it.
public struct ReportsError: CodedError, Equatable {
    /// Stable, machine-readable codes.
    public enum Code: String, Sendable, CaseIterable {
        /// The ledger holds no snapshot of any kind for the listing.
        case unknownListing = "ledger.listingUnknown"
        /// The ledger has snapshots of the listing, but none at the requested instant.
        case noSnapshot = "ledger.noSnapshot"
        /// A snapshot of the listing has no meter for the requested device.
        case unknownDevice = "ledger.deviceUnknown"
        /// A query window ends before it starts.
        case invalidWindow = "ledger.invalidWindow"
        /// A report's time range ends before it starts (or is empty where a chart needs width).
        case invalidRange = "report.invalidRange"
        /// A timeseries interval is zero or negative.
        case invalidInterval = "report.invalidInterval"
        /// A number to be written is NaN or infinite.
        case nonFiniteNumber = "report.nonFinite"
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
