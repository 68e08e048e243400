import Simulation

/// openHAB's Ephemeris actions that need no holiday calendar: `isWeekend()`, `isWeekend(offset)`,
/// `isWeekend(day)`, `isInDayset("weekend"[, …])`. openhab-core's `EphemerisManagerImpl` starts with the
/// dayset `weekend` = SATURDAY, SUNDAY, which the twin keeps (a scenario has no Ephemeris configuration).
/// The bank-holiday actions (`isBankHoliday`, `getBankHolidayName`) answer from the scenario's
/// `ephemeris.bankHolidays`, the twin's stand-in for the country's holiday calendar openHAB configures; a
/// run that asks without the scenario listing them ends with an error naming the key.
enum DSLEphemeris {
    static let weekend: Set<Int> = [6, 7]  // ISO: Saturday, Sunday

    /// The day an Ephemeris action asks about: today, `offset` days from today, or a ZonedDateTime's day.
    private static func day(_ i: DSLInterpreter, _ a: [DSLValue], skipping: Int, _ at: DSLLocation) throws(DSLFlow) -> CivilDate {
        let calendar = i.execution.calendar
        let today = calendar.localDateTime(at: i.execution.now).date
        guard let argument = a.dropFirst(skipping).first else { return today }
        switch argument {
        case .int(let offset): return today.adding(days: Int(clamping: offset))
        case .instant(let t): return calendar.localDateTime(at: t).date
        case .state(.dateTime(let d)): return calendar.localDateTime(at: d.instant).date
        default: throw DSLFlow.failure("an Ephemeris action takes a day offset or a ZonedDateTime, not \(argument.kindName)", at, type: "IllegalArgumentException")
        }
    }

    private static func holidays(_ i: DSLInterpreter, _ name: String, _ at: DSLLocation) throws(DSLFlow) -> [CivilDate: String] {
        guard let days = i.execution.engine.actionOutbox.bankHolidays else {
            throw DSLFlow.failure("\(name) needs the scenario's bank holidays: the twin has no holiday calendar of its own; list them as "
                                  + "\"ephemeris\": {\"bankHolidays\": {\"2026-12-25\": \"Christmas Day\"}}", at, type: "IllegalStateException")
        }
        return days
    }

    static let functions: [String: DSLFunction] = [
        "isBankHoliday": { i, a, at in .bool(try holidays(i, "isBankHoliday", at)[try day(i, a, skipping: 0, at)] != nil) },
        // EphemerisManagerImpl.getBankHolidayName: null on a day that is no holiday.
        "getBankHolidayName": { i, a, at in try holidays(i, "getBankHolidayName", at)[try day(i, a, skipping: 0, at)].map(DSLValue.string) ?? .null },
        "isWeekend": { i, a, at in .bool(weekend.contains(try day(i, a, skipping: 0, at).isoWeekday)) },
        "isInDayset": { i, a, at in
            guard case .string(let name)? = a.first else { throw DSLFlow.failure("isInDayset takes a dayset's name", at, type: "IllegalArgumentException") }
            guard name == "weekend" else {
                // EphemerisManagerImpl.isInDayset: an unknown dayset is an IllegalArgumentException.
                throw DSLFlow.failure("This dayset is not configured : \(name)", at, type: "IllegalArgumentException")
            }
            return .bool(weekend.contains(try day(i, a, skipping: 1, at).isoWeekday))
        },
    ]
}
