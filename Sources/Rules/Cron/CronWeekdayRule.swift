import Simulation

/// One term of the day-of-week field, judged on a whole date. Weekdays are ISO (1 = Monday … 7 = Sunday).
enum CronWeekdayRule: Hashable, Sendable {
    /// Plain weekdays (`MON-FRI`, `SUN`, `2`).
    case weekdays(CronValueSet)
    /// `6#2`: the given weekday in the `n`th week of the month (days 7n−6 … 7n).
    case nth(weekday: Int, n: Int)
    /// `6L`: the given weekday in the last seven days of the month.
    case last(weekday: Int)

    /// Whether `date` matches this term.
    func matches(_ date: CivilDate) -> Bool {
        switch self {
        case .weekdays(let set):
            return set.contains(date.isoWeekday)
        case .nth(let weekday, let n):
            return date.isoWeekday == weekday && 1 + (date.day - 1) / 7 == n
        case .last(let weekday):
            return date.isoWeekday == weekday && date.day + 7 > CivilDate.daysIn(month: date.month, year: date.year)
        }
    }
}
