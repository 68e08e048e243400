import Foundation
import Simulation
import SmartHome

/// `java.time` as rules use it, on the virtual clock and in the scenario's zone: `ZonedDateTime` (`now`),
/// `LocalTime`, `LocalDate`, `Duration`, `ChronoUnit`, `DateTimeFormatter` patterns.
enum DSLTime {
    /// The instants Java can hold that the twin's calendar reads (years 1–9999): past them, `DateTimeException`.
    static let earliest = SimInstant(unixMilliseconds: -62_135_596_800_000)
    static let latest = SimInstant(unixMilliseconds: 253_402_300_799_999)

    static let chronoUnits: [String: Int64] = ["MILLIS": 1, "SECONDS": 1_000, "MINUTES": 60_000, "HOURS": 3_600_000,
                                               "HALF_DAYS": 43_200_000, "DAYS": 86_400_000, "WEEKS": 604_800_000, "MONTHS": 0, "YEARS": 0]

    private static func amount(_ a: [DSLValue], _ name: String, _ at: DSLLocation) throws(DSLFlow) -> Int64 {
        if case .int(let n)? = a.first { return n }
        guard a.count >= 1, let n = a[0].numeric else {
            throw DSLFlow.failure("\(name) takes a whole number", at, type: "IllegalArgumentException")
        }
        guard n.value.isFinite, abs(n.value) < 9.2e18 else {
            throw DSLFlow.failure("\(JavaDecimal.javaDoubleText(n.value)) is too large for \(name)", at, type: "ArithmeticException")
        }
        return Int64(n.value.rounded(.towardZero))
    }

    private static func checked(_ t: SimInstant?, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        guard let t, t >= earliest, t <= latest else {
            throw DSLFlow.failure("the date-time is outside the years the twin supports (1–9999)", at, type: "DateTimeException")
        }
        return .instant(t)
    }

    /// `t` moved by `amount × unitMs` milliseconds, or `nil` on overflow.
    static func shifted(_ t: SimInstant, _ amount: Int64, unitMs: Int64) -> SimInstant? {
        let (ms, o1) = amount.multipliedReportingOverflow(by: unitMs)
        let (sum, o2) = t.unixMilliseconds.addingReportingOverflow(ms)
        return o1 || o2 ? nil : SimInstant(unixMilliseconds: sum)
    }

    /// Calendar moves (days, months, years keep the wall time, as `ZonedDateTime.plusDays`).
    static func shiftedLocal(_ t: SimInstant, days: Int64 = 0, months: Int64 = 0, _ i: DSLInterpreter) -> SimInstant? {
        guard abs(days) < 4_000_000, abs(months) < 130_000 else { return nil }
        let calendar = i.execution.calendar
        let local = calendar.localDateTime(at: t)
        var date = local.date
        if months != 0 {
            let total = Int64(date.year) * 12 + Int64(date.month - 1) + months
            let year = Int(total / 12 - (total % 12 < 0 ? 1 : 0)), month = Int((total % 12 + 12) % 12) + 1
            guard year >= 1, year <= 9999 else { return nil }
            date = CivilDate(year: year, month: month, day: min(date.day, CivilDate.daysIn(month: month, year: year))) ?? date
        }
        date = date.adding(days: Int(days))
        guard date.year >= 1, date.year <= 9999 else { return nil }
        return calendar.resolvedInstant(for: LocalDateTime(date: date, time: local.time))
    }

    private static func instant(_ r: DSLValue) -> SimInstant {
        if case .instant(let t) = r { return t }
        if case .state(.dateTime(let d)) = r { return d.instant }
        return .epoch
    }

    private static func plus(_ sign: Int64, _ unitMs: Int64?, days: Int64 = 0, months: Int64 = 0) -> DSLMethodCode {
        .init { i, r, a, at in
            let n = try amount(a, "plus/minus", at)
            let (signed, overflow) = n.multipliedReportingOverflow(by: sign)
            guard !overflow else { return try checked(nil, at) }
            let t = instant(r)
            if let unitMs { return try checked(shifted(t, signed, unitMs: unitMs), at) }
            let (d, o1) = signed.multipliedReportingOverflow(by: days), (m, o2) = signed.multipliedReportingOverflow(by: months)
            guard !o1, !o2 else { return try checked(nil, at) }
            return try checked(shiftedLocal(t, days: d, months: m, i), at)
        }
    }

