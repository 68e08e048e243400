/// The seven positions of an openHAB cron expression, in the order they are written.
enum CronField: Int, CaseIterable, Sendable {
    /// Seconds, 0–59.
    case seconds = 1
    /// Minutes, 0–59.
    case minutes
    /// Hours, 0–23.
    case hours
    /// Day of the month, 1–31 (`L`, `LW`, `15W` too).
    case dayOfMonth
    /// Month, 1–12 or JAN–DEC.
    case month
    /// Day of the week (`MON`, `2`, `6#2`, `5L`, …).
    case dayOfWeek
    /// Year (optional seventh field).
    case year

    /// The field's name as users read it in messages.
    var name: String {
        switch self {
        case .seconds: "seconds"
        case .minutes: "minutes"
        case .hours: "hours"
        case .dayOfMonth: "day-of-month"
        case .month: "month"
        case .dayOfWeek: "day-of-week"
        case .year: "year"
        }
    }

    /// The values a plain number may take. Day-of-week ranges and steps count in ISO order
    /// (1 = Monday … 7 = Sunday), as openHAB's CronAdjuster does.
    var range: ClosedRange<Int> {
        switch self {
        case .seconds, .minutes: 0...59
        case .hours: 0...23
        case .dayOfMonth: 1...31
        case .month: 1...12
        case .dayOfWeek: 1...7
        case .year: -999_999_999...999_999_999
        }
    }

    /// `field 3 (hours)`, the way messages name a field.
    var label: String { "field \(rawValue) (\(name))" }

    /// A sentence saying what the field accepts, for hints.
    var accepted: String {
        switch self {
        case .seconds: "Seconds run from 0 to 59."
        case .minutes: "Minutes run from 0 to 59."
        case .hours: "Hours run from 0 to 23."
        case .dayOfMonth: "Days of the month run from 1 to 31; L, LW and 15W (nearest weekday) also work."
        case .month: "Months run from 1 to 12, or JAN to DEC."
        case .dayOfWeek:
            "Write SUN–SAT, a single number 1–7 (1 = Sunday), 6#2 (second Friday) or 6L (last Friday); in ranges and steps numbers count 1 = Monday … 7 = Sunday."
        case .year: "Write a year such as 2026, a range 2026-2028 or * for every year."
        }
    }
}
