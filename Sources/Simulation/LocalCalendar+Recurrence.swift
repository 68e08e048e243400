extension LocalCalendar {
    /// The first instant strictly after `instant` whose local wall time is a whole minute `m`
    /// with `minuteOfDay % everyMinutes == atMinute`: "every 60 minutes at minute 5" is
    /// 00:05, 01:05, … local.
    ///
    /// Wall times that fall in a daylight-saving gap are skipped; wall times in an overlap
    /// happen twice and fire twice — exactly the instants at which a wall clock shows them.
    /// - Parameters:
    ///   - everyMinutes: the period in minutes; must divide a day (1440) so the grid is the same every day.
    ///   - atMinute: the offset into each period, `0 ..< everyMinutes`.
    /// - Throws: ``SimulationError`` `schedule.recurrence` for a period or offset out of range.
    /// - Complexity: a handful of offset look-ups per call.
    public func nextRecurrence(after instant: SimInstant, everyMinutes: Int, atMinute: Int) throws(SimulationError) -> SimInstant {
        try Self.validateRecurrence(everyMinutes: everyMinutes, atMinute: atMinute)
        let step = Int64(everyMinutes) * 60_000
        let phase = Int64(atMinute) * 60_000
        // Start a little before the wall time of `instant`: an overlap can put later instants at earlier wall times.
        let startWall = wallMilliseconds(at: instant) - 3 * 3_600_000
        let (k, r) = (startWall - phase).floorDivided(by: step)
        var wall = phase + (r == 0 ? k : k + 1) * step
        while true {
            // The instants(for:) of each wall time in order, without their array.
            let (first, second) = instants(forWallMilliseconds: wall)
            if let first, first > instant { return first }
            if let second, second > instant { return second }
            wall += step
        }
    }

    /// Checks a recurrence's period and offset.
    /// - Throws: ``SimulationError`` `schedule.recurrence` with what is allowed.
    public static func validateRecurrence(everyMinutes: Int, atMinute: Int) throws(SimulationError) {
        guard everyMinutes >= 1, everyMinutes <= 1_440, 1_440 % everyMinutes == 0 else {
            throw SimulationError(.invalidRecurrence,
                                  "every \(everyMinutes) minutes does not divide a day; use a divisor of 1440 such as 15, 30, 60 or 1440.")
        }
        guard atMinute >= 0, atMinute < everyMinutes else {
            throw SimulationError(.invalidRecurrence,
                                  "minute \(atMinute) is outside a period of \(everyMinutes) minutes; use 0…\(everyMinutes - 1).")
        }
    }
}
