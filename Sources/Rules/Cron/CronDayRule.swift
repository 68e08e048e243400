import Simulation

/// One term of the day-of-month field, judged on a whole date.
///
/// The special forms follow openHAB's CronAdjuster exactly, quirks included:
/// - `L`: the last day of the month.
/// - `LW` (or `WL`): Monday–Thursday on the last day, or a Friday at most two days before the
///   end (so the weekend does not hold the last day).
/// - `15W`: the weekday nearest the 15th without leaving the month at its start: the 15th
///   itself on Tuesday–Thursday, Friday the 14th when the 15th is a Saturday, Monday the 16th when
///   it is a Sunday, Monday the 3rd for `1W` when the 1st is a Saturday. CronAdjuster also lets a
///   Friday stand for a target one day later that the month does not have (`31W` fires on Friday
///   30 September), and never looks back from a Sunday at the month's end; so does this.
enum CronDayRule: Hashable, Sendable {
    /// Plain days of the month.
    case days(CronValueSet)
    /// `L`.
    case lastDay
    /// `LW`.
    case lastWeekday
    /// `nW`.
    case nearestWeekday(Int)

    /// Whether `date` matches this term.
    func matches(_ date: CivilDate) -> Bool {
        let day = date.day
        let weekday = date.isoWeekday
        let monthLength = CivilDate.daysIn(month: date.month, year: date.year)
        switch self {
        case .days(let set):
            return set.contains(day)
        case .lastDay:
            return day == monthLength
        case .lastWeekday:
            switch weekday {
            case 1...4: return day == monthLength
            case 5: return day + 2 >= monthLength
            default: return false
            }
        case .nearestWeekday(let target):
            switch weekday {
            case 1: return day == target || day == target + 1 || (day == target + 2 && day == 3)
            case 2...4: return day == target
            case 5: return day == target || day + 1 == target
            default: return false
            }
        }
    }
}
