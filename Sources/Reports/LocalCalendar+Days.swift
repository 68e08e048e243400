import Simulation

extension LocalCalendar {
    /// One local day's share of a time range: the date and the part of the range inside it.
    struct DaySlice: Sendable, Equatable {
        /// The local date.
        let date: CivilDate
        /// The later of the range start and the day's first instant.
        let from: SimInstant
        /// The earlier of the range end and the next day's first instant.
        let to: SimInstant
    }

    /// The local days that `[start, end)` touches, each clipped to the range, in order.
    ///
    /// Days split at local midnights, so a daylight-saving day is 23 h or 25 h long; the first
    /// and last days are partial when the range does not start or end at midnight. An empty
    /// range gives no days.
    func daySlices(from start: SimInstant, to end: SimInstant) -> [DaySlice] {
        var slices: [DaySlice] = []
        guard start < end else { return slices }
        var date = self.date(at: start)
        while true {
            let next = startOfDay(date.adding(days: 1))
            let from = max(start, startOfDay(date)), to = min(end, next)
            if from < to { slices.append(DaySlice(date: date, from: from, to: to)) }
            if next >= end { break }
            date = date.adding(days: 1)
        }
        return slices
    }
}
