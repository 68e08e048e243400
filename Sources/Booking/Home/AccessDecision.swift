/// Whether a user may operate a listing's devices now, and why — the text that goes into the
/// lock audit log and into `lock.accessDenied` / `device.accessDenied` messages.
struct AccessDecision: Hashable, Sendable {
    /// Whether the operation may go ahead.
    var allowed: Bool
    /// Why, in words: `owner`, `guest of r1 within 2026-01-09T15:00…2026-01-11T10:00`, …
    var reason: String
}
