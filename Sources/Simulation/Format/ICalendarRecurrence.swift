/// `RRULE` expansion for reservation calendars (RFC 5545 §3.3.10, §3.8.5): a recurring `VEVENT`
/// becomes one event per occurrence, each with the first one's length, the `UID` followed by
/// `#` and the occurrence's start date (`weekly-cleaning@host#20260112`) so that every stay has an
/// id of its own. Read: `FREQ` `DAILY`, `WEEKLY`, `MONTHLY`, `YEARLY`; `INTERVAL`; `COUNT` or `UNTIL`
/// (one of them is required: an endless series has no place in a booking feed); `BYDAY` with plain
/// weekdays for `WEEKLY` (`WKST` Monday); `EXDATE` removes occurrences. Any other rule part
/// (`BYMONTHDAY`, `BYSETPOS`, `BYDAY=2MO`, …) is refused with its line, never ignored.
extension ICalendarText {
    /// The events of one `VEVENT`: itself without `RRULE`, else its occurrences.
    static func occurrences(of event: ICalendarEvent, _ p: Properties, exdates: [Property], name: String) throws(SimulationError) -> [ICalendarEvent] {
        guard let rule = p["RRULE"] else {
            if let exdate = exdates.first {
                throw problem(name, line: exdate.line, "EXDATE without RRULE: the VEVENT \(UserText.quoted(event.uid, limit: 60)) does not recur.")
            }
            return [event]
        }
        func refuse(_ message: String, hint: String? = nil) -> SimulationError {
            problem(name, line: rule.line, "RRULE of \(UserText.quoted(event.uid, limit: 60)): \(message)", hint: hint)
        }
        var parts: [String: String] = [:]
        for part in rule.value.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, parts.updateValue(String(pair[1]), forKey: pair[0].uppercased()) == nil else {
                throw refuse("\(UserText.quoted(String(part), limit: 40)) is not NAME=VALUE, or names a part twice.")
            }
        }
        let frequencies = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]
        guard let frequency = parts.removeValue(forKey: "FREQ")?.uppercased(), frequencies.contains(frequency) else {
            throw refuse("FREQ must be one of \(frequencies.joined(separator: ", ")).")
        }
        var interval = 1
        if let text = parts.removeValue(forKey: "INTERVAL") {
            guard let value = Int(text), (1...1_000).contains(value) else { throw refuse("INTERVAL=\(UserText.shown(text, limit: 20)) is not a whole number from 1 to 1000.") }
            interval = value
        }
        var count: Int?
        if let text = parts.removeValue(forKey: "COUNT") {
            guard let value = Int(text), (1...maxOccurrences).contains(value) else {
                throw refuse("COUNT=\(UserText.shown(text, limit: 20)) is not a whole number from 1 to \(maxOccurrences).")
            }
            count = value
        }
        var until: Int64?
        if let text = parts.removeValue(forKey: "UNTIL") {
            guard let time = parseTime(text, params: [:]) else { throw refuse("UNTIL=\(UserText.shown(text, limit: 20)) is not a date or date-time.") }
            until = wall(time, endOfDayForDates: true)
        }
        guard (count == nil) != (until == nil) else {
            throw refuse(count == nil ? "it has neither COUNT nor UNTIL, so it would book without end." : "it has both COUNT and UNTIL (RFC 5545 allows one).",
                         hint: "add COUNT=<stays> or UNTIL=<last date>.")
        }
        var weekdays: [Int]?
        if let text = parts.removeValue(forKey: "BYDAY") {
            let names = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
            guard frequency == "WEEKLY" else {
                throw refuse("BYDAY with FREQ=\(frequency) is not read by the twin.", hint: "use FREQ=WEEKLY;BYDAY=…, or list the stays as events of their own.")
            }
            var days: Set<Int> = []
            for day in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let index = names.firstIndex(of: day.uppercased()) else {
                    throw refuse("BYDAY \(UserText.quoted(String(day), limit: 20)) is not a weekday (MO, TU, WE, TH, FR, SA, SU).")
                }
                days.insert(index)
            }
            weekdays = days.sorted()
        }
        if let wkst = parts.removeValue(forKey: "WKST"), wkst.uppercased() != "MO" {
            throw refuse("WKST=\(UserText.shown(wkst, limit: 20)): the twin reads weeks starting on Monday only.")
        }
        if let other = parts.keys.sorted().first {
            throw refuse("the rule part \(UserText.shown(other, limit: 20)) is not read by the twin (it reads FREQ, INTERVAL, COUNT, UNTIL, BYDAY, WKST).",
                         hint: "list the stays as events of their own.")
        }
        var excluded: Set<Int64> = []
        for exdate in exdates {
            for text in exdate.value.split(separator: ",") {
                guard let time = parseTime(String(text), params: exdate.params) else {
                    throw problem(name, line: exdate.line, "EXDATE \(UserText.quoted(String(text), limit: 30)) is not an iCalendar date or date-time.")
                }
                excluded.insert(wall(time, endOfDayForDates: false))
            }
        }
        // Candidate start dates in order; the first is DTSTART's (which always counts, RFC 5545 §3.8.5.3).
        let first = day(event.start)
        let firstWeekday = first.isoWeekday - 1  // Monday 0
        var result: [ICalendarEvent] = []
        var produced = 0
        var step = 0
        // Enough candidates for 1000 occurrences of any rule read (a YEARLY 29 February has one in four years).
        while step <= 4 * maxOccurrences * 7 {
            var dates: [CivilDate] = []
            switch frequency {
            case "DAILY": dates = [first.adding(days: step * interval)]
            case "WEEKLY":
                if let weekdays {
                    let monday = first.adding(days: -firstWeekday + 7 * step * interval)
                    dates = weekdays.map { monday.adding(days: $0) }.filter { $0 > first }
                    if step == 0 { dates.insert(first, at: 0) }
                } else {
                    dates = [first.adding(days: 7 * step * interval)]
                }
            case "MONTHLY":
                let months = first.month - 1 + step * interval
                dates = CivilDate(year: first.year + months / 12, month: months % 12 + 1, day: first.day).map { [$0] } ?? []
            default:
                dates = CivilDate(year: first.year + step * interval, month: first.month, day: first.day).map { [$0] } ?? []
            }
            step += 1
            for date in dates {
                let shift = Int(date.daysSinceEpoch - first.daysSinceEpoch)
                let occurrence = shifted(event, days: shift, uid: "\(event.uid)#\(date.compactText)")
                if let until, wall(occurrence.start, endOfDayForDates: false) > until { return result }
                guard years.contains(date.year) else { return result }
                produced += 1
                if !excluded.contains(wall(occurrence.start, endOfDayForDates: false)) {
                    guard result.count < maxOccurrences else {
                        throw refuse("it expands to more than \(maxOccurrences) stays.", hint: "bring UNTIL nearer.")
                    }
                    result.append(occurrence)
                }
                if let count, produced == count { return result }
            }
        }
        return result
    }

    /// `event` moved by `days` whole days (start and end), named `uid`.
    private static func shifted(_ event: ICalendarEvent, days: Int, uid: String) -> ICalendarEvent {
        func move(_ time: ICalendarEvent.Time) -> ICalendarEvent.Time {
            switch time {
            case .date(let d): return .date(d.adding(days: days))
            case .local(let local, let zone): return .local(LocalDateTime(date: local.date.adding(days: days), time: local.time), zone: zone)
            case .utc(let instant): return .utc(SimInstant(unixMilliseconds: instant.unixMilliseconds + Int64(days) * 86_400_000))
            }
        }
        var copy = event
        copy.uid = uid
        copy.start = move(event.start)
        copy.end = event.end.map(move)
        return copy
    }

    /// A time as milliseconds of its written wall clock (a date: its midnight, or its last millisecond
    /// for an `UNTIL` date, which includes that day).
    private static func wall(_ time: ICalendarEvent.Time, endOfDayForDates: Bool) -> Int64 {
        switch time {
        case .date(let d): return d.daysSinceEpoch * 86_400_000 + (endOfDayForDates ? 86_399_999 : 0)
        case .local(let local, _): return local.wallMilliseconds
        case .utc(let instant): return instant.unixMilliseconds
        }
    }
}

extension CivilDate {
    /// `20260112`.
    fileprivate var compactText: String {
        ASCIIDigits.padded(year, 4) + ASCIIDigits.padded(month, 2) + ASCIIDigits.padded(day, 2)
    }
}
