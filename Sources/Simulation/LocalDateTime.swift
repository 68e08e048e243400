/// A wall-clock date and time with no zone: `2026-01-09T16:00`.
///
/// What a person reads off a clock in the flat. Turning it into a ``SimInstant`` needs a
/// ``LocalCalendar``, because of daylight-saving gaps and overlaps.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The date.
    public var date: CivilDate
    /// The time of day.
    public var time: LocalTime

    /// Combines a date and a time of day.
    public init(date: CivilDate, time: LocalTime) {
        self.date = date
        self.time = time
    }

    /// The wall time as if it were UTC, in ms since the epoch (arithmetic helper, not an instant).
    public var wallMilliseconds: Int64 { date.daysSinceEpoch * 86_400_000 + time.millisecondOfDay }

    /// The wall time `wallMilliseconds` ms after 1970-01-01T00:00 (inverse of ``wallMilliseconds``).
    public init(wallMilliseconds: Int64) {
        let (days, ms) = wallMilliseconds.floorDivided(by: 86_400_000)
        self.init(date: CivilDate(daysSinceEpoch: days), time: LocalTime(millisecondOfDay: ms))
    }

    /// Parses `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`; `nil` for anything else.
    public init?(iso text: some StringProtocol) {
        let s = String(text)
        guard let t = s.firstIndex(of: "T"),
              let date = CivilDate(iso: s[s.startIndex..<t]),
              let time = LocalTime(iso: s[s.index(after: t)...])
        else { return nil }
        self.init(date: date, time: time)
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        lhs.wallMilliseconds < rhs.wallMilliseconds
    }

    /// `YYYY-MM-DDTHH:MM` (seconds shown when not zero).
    public var description: String { "\(date)T\(time)" }
}
