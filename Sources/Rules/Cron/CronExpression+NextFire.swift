import Simulation

extension CronExpression {
    /// The first instant strictly after `instant` at which the expression fires, on the wall clock of
    /// `calendar`; `nil` when it never fires again before the year 2200 (a year field in the past, …).
    ///
    /// Fire times are whole seconds. The result is the earliest whole-second instant after `instant`
    /// whose local reading matches every field — which is what openHAB's `CronAdjuster` finds on a
    /// `ZonedDateTime`, since it steps seconds, minutes and hours on the real timeline and resolves
    /// day changes with `java.time`'s rules (a gap shifts later, an overlap keeps the current offset).
    /// On daylight-saving days that means:
    /// - **Spring forward** (Budapest 2026-03-29, 02:00 → 03:00): readings inside the gap never
    ///   happen, so `0 30 2 * * ?` does not fire that day (it is not moved to 03:30); an hourly or
    ///   every-15-minutes expression simply goes on from 03:00.
    /// - **Fall back** (Budapest 2026-10-25, 03:00 → 02:00): readings in the repeated hour happen
    ///   twice, so `0 30 2 * * ?` fires twice (02:30 +02:00 and 02:30 +01:00), and an hourly
    ///   expression fires 25 times that day.
    ///
    /// openHAB schedules its first fire from `now` with its sub-second part and keeps that fraction;
    /// the twin's fires fall on the whole second.
    ///
    /// - Parameters:
    ///   - instant: the instant to search after (typically the previous fire time or the run's start).
    ///   - calendar: the scenario's local time zone.
    /// - Returns: the next fire instant, or `nil` if there is none before 2200.
    /// - Complexity: jumps field by field (months, days, then the time of day by bit masks); a few
    ///   hundred steps at most for sparse expressions such as `0 0 0 29 2 ? *`.
    public func nextFire(after instant: SimInstant, in calendar: LocalCalendar) -> SimInstant? {
        // Outside years 1…2199 there is nothing to find (and no arithmetic near Int64's limits).
        guard instant.unixMilliseconds < Self.horizonStartMilliseconds else { return nil }
        let from = SimInstant(unixMilliseconds: max(instant.unixMilliseconds, (Self.yearOneSeconds - 1) * 1_000))
        let earliest = SimInstant(unixSeconds: from.unixSeconds + 1)
        let localStart = calendar.localDateTime(at: earliest)
        // The common case: the next matching reading is less than a day away and the offset is the same
        // there, so no transition lies between (they are months apart) and the reading maps to one instant.
        if let local = firstLocalMatch(atOrAfter: localStart) {
            let offset = calendar.offset(at: earliest)
            let candidate = SimInstant(unixMilliseconds: local.wallMilliseconds - offset.milliseconds)
            if candidate >= earliest, candidate - earliest < .hours(24), calendar.offset(at: candidate) == offset {
                return candidate
            }
        }
        var best = firstFire(fromLocal: localStart, notBefore: earliest, in: calendar)

        // In the first pass through a repeated (fall-back) hour, readings before `localStart` come
        // round again after the clocks go back, possibly before any later reading matches.
        let occurrences = calendar.instants(for: localStart)
        if occurrences.count == 2, occurrences[0] == earliest,
           let fallBack = Self.offsetChange(after: occurrences[0], atOrBefore: occurrences[1], in: calendar) {
            let repeatStart = calendar.localDateTime(at: fallBack)
            if let local = firstLocalMatch(atOrAfter: repeatStart), local < localStart,
               let second = calendar.instants(for: local).last, second >= earliest {
                best = min(best ?? second, second)
            }
        }
        return best
    }

    /// ``nextFire(after:in:)`` of `fire`, an instant at which the expression fired (its local reading matches every
    /// field): the next second at once when it lies in the same local minute at the same offset and the seconds field
    /// has it — that reading differs from a matching one only in a second the field holds, and no whole-second instant
    /// lies between — otherwise the search. What a per-second cron asks at each fire.
    public func nextFire(afterFire fire: SimInstant, in calendar: LocalCalendar) -> SimInstant? {
        let milliseconds = fire.unixMilliseconds
        if milliseconds % 1_000 == 0, milliseconds < Self.horizonStartMilliseconds - 1_000 {
            let offset = calendar.offset(at: fire)
            let wallSeconds = (milliseconds + offset.milliseconds) / 1_000  // whole: offsets are whole seconds
            let second = Int(((wallSeconds % 60) + 60) % 60)
            let next = SimInstant(unixMilliseconds: milliseconds + 1_000)
            if second < 59, fields.seconds.contains(second + 1), calendar.offset(at: next) == offset { return next }
        }
        return nextFire(after: fire, in: calendar)
    }

