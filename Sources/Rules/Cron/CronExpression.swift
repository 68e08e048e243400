import Simulation

/// An openHAB cron expression (`timer.GenericCronTrigger`, DSL `Time cron "…"`), read and
/// evaluated the way openhab-core's `CronAdjuster` does, on the scenario's local wall clock.
///
/// Syntax: 6 or 7 fields separated by blanks — seconds, minutes, hours, day-of-month, month,
/// day-of-week, optional year — each `*` or `?` (any), or a comma list of values, ranges `a-b`,
/// steps `a/n`, `a-b/n`, `*/n`; names are case-insensitive. As in CronAdjuster:
/// - Day-of-month takes `L` (last day), `LW`/`WL` (last weekday) and `15W` (weekday nearest the 15th),
///   but not `L-3`.
/// - Months take `JAN`–`DEC`; weekdays take `SUN`–`SAT`.
/// - A weekday **written alone** as a number counts Quartz-style, 1 = Sunday … 7 = Saturday (`2`
///   is Monday, `6#2` the second Friday, `5L` the last Thursday), but numbers in a weekday
///   **range or step** count ISO-style, 1 = Monday … 7 = Sunday (`2-6` is Tuesday to Saturday).
///   Names mean the same everywhere. A lone `L` in day-of-week is Sunday.
/// - When both day fields are given, both must match (`0 0 0 1 * MON`: the 1st when it is a Monday).
/// - A range whose start is above its end wraps (`22-2` in hours); a step with a single start runs to
///   the field's end (`5/15` in minutes is 5, 20, 35, 50).
/// - Preset words (lower case only): `@yearly`/`@annually` `0 0 0 1 1 *`, `@monthly` `0 0 0 1 * *`,
///   `@weekly` `0 0 0 ? * MON` (Monday), `@daily` `0 0 0 * * ?`, `@hourly` `0 0 * * * ?`,
///   `@reboot` `0 0 0 1 1 ? 1900` (never fires on the clock).
/// - In a multi-line text only the last line counts (the earlier ones are CronAdjuster's environment lines).
///
/// Where the twin differs, on purpose: it rejects text that CronAdjuster reads only by accident of
/// Java's `split` (see ``CronParser``); it rejects at once an expression no date can ever match
/// (`0 0 0 31 2 ?`), which CronAdjuster rejects only after a thousand search steps; and it does not
/// reject a sparse but possible expression (`0 0 0 29 2 MON`) that CronAdjuster gives up on.
public struct CronExpression: Sendable, Hashable, CustomStringConvertible {
    /// The text the expression was read from.
    public let text: String
    let fields: CronParser.Fields

    /// The first year the search never reaches: openHAB's scheduler treats a fire time in year 2200
    /// or later as "done" (`CronAdjuster.isDone`).
    static let horizonYear = 2200

    /// Reads an openHAB cron expression.
    /// - Parameter text: e.g. `"0 30 6 ? * MON-FRI"` or `"@daily"`.
    /// - Throws: ``RulesError`` — `rules.cronFieldCount` (not 6 or 7 fields), `rules.cronInvalid`
    ///   (unreadable token), `rules.cronOutOfRange` (value outside its field), `rules.cronUnknownPreset`
    ///   (an `@word` openHAB does not know) or `rules.cronNeverFires` (no time can ever match);
    ///   each message names the field and the offending text.
    public init(_ text: String) throws(RulesError) {
        self.text = text
        self.fields = try CronParser.parse(text)
        try checkCanFire()
    }

    /// The cron expression of openHAB's `timer.TimeOfDayTrigger` for `time` (`"hh:mm"`): `0 mm hh * * *`.
    ///
    /// Like openHAB, anything after a second colon is ignored (`"07:30:15"` is 07:30).
    /// - Throws: ``RulesError`` `rules.timeOfDayInvalid` when `time` is not two numbers around a colon,
    ///   or the cron error for an hour or minute out of range.
    public static func timeOfDay(_ time: String) throws(RulesError) -> CronExpression {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              parts[0].allSatisfy(\.isNumber), parts[1].allSatisfy(\.isNumber)
        else {
            throw RulesError(.timeOfDayInvalid, "Time of day \"\(time)\" is not in the form hh:mm.",
                             hint: "Write e.g. \"07:30\" for half past seven in the morning.")
        }
        return try CronExpression("0 \(minute) \(hour) * * *")
    }

    /// The text the expression was read from.
    public var description: String { text }

    /// Whether the wall-clock reading `local` matches every field (year 2200 and later never does).
    public func matches(_ local: LocalDateTime) -> Bool {
        let time = local.time
        return fields.seconds.contains(time.second) && fields.minutes.contains(time.minute)
            && fields.hours.contains(time.hour) && local.date.year < Self.horizonYear
            && yearMatches(local.date.year) && matchesDate(local.date)
    }

    func yearMatches(_ year: Int) -> Bool {
        guard let years = fields.years else { return true }
        return years.contains { $0.contains(year) }
    }

    /// Whether `date` matches the month, day-of-month and day-of-week fields.
    func matchesDate(_ date: CivilDate) -> Bool {
        guard fields.months.contains(date.month) else { return false }
        if let days = fields.days, !days.contains(where: { $0.matches(date) }) { return false }
        if let weekdays = fields.weekdays, !weekdays.contains(where: { $0.matches(date) }) { return false }
        return true
    }

    /// Rejects expressions no second of any date can match. The day fields depend only on the
    /// day, its weekday and the month's length, and 2000–2027 holds every such combination
    /// (each weekday falls on every day of every month, 29 February included), so 28 years decide.
    private func checkCanFire() throws(RulesError) {
        for (field, set) in [(CronField.seconds, fields.seconds), (.minutes, fields.minutes), (.hours, fields.hours)]
        where set.isEmpty {
            throw RulesError(.cronNeverFires,
                             "Cron expression \"\(text)\" can never fire: \(field.label) matches no value.",
                             hint: field.accepted)
        }
        for year in 2000..<2028 {
            for month in 1...12 where fields.months.contains(month) {
                for day in 1...CivilDate.daysIn(month: month, year: year) {
                    if let date = CivilDate(year: year, month: month, day: day), matchesDate(date) { return }
                }
            }
        }
        throw RulesError(.cronNeverFires,
                         "Cron expression \"\(text)\" can never fire: no date matches its day-of-month, month and day-of-week fields together.",
                         hint: "Check the day against the month (there is no 31 February) and, when both day fields are set, that the day of the month can fall on that weekday; use ? in one of them.")
    }
}
