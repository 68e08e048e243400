import Simulation
import Synchronization

/// The log every automation writes to: each action (and each decision not to act that a person
/// would ask about, such as holding a state through a feed outage) with its reason.
///
/// Thread-safe and synchronous (a `Mutex`), so automations running inside kernel events and a
/// reporter reading afterwards can share it. Output is sorted deterministically (time, then order of
/// logging); filter by listing or automation with ``entries(listing:automation:)``.
///
/// A portfolio's log repeats its texts: one weather run gives every listing of a city the same
/// reason, and actions come from a handful of phrases. A text equal to one of the last few hundred
/// logged is stored as that one (Swift strings share their storage), so a year of a thousand flats'
/// entries holds each distinct text about once.
public final class AutomationLog: Sendable {
    private struct Storage {
        var entries: [AutomationLogEntry] = []
        /// Recently logged texts longer than a string keeps inline, each by itself.
        var recent: [String: String] = [:]

        /// `text`, or the equal text already stored.
        mutating func shared(_ text: String) -> String {
            guard text.utf8.count > 15 else { return text }  // held inline: nothing to share
            if let known = recent[text] { return known }
            if recent.count >= 512 { recent.removeAll(keepingCapacity: true) }
            recent[text] = text
            return text
        }
    }

    private let storage = Mutex(Storage())

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
        storage.withLock { storage in
            let entry = AutomationLogEntry(sequence: storage.entries.count, at: at, automation: storage.shared(automation), listing: listing,
                                           action: storage.shared(action), reason: storage.shared(reason))
            storage.entries.append(entry)
        }
    }

    /// Every entry, sorted.
    public var entries: [AutomationLogEntry] { storage.withLock { $0.entries }.sorted() }

    /// The entries of one listing and, optionally, one automation, sorted.
    public func entries(listing: ListingID, automation: String? = nil) -> [AutomationLogEntry] {
        entries.filter { $0.listing == listing && (automation == nil || $0.automation == automation) }
    }

    /// The sorted entries as lines of text (see ``AutomationLogEntry/description``).
    public var lines: [String] { entries.map(\.description) }
}