    private static func byUnit(_ sign: Int64) -> DSLMethodCode {
        .init { i, r, a, at in
            if a.count == 1, case .duration(let d) = a[0] {
                return try checked(shifted(instant(r), sign, unitMs: d.milliseconds), at)
            }
            guard a.count == 2, case .constant("ChronoUnit", let unit) = a[1] else {
                throw DSLFlow.failure("plus/minus takes a Duration, or an amount and a ChronoUnit", at, type: "IllegalArgumentException")
            }
            let n = try amount(a, "plus/minus", at)
            let (signed, overflow) = n.multipliedReportingOverflow(by: sign)
            guard !overflow else { return try checked(nil, at) }
            // The units past the table: nanoseconds and microseconds in whole milliseconds (the clock's), decades,
            // centuries and millennia as months; ERAS and FOREVER are Java's UnsupportedTemporalTypeException.
            if unit == "NANOS" || unit == "MICROS" { return try checked(shifted(instant(r), signed / (unit == "NANOS" ? 1_000_000 : 1_000), unitMs: 1), at) }
            if let months = DSLJava.dateUnitMonths[unit], months >= 120 {
                let (m, o) = signed.multipliedReportingOverflow(by: months)
                return try checked(o ? nil : shiftedLocal(instant(r), months: m, i), at)
            }
            guard let ms = chronoUnits[unit] else {
                throw DSLFlow.failure("Unsupported unit: \(DSLJava.unitText(unit))", at, type: "UnsupportedTemporalTypeException")
            }
            // Date-based units keep the wall time (ZonedDateTime.plus(n, WEEKS) across a DST change too).
            if unit == "DAYS" || unit == "WEEKS" {
                let (d, o) = signed.multipliedReportingOverflow(by: unit == "WEEKS" ? 7 : 1)
                return try checked(o ? nil : shiftedLocal(instant(r), days: d, i), at)
            }
            if unit == "MONTHS" || unit == "YEARS" {
                let (m, o) = signed.multipliedReportingOverflow(by: unit == "YEARS" ? 12 : 1)
                return try checked(o ? nil : shiftedLocal(instant(r), months: m, i), at)
            }
            return try checked(shifted(instant(r), signed, unitMs: ms), at)
        }
    }

    private static func local(_ r: DSLValue, _ i: DSLInterpreter) -> LocalDateTime { i.execution.calendar.localDateTime(at: instant(r)) }

    private static func with(_ i: DSLInterpreter, _ r: DSLValue, _ a: [DSLValue], _ at: DSLLocation, _ change: (inout LocalDateTime, Int) -> Bool) throws(DSLFlow) -> DSLValue {
        var l = local(r, i)
        guard let n = a.first?.numeric, change(&l, Int(clamping: Int64(saturating: n.value))) else {
            throw DSLFlow.failure("the value is out of range", at, type: "DateTimeException")
        }
        return .instant(i.execution.calendar.resolvedInstant(for: l))
    }

    /// `year-month-day`, or the month's last day when `day` is past it.
    private static func clampedDate(year: Int, month: Int, day: Int) -> CivilDate? {
        var d = day
        while d >= 28 { if let date = CivilDate(year: year, month: month, day: d) { return date }; d -= 1 }
        return CivilDate(year: year, month: month, day: d)
    }

