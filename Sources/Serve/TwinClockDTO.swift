/// The body of `GET /twin/clock` and `POST /twin/advance`.
public struct TwinClockDTO: Codable, Sendable, Equatable {
    /// Virtual time with offset and zone, e.g. `2026-11-20T12:00:00+01:00[Europe/Berlin]`.
    public var now: String
    /// Virtual local time, as scenario files write it.
    public var local: String
    /// Virtual time in Unix milliseconds.
    public var unixMillis: Int64
    /// `paced` or `manual`.
    public var mode: String
    /// Virtual seconds per wall second of a paced run.
    public var speed: Double?
    /// The scenario's start and end, local.
    public var start: String
    /// The scenario's end, local.
    public var end: String
    /// Whether the end has passed (its expectations are checked).
    public var endReached: Bool
    /// Events that fired during this advance (only on `/twin/advance`).
    public var eventsFired: Int?
}