    /// 2200-01-01T00:00Z in ms: past it no fire is ever due (every zone's offset is under a day, so the
    /// local year there is at least 2199-12-31).
    static let horizonStartMilliseconds: Int64 = 7_258_118_400_000
    /// 0001-01-01T00:00Z in seconds since the epoch: searches start no earlier than just before it.
    static let yearOneSeconds: Int64 = -62_135_596_800

    /// The earliest fire at or after `earliest` among matches whose reading is at or after `start`.
    private func firstFire(fromLocal start: LocalDateTime, notBefore earliest: SimInstant,
                           in calendar: LocalCalendar) -> SimInstant? {
        var lower = start
        // Each round either answers or moves past a gap or a stale reading; gaps come twice a year.
        for _ in 0..<1_000 {
            guard let local = firstLocalMatch(atOrAfter: lower) else { return nil }
            let found = calendar.instants(for: local)
            if let hit = found.first(where: { $0 >= earliest }) { return hit }
            let next = LocalDateTime(wallMilliseconds: local.wallMilliseconds + 1_000)
            if found.isEmpty {
                // A reading in a spring-forward gap: carry on from the first reading after the jump.
                let wall = local.wallMilliseconds
                let before = calendar.offset(at: SimInstant(unixMilliseconds: wall - 86_400_000)).milliseconds
                let after = calendar.offset(at: SimInstant(unixMilliseconds: wall + 86_400_000)).milliseconds
                if let jump = Self.offsetChange(after: SimInstant(unixMilliseconds: wall - after),
                                                atOrBefore: SimInstant(unixMilliseconds: wall - before), in: calendar) {
                    lower = max(next, calendar.localDateTime(at: jump))
                    continue
                }
            }
            lower = next
        }
        return nil
    }

    /// The first instant in `(from, to]` (whole seconds) whose offset is `to`'s, when `from`'s differs.
    /// - Complexity: a binary search, about 13 offset look-ups for an hour.
    static func offsetChange(after from: SimInstant, atOrBefore to: SimInstant, in calendar: LocalCalendar) -> SimInstant? {
        let target = calendar.offset(at: to)
        guard from < to, calendar.offset(at: from) != target else { return nil }
        var low = from.unixSeconds, high = to.unixSeconds
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if calendar.offset(at: SimInstant(unixSeconds: middle)) == target { high = middle } else { low = middle }
        }
        return SimInstant(unixSeconds: high)
    }

    /// The first wall-clock reading at or after `start` (rounded up to a whole second) matching
    /// every field, ignoring time zones; `nil` if none comes before the year 2200.
    func firstLocalMatch(atOrAfter start: LocalDateTime) -> LocalDateTime? {
        var date = start.date
        var second = Int((start.time.millisecondOfDay + 999) / 1_000)
        if second >= 86_400 {
            date = date.adding(days: 1)
            second = 0
        }
        while date.year < Self.horizonYear {
            if !yearMatches(date.year) {
                let next = fields.years?.compactMap { $0.first(atOrAfter: date.year + 1) }.min() ?? Self.horizonYear
                guard next < Self.horizonYear, let newYear = CivilDate(year: next, month: 1, day: 1) else { return nil }
                date = newYear
                second = 0
                continue
            }
            if !fields.months.contains(date.month) {
                let (year, month) = fields.months.first(atOrAfter: date.month + 1).map { (date.year, $0) }
                    ?? (date.year + 1, fields.months.first(atOrAfter: 1) ?? 1)
                guard let first = CivilDate(year: year, month: month, day: 1) else { return nil }
                date = first
                second = 0
                continue
            }
            if matchesDate(date), let time = firstTime(atOrAfter: second) {
                return LocalDateTime(date: date, time: time)
            }
            date = date.adding(days: 1)
            second = 0
        }
        return nil
    }

    /// The first time of day at or after `secondOfDay` matching the hours, minutes and seconds fields.
    private func firstTime(atOrAfter secondOfDay: Int) -> LocalTime? {
        var hour = secondOfDay / 3_600, minute = secondOfDay / 60 % 60, second = secondOfDay % 60
        while let h = fields.hours.first(atOrAfter: hour) {
            if h != hour { minute = 0; second = 0 }
            while let m = fields.minutes.first(atOrAfter: minute) {
                if m != minute { second = 0 }
                if let s = fields.seconds.first(atOrAfter: second) {
                    return LocalTime(hour: h, minute: m, second: s)
                }
                minute = m + 1
                second = 0
            }
            hour = h + 1
            minute = 0
            second = 0
        }
        return nil
    }
}