    static let instantMethods: [String: DSLMethodCode] = [
        "plusNanos": .init { _, r, a, at in try checked(shifted(instant(r), try amount(a, "plusNanos", at) / 1_000_000, unitMs: 1), at) },
        "plusMillis": plus(1, 1), "minusMillis": plus(-1, 1),
        "plusSeconds": plus(1, 1_000), "minusSeconds": plus(-1, 1_000),
        "plusMinutes": plus(1, 60_000), "minusMinutes": plus(-1, 60_000),
        "plusHours": plus(1, 3_600_000), "minusHours": plus(-1, 3_600_000),
        "plusDays": plus(1, nil, days: 1), "minusDays": plus(-1, nil, days: 1),
        "plusWeeks": plus(1, nil, days: 7), "minusWeeks": plus(-1, nil, days: 7),
        "plusMonths": plus(1, nil, months: 1), "minusMonths": plus(-1, nil, months: 1),
        "plusYears": plus(1, nil, months: 12), "minusYears": plus(-1, nil, months: 12),
        "plus": byUnit(1), "minus": byUnit(-1),
        "getHour": .init { i, r, _, _ in .int(Int64(local(r, i).time.hour)) },
        "getMinute": .init { i, r, _, _ in .int(Int64(local(r, i).time.minute)) },
        "getSecond": .init { i, r, _, _ in .int(Int64(local(r, i).time.second)) },
        "getNano": .init { i, r, _, _ in .int(Int64(local(r, i).time.millisecond) * 1_000_000) },
        "getDayOfMonth": .init { i, r, _, _ in .int(Int64(local(r, i).date.day)) },
        "getMonthValue": .init { i, r, _, _ in .int(Int64(local(r, i).date.month)) },
        "getYear": .init { i, r, _, _ in .int(Int64(local(r, i).date.year)) },
        "getDayOfWeek": .init { i, r, _, _ in .dayOfWeek(local(r, i).date.isoWeekday) },
        "getDayOfYear": .init { i, r, _, _ in
            let d = local(r, i).date
            return .int(d.daysSinceEpoch - (CivilDate(year: d.year, month: 1, day: 1)?.daysSinceEpoch ?? 0) + 1)
        },
        "isBefore": .init { _, r, a, at in
            guard a.count == 1 else { throw DSLFlow.failure("isBefore takes a date-time", at) }
            return .bool(try DSLOperators.compare(r, a[0], at) < 0)
        },
        "isAfter": .init { _, r, a, at in
            guard a.count == 1 else { throw DSLFlow.failure("isAfter takes a date-time", at) }
            return .bool(try DSLOperators.compare(r, a[0], at) > 0)
        },
        "isEqual": .init { _, r, a, at in
            guard a.count == 1 else { throw DSLFlow.failure("isEqual takes a date-time", at) }
            return .bool(try DSLOperators.compare(r, a[0], at) == 0)
        },
        "toLocalTime": .init { i, r, _, _ in .localTime(local(r, i).time) },
        "toLocalDate": .init { i, r, _, _ in .localDate(local(r, i).date) },
        "toInstant": .init { _, r, _, _ in .instant(instant(r)) },
        "toEpochMilli": .init { _, r, _, _ in .int(instant(r).unixMilliseconds) },
        "getTime": .init { _, r, _, _ in .int(instant(r).unixMilliseconds) },  // java.util.Date's getTime (milliseconds since the epoch)
        "toEpochSecond": .init { _, r, _, _ in .int(instant(r).unixSeconds) },
        "getZone": .init { i, _, _, _ in .string(i.execution.calendar.identifier) },
        "withZoneSameInstant": .init { _, r, _, _ in .instant(instant(r)) },
        "withHour": .init { i, r, a, at in try with(i, r, a, at) { l, n in guard let t = LocalTime(hour: n, minute: l.time.minute, second: l.time.second) else { return false }; l.time = t; return true } },
        "withMinute": .init { i, r, a, at in try with(i, r, a, at) { l, n in guard let t = LocalTime(hour: l.time.hour, minute: n, second: l.time.second) else { return false }; l.time = t; return true } },
        "withSecond": .init { i, r, a, at in try with(i, r, a, at) { l, n in guard let t = LocalTime(hour: l.time.hour, minute: l.time.minute, second: n) else { return false }; l.time = t; return true } },
        "withNano": .init { i, r, a, at in try with(i, r, a, at) { l, n in
            guard n >= 0, n < 1_000_000_000 else { return false }
            l.time = LocalTime(millisecondOfDay: l.time.millisecondOfDay / 1_000 * 1_000 + Int64(n / 1_000_000)); return true } },
        "withDayOfMonth": .init { i, r, a, at in try with(i, r, a, at) { l, n in guard let d = CivilDate(year: l.date.year, month: l.date.month, day: n) else { return false }; l.date = d; return true } },
        // ZonedDateTime.withMonth / withYear keep the day of the month, or the month's last day when it has
        // fewer (Jan 31 withMonth 2 is Feb 28); withDayOfYear counts from January 1 (1…365 or 366).
        "withMonth": .init { i, r, a, at in try with(i, r, a, at) { l, n in
            guard (1...12).contains(n), let d = clampedDate(year: l.date.year, month: n, day: l.date.day) else { return false }
            l.date = d; return true
        } },
        "withYear": .init { i, r, a, at in try with(i, r, a, at) { l, n in
            guard (-999_999_999...999_999_999).contains(n), let d = clampedDate(year: n, month: l.date.month, day: l.date.day) else { return false }
            l.date = d; return true
        } },
        "withDayOfYear": .init { i, r, a, at in try with(i, r, a, at) { l, n in
            guard n >= 1, let first = CivilDate(year: l.date.year, month: 1, day: 1) else { return false }
            let d = first.adding(days: n - 1)
            guard d.year == l.date.year else { return false }
            l.date = d; return true
        } },
        "truncatedTo": .init { i, r, a, at in
            guard case .constant("ChronoUnit", let unit)? = a.first, let ms = chronoUnits[unit], ms > 0, ms <= 86_400_000 else {
                throw DSLFlow.failure("truncatedTo takes a ChronoUnit up to DAYS", at, type: "UnsupportedTemporalTypeException")
            }
            var l = local(r, i)
            l.time = LocalTime(millisecondOfDay: l.time.millisecondOfDay / ms * ms)
            return .instant(i.execution.calendar.resolvedInstant(for: l))
        },
        "format": .init { i, r, a, at in
            guard case .formatter(let p)? = a.first else { throw DSLFlow.failure("format takes a DateTimeFormatter", at) }
            return .string(try format(r, pattern: p, at, i))
        },
    ]

