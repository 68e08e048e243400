import Simulation

/// One line of the lock audit log: every lock operation, allowed or denied, with the reason.
public struct LockAuditEntry: Hashable, Sendable {
    /// What was asked of the lock.
    public enum Operation: String, Sendable, Hashable, Codable { case lock, unlock }
    /// What happened.
    public enum Outcome: String, Sendable, Hashable, Codable { case allowed, denied, failed }

    public var at: SimInstant
    public var listing: ListingID
    /// The lock's `lock` Item.
    public var item: String
    public var user: UserID
    public var operation: Operation
    public var outcome: Outcome
    /// Why, in words: "owner", "guest of r1 within 2026-01-09T15:00…2026-01-11T10:00", "no stay covers now", …
    public var reason: String

    public init(at: SimInstant, listing: ListingID, item: String, user: UserID, operation: Operation,
                outcome: Outcome, reason: String) {
        self.at = at
        self.listing = listing
        self.item = item
        self.user = user
        self.operation = operation
        self.outcome = outcome
        self.reason = reason
    }
}
