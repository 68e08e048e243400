import Simulation

/// One action of an automation (or a decision not to act), with its reason.
///
/// Entries sort by time, then by the order they were logged in (which the single simulation task makes
/// deterministic), so a log prints the same way on every run and same-instant actions keep their causal order.
public struct AutomationLogEntry: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Position in the log (0 for the first entry), the last tie-breaker.
    public var sequence: Int
    /// When it happened (simulated time).
    public var at: SimInstant
    /// Which automation acted: `weatherWatcher`, `preheat`, `setback`.
    public var automation: String
    /// The listing acted on.
    public var listing: ListingID
    /// What was done, e.g. `heating switch ON`, `heating setpoint 21.0 °C`, `none`.
    public var action: String
    /// Why, e.g. `Budapest reports 3.2 °C, below 15.0 °C`.
    public var reason: String

    /// Creates an entry.
    public init(sequence: Int, at: SimInstant, automation: String, listing: ListingID, action: String, reason: String) {
        self.sequence = sequence
        self.at = at
        self.automation = automation
        self.listing = listing
        self.action = action
        self.reason = reason
    }

    /// Earlier first; at the same instant, in the order logged.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.at, lhs.sequence) < (rhs.at, rhs.sequence)
    }

    /// `2026-01-09T10:05:00Z weatherWatcher flat-1: heating switch ON — Budapest reports 3.2 °C, below 15.0 °C`.
    public var description: String { "\(at) \(automation) \(listing): \(action) — \(reason)" }
}