    static let localTimeStatics: [String: DSLFunction] = [
        "now": { i, _, _ in .localTime(i.execution.calendar.localDateTime(at: i.execution.now).time) },
        "of": { _, a, at in
            let parts = a.compactMap { $0.numeric.map { Int(Int64(saturating: $0.value)) } }
            guard parts.count >= 2, let t = LocalTime(hour: parts[0], minute: parts[1], second: parts.count > 2 ? parts[2] : 0) else {
                throw DSLFlow.failure("LocalTime.of takes an hour and a minute", at, type: "DateTimeException")
            }
            return .localTime(t)
        },
        "parse": { _, a, at in
            guard case .string(let s)? = a.first, let t = LocalTime(iso: s) else { throw DSLFlow.failure("LocalTime.parse cannot read \(a.first?.text ?? "nothing")", at, type: "DateTimeParseException") }
            return .localTime(t)
        },
        "MIDNIGHT": { _, _, _ in .localTime(.midnight) },
        "MIN": { _, _, _ in .localTime(.midnight) },  // LocalTime.MIN is 00:00, as MIDNIGHT
        "NOON": { _, _, _ in .localTime(LocalTime(millisecondOfDay: 43_200_000)) },
    ]

    static let localDateStatics: [String: DSLFunction] = [
        "now": { i, _, _ in .localDate(i.execution.calendar.date(at: i.execution.now)) },
        "of": { _, a, at in
            let parts = a.compactMap { $0.numeric.map { Int(Int64(saturating: $0.value)) } }
            guard parts.count == 3, let d = CivilDate(year: parts[0], month: parts[1], day: parts[2]) else {
                throw DSLFlow.failure("LocalDate.of takes a year, a month and a day", at, type: "DateTimeException")
            }
            return .localDate(d)
        },
        "parse": { _, a, at in
            guard case .string(let s)? = a.first, let d = CivilDate(iso: s) else { throw DSLFlow.failure("LocalDate.parse cannot read \(a.first?.text ?? "nothing")", at, type: "DateTimeParseException") }
            return .localDate(d)
        },
    ]

