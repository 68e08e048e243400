import Simulation

extension LocalCalendar {
    /// The local date-time at `instant` with its UTC offset, e.g. `2026-01-09T16:00+01:00`.
    ///
    /// Minutes always, seconds (and milliseconds) only when not zero, as ``LocalDateTime``
    /// prints them; the offset tells the two 02:30s of an autumn overlap apart.
    public func timestamp(at instant: SimInstant) -> String {
        let local = localDateTime(at: instant)
        return Self.timestamp(date: local.date.description, time: local.time.description, offset: Self.offsetSuffix(offset(at: instant)))
    }

    /// A timestamp from its parts' texts: `<date>T<time><offset>`.
    static func timestamp(date: String, time: String, offset: String) -> String { date + "T" + time + offset }

    /// `+01:00`-style text for a UTC offset.
    static func offsetSuffix(_ offset: SimDuration) -> String {
        let minutes = offset.milliseconds / 60_000
        let magnitude = minutes.magnitude
        let hours = magnitude / 60, rest = magnitude % 60
        return (minutes < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// ``LocalCalendar/timestamp(at:)`` for a run's timeseries ticks, one after another: the texts of
    /// the parts are made once each and reused — the date's for its day, the time of day's for every
    /// day that has it (15-minute ticks have 96), the offset's until it changes — instead of printing
    /// all three at every tick.
    public struct Timestamps: Sendable {
        public let calendar: LocalCalendar
        private var date: CivilDate?
        private var dateText = ""
        private var offset: SimDuration?
        private var offsetText = ""
        private var times: [LocalTime: String] = [:]

        public init(calendar: LocalCalendar) { self.calendar = calendar }

        /// `calendar.timestamp(at: instant)`.
        public mutating func timestamp(at instant: SimInstant) -> String {
            let local = calendar.localDateTime(at: instant), offset = calendar.offset(at: instant)
            if local.date != date {
                date = local.date
                dateText = local.date.description
            }
            if offset != self.offset {
                self.offset = offset
                offsetText = LocalCalendar.offsetSuffix(offset)
            }
            let time: String
            if let known = times[local.time] {
                time = known
            } else {
                time = local.time.description
                // Bounded: an odd start or interval gives more times of day, but never more than a day has ticks.
                if times.count < 2_000 { times[local.time] = time }
            }
            return LocalCalendar.timestamp(date: dateText, time: time, offset: offsetText)
        }
    }
}
