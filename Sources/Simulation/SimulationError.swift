import Foundation

/// The one error type of the `Simulation` module: a stable code plus a sentence for people.
public struct SimulationError: CodedError, Equatable {
    /// Stable, machine-readable codes. Scripts and scenario `expectError` fields match on these.
    public enum Code: String, Sendable, CaseIterable {
        /// The IANA time-zone name is not known to this machine's tz database.
        case unknownTimeZone = "time.zoneUnknown"
        /// A local date-time falls in a daylight-saving gap and never happens.
        case nonexistentLocalTime = "time.nonexistent"
        /// A local date-time happens twice (daylight-saving overlap).
        case ambiguousLocalTime = "time.ambiguous"
        /// A date, time or date-time text does not have the expected form.
        case invalidDateTime = "time.invalid"
        /// A duration text is not ISO 8601 (`PT2H`, `P1DT6H`).
        case invalidDuration = "duration.invalid"
        /// An event was scheduled before the current virtual time.
        case scheduledInPast = "schedule.past"
        /// A recurrence (`every N minutes at minute M`) is not well formed.
        case invalidRecurrence = "schedule.recurrence"
        /// A value could not be written as JSON (a non-finite number, for instance).
        case unencodable = "json.unencodable"
        /// An iCalendar (RFC 5545) text could not be read: the message names the line.
        case invalidCalendar = "calendar.invalid"
        /// Too many events at one virtual instant (the clock stopped moving), or a component reported that
        /// it was making events faster than it can ever need to: the run was ended.
        case stalled = "run.stalled"
        /// The run was cancelled (its task was cancelled, e.g. on Ctrl-C) before reaching its end.
        case cancelled = "run.cancelled"
        /// A run fired as many events as its caller allowed and stopped before its end.
        case eventLimit = "schedule.eventLimit"
        /// The clock was asked to move while a run that moves it itself is active (run-to-end or paced).
        case kernelBusy = "kernel.busy"
        /// A paced run's speed is not a positive, finite number.
        case invalidSpeed = "kernel.speed"
        /// A live run stopped before it could serve a request.
        case kernelStopped = "kernel.stopped"
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// What went wrong, where, and what to do — one or two sentences.
    public let message: String

    /// Creates an error with a code and a full-sentence message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
