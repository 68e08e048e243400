import Simulation
import Synchronization

/// The log every automation writes to: each action (and each decision not to act that a person
/// would ask about, such as holding a state through a feed outage) with its reason.
///
/// Thread-safe and synchronous (a `Mutex`), so automations running inside kernel events and a
/// reporter reading afterwards can share it. Output is sorted deterministically (time, then order of
/// logging); filter by listing or automation with ``entries(listing:automation:)``.
public final class AutomationLog: Sendable {
    private let storage = Mutex<[AutomationLogEntry]>([])

    /// An empty log.
    public init() {}

    /// Appends one entry.
    /// - Parameters:
    ///   - at: when (simulated time).
    ///   - automation: `weatherWatcher`, `preheat`, `setback`, …
    ///   - listing: the listing acted on.
    ///   - action: what was done (`none` when nothing was).
    ///   - reason: why, in words.
    public func append(at: SimInstant, automation: String, listing: ListingID, action: String, reason: String) {
        storage.withLock { entries in
            entries.append(AutomationLogEntry(sequence: entries.count, at: at, automation: automation, listing: listing,
                                              action: action, reason: reason))
        }
    }

    /// Every entry, sorted.
    public var entries: [AutomationLogEntry] { storage.withLock { $0 }.sorted() }

    /// The entries of one listing and, optionally, one automation, sorted.
    public func entries(listing: ListingID, automation: String? = nil) -> [AutomationLogEntry] {
        entries.filter { $0.listing == listing && (automation == nil || $0.automation == automation) }
    }

    /// The sorted entries as lines of text (see ``AutomationLogEntry/description``).
    public var lines: [String] { entries.map(\.description) }
}