    static let localTimeMethods: [String: DSLMethodCode] = [
        "getHour": .init { _, r, _, _ in if case .localTime(let t) = r { return .int(Int64(t.hour)) }; return .null },
        "getMinute": .init { _, r, _, _ in if case .localTime(let t) = r { return .int(Int64(t.minute)) }; return .null },
        "getSecond": .init { _, r, _, _ in if case .localTime(let t) = r { return .int(Int64(t.second)) }; return .null },
        "isBefore": .init { _, r, a, at in .bool(try DSLOperators.compare(r, a.first ?? .null, at) < 0) },
        "isAfter": .init { _, r, a, at in .bool(try DSLOperators.compare(r, a.first ?? .null, at) > 0) },
        "plusMinutes": .init { _, r, a, at in
            guard case .localTime(let t) = r else { return .null }
            let n = try amount(a, "plusMinutes", at) % 1_440
            return .localTime(LocalTime(millisecondOfDay: ((t.millisecondOfDay + n * 60_000) % 86_400_000 + 86_400_000) % 86_400_000))
        },
        "plusHours": .init { _, r, a, at in
            guard case .localTime(let t) = r else { return .null }
            let n = try amount(a, "plusHours", at) % 24
            return .localTime(LocalTime(millisecondOfDay: ((t.millisecondOfDay + n * 3_600_000) % 86_400_000 + 86_400_000) % 86_400_000))
        },
        "toSecondOfDay": .init { _, r, _, _ in if case .localTime(let t) = r { return .int(t.millisecondOfDay / 1_000) }; return .null },
    ]

    static let localDateMethods: [String: DSLMethodCode] = [
        "getYear": .init { _, r, _, _ in if case .localDate(let d) = r { return .int(Int64(d.year)) }; return .null },
        "getMonthValue": .init { _, r, _, _ in if case .localDate(let d) = r { return .int(Int64(d.month)) }; return .null },
        "getDayOfMonth": .init { _, r, _, _ in if case .localDate(let d) = r { return .int(Int64(d.day)) }; return .null },
        "getDayOfWeek": .init { _, r, _, _ in if case .localDate(let d) = r { return .dayOfWeek(d.isoWeekday) }; return .null },
        "isBefore": .init { _, r, a, at in .bool(try DSLOperators.compare(r, a.first ?? .null, at) < 0) },
        "isAfter": .init { _, r, a, at in .bool(try DSLOperators.compare(r, a.first ?? .null, at) > 0) },
        "plusDays": .init { _, r, a, at in
            guard case .localDate(let d) = r else { return .null }
            let n = try amount(a, "plusDays", at)
            guard abs(n) < 3_000_000 else { throw DSLFlow.failure("out of range", at, type: "DateTimeException") }
            return .localDate(d.adding(days: Int(n)))
        },
    ]

    static let durationStatics: [String: DSLFunction] = [
        "ofMillis": duration(1), "ofSeconds": duration(1_000), "ofMinutes": duration(60_000), "ofHours": duration(3_600_000),
        "ofDays": duration(86_400_000),
        "between": { i, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("Duration.between takes two date-times", at) }
            // Duration.between(a, b) is a.until(b, NANOS): local date-times and times count wall-clock time.
            switch (a[0], a[1]) {
            case (.localDateTime, _), (.localTime, _), (.localDate, _):
                return .duration(SimDuration(milliseconds: try DSLJava.until(a[0], a[1], "MILLIS", at, i)))
            default:
                return .duration(instant(a[1]) - instant(a[0]))
            }
        },
        "ZERO": { _, _, _ in .duration(.zero) },
    ]

    private static func duration(_ unitMs: Int64) -> DSLFunction {
        { _, a, at in
            let n = try amount(a, "Duration.of…", at)
            let (ms, o) = n.multipliedReportingOverflow(by: unitMs)
            guard !o else { throw DSLFlow.failure("the duration is too long", at, type: "ArithmeticException") }
            return .duration(SimDuration(milliseconds: ms))
        }
    }

    private static func ms(_ r: DSLValue) -> Int64 { if case .duration(let d) = r { d.milliseconds } else { 0 } }

    static let durationMethods: [String: DSLMethodCode] = [
        "toMillis": .init { _, r, _, _ in .int(ms(r)) },
        "getSeconds": .init { _, r, _, _ in .int(ms(r) / 1_000) },
        "toSeconds": .init { _, r, _, _ in .int(ms(r) / 1_000) },
        "toMinutes": .init { _, r, _, _ in .int(ms(r) / 60_000) },
        "toHours": .init { _, r, _, _ in .int(ms(r) / 3_600_000) },
        "toDays": .init { _, r, _, _ in .int(ms(r) / 86_400_000) },
        "isNegative": .init { _, r, _, _ in .bool(ms(r) < 0) },
        "isZero": .init { _, r, _, _ in .bool(ms(r) == 0) },
        "plus": .init { _, r, a, at in
            guard case .duration(let d)? = a.first else { throw DSLFlow.failure("plus takes a Duration", at) }
            return .duration(SimDuration(milliseconds: ms(r) &+ d.milliseconds))
        },
    ]

    /// `DateTimeFormatter.ofPattern` letters: y M d H h m s S a E, `'quoted'` text.
    static func format(_ value: DSLValue, pattern: String, _ at: DSLLocation, _ i: DSLInterpreter) throws(DSLFlow) -> String {
        if pattern.hasPrefix(DSLJava.predefinedMark) { return try DSLJava.formatPredefined(String(pattern.dropFirst()), value, at, i) }
        let l: LocalDateTime
        switch value {
        case .instant, .state(.dateTime): l = local(value, i)
        case .localDateTime(let x): l = x
        case .localTime(let t): l = LocalDateTime(date: CivilDate(daysSinceEpoch: 0), time: t)
        case .localDate(let d): l = LocalDateTime(date: d, time: .midnight)
        default: throw DSLFlow.failure("cannot format \(value.kindName) as a date-time", at, type: "DateTimeException")
        }
        let (months, days) = (DSLDateFormat.english.months, DSLDateFormat.english.days)
        let pad = DSLDateFormat.pad
        var out = ""
        var chars = Array(pattern)[...]
        while let c = chars.first {
            if c == "'" {
                chars.removeFirst()
                while let q = chars.popFirst(), q != "'" { out.append(q) }
                continue
            }
            guard c.isLetter else { out.append(c); chars.removeFirst(); continue }
            var count = 0
            while chars.first == c { chars.removeFirst(); count += 1 }
            switch c {
            case "y", "u": out += count == 2 ? pad(l.date.year % 100, 2) : pad(l.date.year, count)
            case "M", "L": out += count >= 4 ? months[l.date.month - 1] : count == 3 ? String(months[l.date.month - 1].prefix(3)) : pad(l.date.month, count)
            case "d": out += pad(l.date.day, count)
            case "H": out += pad(l.time.hour, count)
            case "h": out += pad(l.time.hour % 12 == 0 ? 12 : l.time.hour % 12, count)
            case "m": out += pad(l.time.minute, count)
            case "s": out += pad(l.time.second, count)
            case "S": out += String(pad(l.time.millisecond, 3).prefix(count))
            case "a": out += l.time.hour < 12 ? "AM" : "PM"
            case "E": out += count >= 4 ? days[l.date.isoWeekday - 1] : String(days[l.date.isoWeekday - 1].prefix(3))
            default: throw DSLFlow.failure("the pattern letter \(c) is not one the twin formats (y M d H h m s S a E)", at, type: "IllegalArgumentException")
            }
        }
        return out
    }
}
