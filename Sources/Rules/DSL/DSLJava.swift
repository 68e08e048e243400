import Foundation
import Simulation
import SmartHome
import Synchronization

/// The rest of the Java rules reach, as JDK 17 runs it: `java.time`'s `LocalDateTime`, `ChronoUnit.between`,
/// `until`, `with` (a `LocalTime`, a `LocalDate`, `TemporalAdjusters`, a `ChronoField`), `ChronoField` reads,
/// `Month`, the predefined `DateTimeFormatter`s; `java.util.Random` (Java's own generator, seeded from the
/// scenario), `UUID.randomUUID`, `URLEncoder`/`URLDecoder`, the boxed numbers' constructors; openHAB's
/// `getThingStatusInfo`, `storeStates`/`restoreStates` and `GroupItem.addMember`/`removeMember`.
/// Everything the JDK classes have and the twin does not run is in ``DSLJavaSurface``, with its reason.
enum DSLJava {
    // MARK: Values

    static func localDateTime(_ v: DSLValue, _ i: DSLInterpreter) -> LocalDateTime? {
        switch v {
        case .localDateTime(let l): return l
        case .instant(let t): return i.execution.calendar.localDateTime(at: t)
        case .state(.dateTime(let d)): return i.execution.calendar.localDateTime(at: d.instant)
        default: return nil
        }
    }

    static func instant(_ v: DSLValue) -> SimInstant? {
        switch v {
        case .instant(let t): return t
        case .state(.dateTime(let d)): return d.instant
        default: return nil
        }
    }

    /// `ChronoUnit.toString` (`Minutes`, `HalfDays`), as Java's messages print a unit.
    static func unitText(_ unit: String) -> String {
        unit.split(separator: "_").map { $0.prefix(1) + $0.dropFirst().lowercased() }.joined()
    }

    /// Every `ChronoUnit`, with its length in milliseconds for the time-based ones (`nil`: date-based).
    static let timeUnitMs: [String: Int64] = ["MILLIS": 1, "SECONDS": 1_000, "MINUTES": 60_000, "HOURS": 3_600_000, "HALF_DAYS": 43_200_000]
    static let dateUnitMonths: [String: Int64] = ["MONTHS": 1, "YEARS": 12, "DECADES": 120, "CENTURIES": 1_200, "MILLENNIA": 12_000]
    static let chronoUnitNames = ["NANOS", "MICROS", "MILLIS", "SECONDS", "MINUTES", "HOURS", "HALF_DAYS", "DAYS", "WEEKS", "MONTHS", "YEARS",
                                  "DECADES", "CENTURIES", "MILLENNIA", "ERAS", "FOREVER"]

    private static func unsupportedUnit(_ unit: String, _ at: DSLLocation) -> DSLFlow {
        DSLFlow.failure("Unsupported unit: \(unitText(unit))", at, type: "UnsupportedTemporalTypeException")
    }

    /// Milliseconds `ms` in `unit` (a time-based one, or NANOS/MICROS), truncated toward zero as Java's `until`.
    private static func timeAmount(_ ms: Int64, _ unit: String, _ at: DSLLocation) throws(DSLFlow) -> Int64 {
        switch unit {
        case "NANOS", "MICROS":
            let (v, o) = ms.multipliedReportingOverflow(by: unit == "NANOS" ? 1_000_000 : 1_000)
            guard !o else { throw DSLFlow.failure("long overflow", at, type: "ArithmeticException") }
            return v
        default:
            guard let per = timeUnitMs[unit] else { throw unsupportedUnit(unit, at) }
            return ms / per
        }
    }

    /// `LocalDate.until(end, unit)` for the date-based units.
    private static func dateUntil(_ a: CivilDate, _ b: CivilDate, _ unit: String, _ at: DSLLocation) throws(DSLFlow) -> Int64 {
        switch unit {
        case "DAYS": return b.daysSinceEpoch - a.daysSinceEpoch
        case "WEEKS": return (b.daysSinceEpoch - a.daysSinceEpoch) / 7
        case "ERAS": return 0
        default:
            guard let months = dateUnitMonths[unit] else { throw unsupportedUnit(unit, at) }
            // LocalDate.monthsUntil: (packed end - packed start) / 32, packed = prolepticMonth × 32 + day.
            let p1 = (Int64(a.year) * 12 + Int64(a.month - 1)) * 32 + Int64(a.day)
            let p2 = (Int64(b.year) * 12 + Int64(b.month - 1)) * 32 + Int64(b.day)
            return (p2 - p1) / 32 / months
        }
    }

    /// `LocalDateTime.until(end, unit)`: date-based units count whole days (the end's date moved back a day when
    /// its time is earlier), time-based units the wall-clock difference.
    private static func localUntil(_ a: LocalDateTime, _ b: LocalDateTime, _ unit: String, _ at: DSLLocation) throws(DSLFlow) -> Int64 {
        if timeUnitMs[unit] != nil || unit == "NANOS" || unit == "MICROS" {
            return try timeAmount(b.wallMilliseconds - a.wallMilliseconds, unit, at)
        }
        var end = b.date
        if b.date > a.date, b.time < a.time { end = end.adding(days: -1) } else if b.date < a.date, b.time > a.time { end = end.adding(days: 1) }
        return try dateUntil(a.date, end, unit, at)
    }

    /// `a.until(b, unit)` (what `ChronoUnit.X.between(a, b)` calls): `b` is converted to `a`'s kind, as Java's
    /// `LocalDate.from(b)` does; a `ZonedDateTime` counts time-based units on the time line (a DST day has 23
    /// hours) and date-based units on its local date-time (that day is still one day).
    static func until(_ a: DSLValue, _ b: DSLValue, _ unit: String, _ at: DSLLocation, _ i: DSLInterpreter) throws(DSLFlow) -> Int64 {
        if unit == "FOREVER" { throw unsupportedUnit(unit, at) }
        func cannot(_ kind: String) -> DSLFlow {
            DSLFlow.failure("Unable to obtain \(kind) from TemporalAccessor: \(b.kindName)", at, type: "DateTimeException")
        }
        switch a {
        case .instant, .state(.dateTime):
            guard let x = instant(a), let y = instant(b) else { throw cannot("ZonedDateTime") }
            if timeUnitMs[unit] != nil || unit == "NANOS" || unit == "MICROS" { return try timeAmount(y.unixMilliseconds - x.unixMilliseconds, unit, at) }
            let calendar = i.execution.calendar
            return try localUntil(calendar.localDateTime(at: x), calendar.localDateTime(at: y), unit, at)
        case .localDateTime(let x):
            guard let y = localDateTime(b, i) else { throw cannot("LocalDateTime") }
            return try localUntil(x, y, unit, at)
        case .localDate(let x):
            let y: CivilDate
            if case .localDate(let d) = b { y = d } else if let l = localDateTime(b, i) { y = l.date } else { throw cannot("LocalDate") }
            guard timeUnitMs[unit] == nil, unit != "NANOS", unit != "MICROS" else { throw unsupportedUnit(unit, at) }
            return try dateUntil(x, y, unit, at)
        case .localTime(let x):
            let y: LocalTime
            if case .localTime(let t) = b { y = t } else if let l = localDateTime(b, i) { y = l.time } else { throw cannot("LocalTime") }
            guard timeUnitMs[unit] != nil || unit == "NANOS" || unit == "MICROS" else { throw unsupportedUnit(unit, at) }
            return try timeAmount(y.millisecondOfDay - x.millisecondOfDay, unit, at)
        default:
            throw DSLFlow.failure("\(a.kindName) is not a date or time", at, type: "DateTimeException")
        }
    }

    // MARK: ChronoField, adjusters, with

    static let chronoFields = ["NANO_OF_SECOND", "MICRO_OF_SECOND", "MILLI_OF_SECOND", "MILLI_OF_DAY", "SECOND_OF_MINUTE", "SECOND_OF_DAY",
                               "MINUTE_OF_HOUR", "MINUTE_OF_DAY", "HOUR_OF_AMPM", "HOUR_OF_DAY", "AMPM_OF_DAY", "DAY_OF_WEEK", "DAY_OF_MONTH",
                               "DAY_OF_YEAR", "EPOCH_DAY", "MONTH_OF_YEAR", "YEAR", "ALIGNED_WEEK_OF_MONTH", "ALIGNED_WEEK_OF_YEAR",
                               "PROLEPTIC_MONTH", "YEAR_OF_ERA", "ERA", "INSTANT_SECONDS", "OFFSET_SECONDS", "CLOCK_HOUR_OF_DAY",
                               "CLOCK_HOUR_OF_AMPM", "NANO_OF_DAY", "MICRO_OF_DAY", "ALIGNED_DAY_OF_WEEK_IN_MONTH", "ALIGNED_DAY_OF_WEEK_IN_YEAR"]

    private static func dayOfYear(_ d: CivilDate) -> Int64 { d.daysSinceEpoch - (CivilDate(year: d.year, month: 1, day: 1)?.daysSinceEpoch ?? 0) + 1 }

    /// `temporal.getLong(field)` of a local date-time (`hasTime`/`hasDate`: which fields the value has).
    static func field(_ l: LocalDateTime, _ name: String, hasDate: Bool, hasTime: Bool, _ at: DSLLocation) throws(DSLFlow) -> Int64 {
        let t = l.time, d = l.date
        let timeFields: [String: Int64] = [
            "NANO_OF_SECOND": Int64(t.millisecond) * 1_000_000, "MICRO_OF_SECOND": Int64(t.millisecond) * 1_000, "MILLI_OF_SECOND": Int64(t.millisecond),
            "MILLI_OF_DAY": t.millisecondOfDay, "MICRO_OF_DAY": t.millisecondOfDay * 1_000, "NANO_OF_DAY": t.millisecondOfDay * 1_000_000,
            "SECOND_OF_MINUTE": Int64(t.second), "SECOND_OF_DAY": t.millisecondOfDay / 1_000, "MINUTE_OF_HOUR": Int64(t.minute),
            "MINUTE_OF_DAY": t.millisecondOfDay / 60_000, "HOUR_OF_DAY": Int64(t.hour), "HOUR_OF_AMPM": Int64(t.hour % 12),
            "CLOCK_HOUR_OF_DAY": t.hour == 0 ? 24 : Int64(t.hour), "CLOCK_HOUR_OF_AMPM": t.hour % 12 == 0 ? 12 : Int64(t.hour % 12),
            "AMPM_OF_DAY": t.hour < 12 ? 0 : 1,
        ]
        let dateFields: [String: Int64] = [
            "DAY_OF_WEEK": Int64(d.isoWeekday), "DAY_OF_MONTH": Int64(d.day), "DAY_OF_YEAR": dayOfYear(d), "EPOCH_DAY": d.daysSinceEpoch,
            "MONTH_OF_YEAR": Int64(d.month), "YEAR": Int64(d.year), "YEAR_OF_ERA": Int64(d.year), "ERA": 1,
            "PROLEPTIC_MONTH": Int64(d.year) * 12 + Int64(d.month - 1), "ALIGNED_WEEK_OF_MONTH": Int64((d.day - 1) / 7 + 1),
            "ALIGNED_WEEK_OF_YEAR": (dayOfYear(d) - 1) / 7 + 1, "ALIGNED_DAY_OF_WEEK_IN_MONTH": Int64((d.day - 1) % 7 + 1),
            "ALIGNED_DAY_OF_WEEK_IN_YEAR": (dayOfYear(d) - 1) % 7 + 1,
        ]
        if hasTime, let v = timeFields[name] { return v }
        if hasDate, let v = dateFields[name] { return v }
        throw DSLFlow.failure("Unsupported field: \(unitText(name))", at, type: "UnsupportedTemporalTypeException")
    }

    /// `temporal.with(field, value)` on a local date-time, as `ChronoField.adjustInto` (a value out of the
    /// field's range is a `DateTimeException`).
    static func with(_ l: LocalDateTime, _ name: String, _ value: Int64, hasDate: Bool, hasTime: Bool, _ at: DSLLocation) throws(DSLFlow) -> LocalDateTime {
        func invalid(_ range: String) -> DSLFlow {
            DSLFlow.failure("Invalid value for \(name) (valid values \(range)): \(value)", at, type: "DateTimeException")
        }
        var out = l
        let ms = l.time.millisecondOfDay
        func setTime(_ newMs: Int64) { out.time = LocalTime(millisecondOfDay: newMs) }
        switch (name, hasTime, hasDate) {
        case ("HOUR_OF_DAY", true, _): guard (0...23).contains(value) else { throw invalid("0 - 23") }; setTime(ms % 3_600_000 + value * 3_600_000)
        case ("MINUTE_OF_HOUR", true, _): guard (0...59).contains(value) else { throw invalid("0 - 59") }; setTime(ms - Int64(l.time.minute) * 60_000 + value * 60_000)
        case ("SECOND_OF_MINUTE", true, _): guard (0...59).contains(value) else { throw invalid("0 - 59") }; setTime(ms - Int64(l.time.second) * 1_000 + value * 1_000)
        case ("MILLI_OF_SECOND", true, _): guard (0...999).contains(value) else { throw invalid("0 - 999") }; setTime(ms - Int64(l.time.millisecond) + value)
        case ("NANO_OF_SECOND", true, _): guard (0...999_999_999).contains(value) else { throw invalid("0 - 999999999") }; setTime(ms - Int64(l.time.millisecond) + value / 1_000_000)
        case ("MINUTE_OF_DAY", true, _): guard (0...1_439).contains(value) else { throw invalid("0 - 1439") }; setTime(ms % 60_000 + value * 60_000)
        case ("SECOND_OF_DAY", true, _): guard (0...86_399).contains(value) else { throw invalid("0 - 86399") }; setTime(ms % 1_000 + value * 1_000)
        case ("MILLI_OF_DAY", true, _): guard (0...86_399_999).contains(value) else { throw invalid("0 - 86399999") }; setTime(value)
        case ("DAY_OF_MONTH", _, true):
            guard (1...31).contains(value), let d = CivilDate(year: l.date.year, month: l.date.month, day: Int(value)) else { throw invalid("1 - 28/31") }
            out.date = d
        case ("DAY_OF_WEEK", _, true):
            guard (1...7).contains(value) else { throw invalid("1 - 7") }
            out.date = l.date.adding(days: Int(value) - l.date.isoWeekday)
        case ("DAY_OF_YEAR", _, true):
            guard (1...366).contains(value), let first = CivilDate(year: l.date.year, month: 1, day: 1) else { throw invalid("1 - 365/366") }
            let d = first.adding(days: Int(value) - 1)
            guard d.year == l.date.year else { throw invalid("1 - 365/366") }
            out.date = d
        case ("MONTH_OF_YEAR", _, true):
            guard (1...12).contains(value) else { throw invalid("1 - 12") }
            out.date = clamped(year: l.date.year, month: Int(value), day: l.date.day)
        case ("YEAR", _, true):
            guard (1...9999).contains(value) else { throw DSLFlow.failure("the year \(value) is outside the years the twin supports (1–9999)", at, type: "DateTimeException") }
            out.date = clamped(year: Int(value), month: l.date.month, day: l.date.day)
        default:
            throw DSLFlow.failure("Unsupported field: \(name) (the twin sets HOUR_OF_DAY, MINUTE_OF_HOUR, SECOND_OF_MINUTE, MILLI_OF_SECOND, NANO_OF_SECOND, MINUTE_OF_DAY, SECOND_OF_DAY, MILLI_OF_DAY, DAY_OF_MONTH, DAY_OF_WEEK, DAY_OF_YEAR, MONTH_OF_YEAR, YEAR)", at, type: "UnsupportedTemporalTypeException")
        }
        return out
    }

    /// The date, or the month's last day when `day` is past it (`withMonth`, `withYear`).
    static func clamped(year: Int, month: Int, day: Int) -> CivilDate {
        CivilDate(year: year, month: month, day: min(day, CivilDate.daysIn(month: month, year: year))) ?? CivilDate(daysSinceEpoch: 0)
    }

    /// `TemporalAdjusters.x(…)`: a constant whose name holds the adjuster and its day (`next 1`).
    static let adjusterStatics: [String: DSLFunction] = {
        var table: [String: DSLFunction] = [:]
        for name in ["firstDayOfMonth", "lastDayOfMonth", "firstDayOfNextMonth", "firstDayOfYear", "lastDayOfYear", "firstDayOfNextYear"] {
            table[name] = { _, _, _ in .constant(type: "TemporalAdjuster", name: name) }
        }
        for name in ["next", "nextOrSame", "previous", "previousOrSame", "firstInMonth", "lastInMonth"] {
            table[name] = { _, a, at in
                guard a.count == 1, case .dayOfWeek(let d) = a[0] else { throw DSLFlow.failure("TemporalAdjusters.\(name) takes a DayOfWeek", at, type: "IllegalArgumentException") }
                return .constant(type: "TemporalAdjuster", name: "\(name) \(d)")
            }
        }
        table["dayOfWeekInMonth"] = { _, a, at in
            guard a.count == 2, case .int(let n) = a[0], case .dayOfWeek(let d) = a[1] else {
                throw DSLFlow.failure("TemporalAdjusters.dayOfWeekInMonth takes an ordinal and a DayOfWeek", at, type: "IllegalArgumentException")
            }
            return .constant(type: "TemporalAdjuster", name: "dayOfWeekInMonth \(d) \(n)")
        }
        return table
    }()

    /// What a `TemporalAdjuster` does to a date (openJDK `TemporalAdjusters`).
    static func adjust(_ date: CivilDate, _ adjuster: String) -> CivilDate {
        let parts = adjuster.split(separator: " ")
        let name = String(parts[0]), day = parts.count > 1 ? Int(parts[1]) ?? 1 : 1
        let first = CivilDate(year: date.year, month: date.month, day: 1) ?? date
        let last = CivilDate(year: date.year, month: date.month, day: CivilDate.daysIn(month: date.month, year: date.year)) ?? date
        let w = date.isoWeekday
        switch name {
        case "firstDayOfMonth": return first
        case "lastDayOfMonth": return last
        case "firstDayOfNextMonth": return last.adding(days: 1)
        case "firstDayOfYear": return CivilDate(year: date.year, month: 1, day: 1) ?? date
        case "lastDayOfYear": return CivilDate(year: date.year, month: 12, day: 31) ?? date
        case "firstDayOfNextYear": return CivilDate(year: date.year + 1, month: 1, day: 1) ?? date
        case "next": return date.adding(days: (day - w + 6) % 7 + 1)
        case "nextOrSame": return date.adding(days: (day - w + 7) % 7)
        case "previous": return date.adding(days: -((w - day + 6) % 7 + 1))
        case "previousOrSame": return date.adding(days: -((w - day + 7) % 7))
        case "firstInMonth": return first.adding(days: (day - first.isoWeekday + 7) % 7)
        case "lastInMonth": return last.adding(days: -((last.isoWeekday - day + 7) % 7))
        case "dayOfWeekInMonth":
            let ordinal = parts.count > 2 ? Int(parts[2]) ?? 1 : 1
            if ordinal >= 0 {
                let firstMatch = first.adding(days: (day - first.isoWeekday + 7) % 7)
                return firstMatch.adding(days: (ordinal - 1) * 7)
            }
            let lastMatch = last.adding(days: -((last.isoWeekday - day + 7) % 7))
            return lastMatch.adding(days: (ordinal + 1) * 7)
        default: return date
        }
    }

    /// `x.with(adjuster)` / `x.with(field, value)` on a local date-time.
    static func withArguments(_ l: LocalDateTime, _ a: [DSLValue], hasDate: Bool, hasTime: Bool, _ at: DSLLocation) throws(DSLFlow) -> LocalDateTime {
        var out = l
        switch (a.count, a.first) {
        case (1, .localTime(let t)?) where hasTime: out.time = t
        case (1, .localDate(let d)?) where hasDate: out.date = d
        case (1, .localDateTime(let x)?) where hasDate && hasTime: out = x
        case (1, .dayOfWeek(let d)?) where hasDate: out.date = l.date.adding(days: d - l.date.isoWeekday)  // DayOfWeek.adjustInto: the same week
        case (1, .constant("Month", let m)?) where hasDate:
            let month = (DSLJava.months.firstIndex(of: m) ?? 0) + 1
            out.date = clamped(year: l.date.year, month: month, day: l.date.day)
        case (1, .constant("TemporalAdjuster", let adjuster)?) where hasDate: out.date = adjust(l.date, adjuster)
        case (2, .constant("ChronoField", let field)?):
            guard let n = a[1].numeric, n.value == n.value.rounded() else { throw DSLFlow.failure("with(field, value) takes a whole value", at, type: "IllegalArgumentException") }
            out = try with(l, field, Int64(saturating: n.value), hasDate: hasDate, hasTime: hasTime, at)
        default:
            throw DSLFlow.failure("with takes a LocalTime, a LocalDate, a DayOfWeek, a Month, a TemporalAdjusters adjuster, or a ChronoField and a value", at, type: "DateTimeException")
        }
        return out
    }

    static let dayOfWeekStatics: [String: DSLFunction] = [
        "of": { _, a, at in
            guard case .int(let n)? = a.first, (1...7).contains(n) else { throw DSLFlow.failure("Invalid value for DayOfWeek: \(a.first?.text ?? "")", at, type: "DateTimeException") }
            return .dayOfWeek(Int(n))
        },
        "valueOf": { _, a, at in
            guard case .string(let s)? = a.first, let k = DSLValue.dayNames.firstIndex(of: s) else {
                throw DSLFlow.failure("No enum constant java.time.DayOfWeek.\(a.first?.text ?? "")", at, type: "IllegalArgumentException")
            }
            return .dayOfWeek(k + 1)
        },
    ]

    /// `Math.random()`: 53 bits of the scenario's random stream (Java draws from a hidden shared `Random`); the
    /// integer division helpers and the trigonometry rules use.
    static let mathStatics: [String: DSLFunction] = [
        "random": { i, _, _ in .number(Double(i.execution.randomBits() >> 11) * 0x1.0p-53) },
        "floorMod": { _, a, at in
            guard a.count == 2, case .int(let x) = a[0], case .int(let y) = a[1] else { throw DSLFlow.failure("Math.floorMod takes two whole numbers", at, type: "IllegalArgumentException") }
            guard y != 0 else { throw DSLFlow.failure("/ by zero", at, type: "ArithmeticException") }
            let r = x % y
            return .int(r != 0 && (r < 0) != (y < 0) ? r + y : r)
        },
        "floorDiv": { _, a, at in
            guard a.count == 2, case .int(let x) = a[0], case .int(let y) = a[1] else { throw DSLFlow.failure("Math.floorDiv takes two whole numbers", at, type: "IllegalArgumentException") }
            guard y != 0 else { throw DSLFlow.failure("/ by zero", at, type: "ArithmeticException") }
            let (q, o) = x.dividedReportingOverflow(by: y)
            if o { return .int(q) }
            return .int(q * y != x && (x < 0) != (y < 0) ? q - 1 : q)
        },
        // Math.toDegrees / toRadians multiply by Java's constants (JDK 17: RADIANS_TO_DEGREES, DEGREES_TO_RADIANS).
        "toDegrees": { _, a, at in .number(try real(a, "toDegrees", at) * 57.29577951308232) },
        "toRadians": { _, a, at in .number(try real(a, "toRadians", at) * 0.017453292519943295) },
        "asin": { _, a, at in .number(Foundation.asin(try real(a, "asin", at))) },
        "acos": { _, a, at in .number(Foundation.acos(try real(a, "acos", at))) },
        "atan": { _, a, at in .number(Foundation.atan(try real(a, "atan", at))) },
        "cbrt": { _, a, at in .number(Foundation.cbrt(try real(a, "cbrt", at))) },
        "atan2": { _, a, at in
            guard a.count == 2, let y = a[0].numeric?.value, let x = a[1].numeric?.value else { throw DSLFlow.failure("Math.atan2 takes y and x", at, type: "IllegalArgumentException") }
            return .number(Foundation.atan2(y, x))
        },
        "hypot": { _, a, at in
            guard a.count == 2, let x = a[0].numeric?.value, let y = a[1].numeric?.value else { throw DSLFlow.failure("Math.hypot takes two numbers", at, type: "IllegalArgumentException") }
            return .number(Foundation.hypot(x, y))
        },
    ]

    private static func real(_ a: [DSLValue], _ name: String, _ at: DSLLocation) throws(DSLFlow) -> Double {
        guard a.count == 1, let n = a[0].numeric else { throw DSLFlow.failure("Math.\(name) takes a number", at, type: "IllegalArgumentException") }
        return n.value
    }

    /// `Integer`/`Long`/`Double` statics beyond parsing: `toString`, `compare`, `max`, `min`, `sum`, and Double's
    /// constants and NaN tests.
    static func boxedStatics(integer: Bool) -> [String: DSLFunction] {
        var table: [String: DSLFunction] = [
            "toString": { i, a, at in
                guard a.count == 1, let first = a.first, first.numeric != nil else { throw DSLFlow.failure("toString takes a number", at, type: "IllegalArgumentException") }
                if integer, case .int = first { return .string(first.text) }
                if !integer, let n = first.numeric { return .string(JavaDecimal.javaDoubleText(n.value)) }
                return .string(i.describe(first))
            },
            "compare": { _, a, at in
                guard a.count == 2 else { throw DSLFlow.failure("compare takes two numbers", at, type: "IllegalArgumentException") }
                return .int(Int64(try DSLOperators.compare(a[0], a[1], at).signum()))
            },
        ]
        for (name, pick) in [("max", 1), ("min", -1)] {
            table[name] = { _, a, at in
                guard a.count == 2, a[0].numeric != nil, a[1].numeric != nil else { throw DSLFlow.failure("\(name) takes two numbers", at, type: "IllegalArgumentException") }
                if integer, case .int(let x) = a[0], case .int(let y) = a[1] { return .int(pick > 0 ? Swift.max(x, y) : Swift.min(x, y)) }
                let x = a[0].numeric?.value ?? 0, y = a[1].numeric?.value ?? 0
                return .number(pick > 0 ? Swift.max(x, y) : Swift.min(x, y))
            }
        }
        table["sum"] = { _, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("sum takes two numbers", at, type: "IllegalArgumentException") }
            if integer, case .int(let x) = a[0], case .int(let y) = a[1] { return .int(x &+ y) }
            guard let x = a[0].numeric?.value, let y = a[1].numeric?.value else { throw DSLFlow.failure("sum takes two numbers", at, type: "IllegalArgumentException") }
            return .number(x + y)
        }
        if !integer {
            let constants: [String: Double] = ["NaN": .nan, "POSITIVE_INFINITY": .infinity, "NEGATIVE_INFINITY": -.infinity,
                                               "MAX_VALUE": .greatestFiniteMagnitude, "MIN_VALUE": .leastNonzeroMagnitude, "MIN_NORMAL": .leastNormalMagnitude]
            for (name, v) in constants { table[name] = { _, _, _ in .number(v) } }
            table["isNaN"] = { _, a, _ in .bool(a.first?.numeric?.value.isNaN == true) }
            table["isInfinite"] = { _, a, _ in .bool(a.first?.numeric?.value.isInfinite == true) }
            table["isFinite"] = { _, a, _ in .bool(a.first?.numeric?.value.isFinite == true) }
        }
        return table
    }

    /// `Double.isNaN()` / `isInfinite()` on a number.
    static let numberMethods: [String: DSLMethodCode] = [
        "isNaN": .init { _, r, _, _ in .bool(r.numeric?.value.isNaN == true) },
        "isInfinite": .init { _, r, _, _ in .bool(r.numeric?.value.isInfinite == true) },
    ]

    // MARK: Duration additions

    private static func ms(_ r: DSLValue) -> Int64 { if case .duration(let d) = r { d.milliseconds } else { 0 } }

    private static func durationPlus(_ sign: Int64, _ unit: Int64) -> DSLMethodCode {
        .init { _, r, a, at in
            guard a.count == 1, case .int(let n) = a[0] else { throw DSLFlow.failure("takes a whole amount", at, type: "IllegalArgumentException") }
            let (v, o1) = n.multipliedReportingOverflow(by: unit &* sign)
            let (sum, o2) = ms(r).addingReportingOverflow(v)
            guard !o1, !o2 else { throw DSLFlow.failure("long overflow", at, type: "ArithmeticException") }
            return .duration(SimDuration(milliseconds: sum))
        }
    }

    /// `Duration`: plus/minus by unit, `minus(Duration)`, `multipliedBy`, `dividedBy`, `negated`, `abs`, and the
    /// parts (`toHoursPart` …) rules print a remaining time with. Java's parts of a negative duration are negative.
    static let durationMethods: [String: DSLMethodCode] = [
        "plusMillis": durationPlus(1, 1), "minusMillis": durationPlus(-1, 1),
        "plusSeconds": durationPlus(1, 1_000), "minusSeconds": durationPlus(-1, 1_000),
        "plusMinutes": durationPlus(1, 60_000), "minusMinutes": durationPlus(-1, 60_000),
        "plusHours": durationPlus(1, 3_600_000), "minusHours": durationPlus(-1, 3_600_000),
        "plusDays": durationPlus(1, 86_400_000), "minusDays": durationPlus(-1, 86_400_000),
        "minus": .init { _, r, a, at in
            guard case .duration(let d)? = a.first else { throw DSLFlow.failure("minus takes a Duration", at, type: "IllegalArgumentException") }
            return .duration(SimDuration(milliseconds: ms(r) &- d.milliseconds))
        },
        "multipliedBy": .init { _, r, a, at in
            guard case .int(let n)? = a.first else { throw DSLFlow.failure("multipliedBy takes a long", at, type: "IllegalArgumentException") }
            let (v, o) = ms(r).multipliedReportingOverflow(by: n)
            guard !o else { throw DSLFlow.failure("long overflow", at, type: "ArithmeticException") }
            return .duration(SimDuration(milliseconds: v))
        },
        "dividedBy": .init { _, r, a, at in
            guard case .int(let n)? = a.first else { throw DSLFlow.failure("dividedBy takes a long", at, type: "IllegalArgumentException") }
            guard n != 0 else { throw DSLFlow.failure("Cannot divide by zero", at, type: "ArithmeticException") }
            return .duration(SimDuration(milliseconds: ms(r) / n))
        },
        "negated": .init { _, r, _, _ in .duration(SimDuration(milliseconds: 0 &- ms(r))) },
        "abs": .init { _, r, _, _ in .duration(SimDuration(milliseconds: Swift.abs(ms(r)))) },
        "toDaysPart": .init { _, r, _, _ in .int(ms(r) / 86_400_000) },
        "toHoursPart": .init { _, r, _, _ in .int(ms(r) / 3_600_000 % 24) },
        "toMinutesPart": .init { _, r, _, _ in .int(ms(r) / 60_000 % 60) },
        "toSecondsPart": .init { _, r, _, _ in .int(ms(r) / 1_000 % 60) },
        "toMillisPart": .init { _, r, _, _ in .int(ms(r) % 1_000) },
    ]



    static let months = ["JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"]

    // MARK: ZonedDateTime additions

    private static func zoned(_ i: DSLInterpreter, _ l: LocalDateTime) -> DSLValue { .instant(i.execution.calendar.resolvedInstant(for: l)) }

    /// Whether `zone` is a zone the twin's ZonedDateTimes can be in: the scenario's (the twin keeps one zone).
    static func checkZone(_ zone: DSLValue?, _ i: DSLInterpreter, _ at: DSLLocation) throws(DSLFlow) {
        guard let zone else { return }
        let id: String
        switch zone {
        case .constant("ZoneId", let name), .constant("ZoneOffset", let name), .string(let name): id = name
        default: throw DSLFlow.failure("atZone takes a ZoneId, not \(zone.kindName)", at, type: "IllegalArgumentException")
        }
        guard id == i.execution.calendar.identifier else {
            throw DSLFlow.failure("the zone \(id) is not the scenario's zone \(i.execution.calendar.identifier): the twin's ZonedDateTimes are all in the scenario's zone; "
                                  + "use ZoneId.systemDefault() (rules.dslUnsupported)", at, type: "UnsupportedOperationException")
        }
    }

    static let instantMethods: [String: DSLMethodCode] = [
        "toLocalDateTime": .init { i, r, _, _ in localDateTime(r, i).map(DSLValue.localDateTime) ?? .null },
        "getMonth": .init { i, r, _, _ in .constant(type: "Month", name: months[(localDateTime(r, i)?.date.month ?? 1) - 1]) },
        "until": .init { i, r, a, at in
            guard a.count == 2, case .constant("ChronoUnit", let unit) = a[1] else { throw DSLFlow.failure("until takes a date-time and a ChronoUnit", at, type: "IllegalArgumentException") }
            return .int(try until(r, a[0], unit, at, i))
        },
        "with": .init { i, r, a, at in
            guard let l = localDateTime(r, i) else { return .null }
            return zoned(i, try withArguments(l, a, hasDate: true, hasTime: true, at))
        },
        "get": .init { i, r, a, at in
            guard case .constant("ChronoField", let f)? = a.first, let l = localDateTime(r, i) else { throw DSLFlow.failure("get takes a ChronoField", at, type: "IllegalArgumentException") }
            if f == "OFFSET_SECONDS", let t = instant(r) { return .int(i.execution.calendar.offset(at: t).milliseconds / 1_000) }
            if f == "INSTANT_SECONDS" { throw DSLFlow.failure("Invalid field InstantSeconds for get() method, use getLong() instead", at, type: "UnsupportedTemporalTypeException") }
            return .int(try field(l, f, hasDate: true, hasTime: true, at))
        },
        "getLong": .init { i, r, a, at in
            guard case .constant("ChronoField", let f)? = a.first, let l = localDateTime(r, i) else { throw DSLFlow.failure("getLong takes a ChronoField", at, type: "IllegalArgumentException") }
            if f == "OFFSET_SECONDS", let t = instant(r) { return .int(i.execution.calendar.offset(at: t).milliseconds / 1_000) }
            if f == "INSTANT_SECONDS", let t = instant(r) { return .int(t.unixSeconds) }
            return .int(try field(l, f, hasDate: true, hasTime: true, at))
        },
        "getOffset": .init { i, r, _, _ in .constant(type: "ZoneOffset", name: offsetId(i.execution.calendar.offset(at: instant(r) ?? .epoch).milliseconds)) },
        "getEpochSecond": .init { _, r, _, _ in .int(instant(r)?.unixSeconds ?? 0) },
        // Instant.atZone / ZonedDateTime in the one zone the twin keeps.
        "atZone": .init { i, r, a, at in try checkZone(a.first, i, at); return .instant(instant(r) ?? .epoch) },
        "withZoneSameLocal": .init { i, r, a, at in try checkZone(a.first, i, at); return .instant(instant(r) ?? .epoch) },
    ]

    /// `ZonedDateTime.of(…)` and `ofInstant(…)` in the scenario's zone (the one zone the twin keeps).
    static let zonedStatics: [String: DSLFunction] = [
        "of": { i, a, at in
            try checkZone(a.last, i, at)
            if a.count == 2, case .localDateTime(let l) = a[0] { return zoned(i, l) }
            if a.count == 3, case .localDate(let d) = a[0], case .localTime(let t) = a[1] { return zoned(i, LocalDateTime(date: d, time: t)) }
            let parts = a.dropLast().compactMap { v -> Int? in if case .int(let n) = v { return Int(clamping: n) }; return nil }
            guard a.count == 8, parts.count == 7, (1...9999).contains(parts[0]), let d = CivilDate(year: parts[0], month: parts[1], day: parts[2]),
                  let t = LocalTime(hour: parts[3], minute: parts[4], second: parts[5]), (0...999_999_999).contains(parts[6]) else {
                throw DSLFlow.failure("ZonedDateTime.of takes a LocalDateTime and a zone, a LocalDate, a LocalTime and a zone, or year, month, day, hour, minute, second, nano and a zone, in range", at, type: "DateTimeException")
            }
            return zoned(i, LocalDateTime(date: d, time: LocalTime(millisecondOfDay: t.millisecondOfDay + Int64(parts[6] / 1_000_000))))
        },
        "ofInstant": { i, a, at in
            guard a.count == 2, let t = instant(a[0]) else { throw DSLFlow.failure("ZonedDateTime.ofInstant takes an Instant and a zone", at, type: "IllegalArgumentException") }
            try checkZone(a[1], i, at)
            return .instant(t)
        },
    ]

    /// `ZoneOffset.getId`: `Z`, or `+HH:MM` (`:SS` when there are seconds).
    static func offsetId(_ ms: Int64) -> String {
        if ms == 0 { return "Z" }
        let total = abs(ms / 1_000), sign = ms < 0 ? "-" : "+"
        let pad = DSLDateFormat.pad
        var s = "\(sign)\(pad(Int(total / 3_600), 2)):\(pad(Int(total / 60 % 60), 2))"
        if total % 60 != 0 { s += ":\(pad(Int(total % 60), 2))" }
        return s
    }

    // MARK: LocalDateTime

    static let localDateTimeStatics: [String: DSLFunction] = [
        "now": { i, _, _ in .localDateTime(i.execution.calendar.localDateTime(at: i.execution.now)) },
        "of": { _, a, at in
            if a.count == 2, case .localDate(let d) = a[0], case .localTime(let t) = a[1] { return .localDateTime(LocalDateTime(date: d, time: t)) }
            let parts = a.compactMap { v -> Int? in if case .int(let n) = v { return Int(clamping: n) }; return nil }
            guard parts.count == a.count, (5...7).contains(parts.count), let d = CivilDate(year: parts[0], month: parts[1], day: parts[2]),
                  (1...9999).contains(parts[0]), var t = LocalTime(hour: parts[3], minute: parts[4], second: parts.count > 5 ? parts[5] : 0) else {
                throw DSLFlow.failure("LocalDateTime.of takes a year, month, day, hour and minute (and second, nano) in range, or a LocalDate and a LocalTime", at, type: "DateTimeException")
            }
            if parts.count == 7 {
                guard (0...999_999_999).contains(parts[6]) else { throw DSLFlow.failure("Invalid value for NanoOfSecond: \(parts[6])", at, type: "DateTimeException") }
                t = LocalTime(millisecondOfDay: t.millisecondOfDay + Int64(parts[6] / 1_000_000))
            }
            return .localDateTime(LocalDateTime(date: d, time: t))
        },
        "parse": { _, a, at in
            guard case .string(let s)? = a.first, a.count == 1, let l = LocalDateTime(iso: s) else {
                throw DSLFlow.failure("Text '\(a.first?.text ?? "")' could not be parsed (LocalDateTime.parse reads 2026-01-09T10:00[:00[.000]])", at, type: "DateTimeParseException")
            }
            return .localDateTime(l)
        },
        "ofInstant": { i, a, at in
            guard let t = a.first.flatMap(instant) else { throw DSLFlow.failure("LocalDateTime.ofInstant takes an Instant and a ZoneId", at, type: "IllegalArgumentException") }
            try checkZone(a.count > 1 ? a[1] : nil, i, at)
            return .localDateTime(i.execution.calendar.localDateTime(at: t))
        },
    ]

    private static func ldt(_ r: DSLValue) -> LocalDateTime {
        if case .localDateTime(let l) = r { return l }
        return LocalDateTime(date: CivilDate(daysSinceEpoch: 0), time: .midnight)
    }

    private static func plusLocal(_ sign: Int64, ms: Int64 = 0, days: Int64 = 0, months: Int64 = 0) -> DSLMethodCode {
        .init { _, r, a, at in
            guard a.count == 1, case .int(let n) = a[0] else { throw DSLFlow.failure("plus/minus takes a whole amount", at, type: "IllegalArgumentException") }
            return .localDateTime(try shift(ldt(r), n &* sign, ms: ms, days: days, months: months, at))
        }
    }

    /// A local date-time moved by `n` units (milliseconds, days or months: the calendar fields, no zone).
    static func shift(_ l: LocalDateTime, _ n: Int64, ms: Int64, days: Int64, months: Int64, _ at: DSLLocation) throws(DSLFlow) -> LocalDateTime {
        let out: LocalDateTime
        if ms != 0 {
            let (v, o1) = n.multipliedReportingOverflow(by: ms)
            let (w, o2) = l.wallMilliseconds.addingReportingOverflow(v)
            guard !o1, !o2 else { throw DSLFlow.failure("the date-time is outside the years the twin supports (1–9999)", at, type: "DateTimeException") }
            out = LocalDateTime(wallMilliseconds: w)
        } else if days != 0 {
            guard abs(n) < 4_000_000 else { throw DSLFlow.failure("the date-time is outside the years the twin supports (1–9999)", at, type: "DateTimeException") }
            out = LocalDateTime(date: l.date.adding(days: Int(n * days)), time: l.time)
        } else {
            guard abs(n) < 130_000 else { throw DSLFlow.failure("the date-time is outside the years the twin supports (1–9999)", at, type: "DateTimeException") }
            let total = Int64(l.date.year) * 12 + Int64(l.date.month - 1) + n * months
            let year = Int(total >= 0 ? total / 12 : (total - 11) / 12), month = Int(((total % 12) + 12) % 12) + 1
            out = LocalDateTime(date: clamped(year: year, month: month, day: l.date.day), time: l.time)
        }
        guard (1...9999).contains(out.date.year) else { throw DSLFlow.failure("the date-time is outside the years the twin supports (1–9999)", at, type: "DateTimeException") }
        return out
    }

    static let localDateTimeMethods: [String: DSLMethodCode] = [
        "getYear": .init { _, r, _, _ in .int(Int64(ldt(r).date.year)) },
        "getMonthValue": .init { _, r, _, _ in .int(Int64(ldt(r).date.month)) },
        "getMonth": .init { _, r, _, _ in .constant(type: "Month", name: months[ldt(r).date.month - 1]) },
        "getDayOfMonth": .init { _, r, _, _ in .int(Int64(ldt(r).date.day)) },
        "getDayOfYear": .init { _, r, _, _ in .int(dayOfYear(ldt(r).date)) },
        "getDayOfWeek": .init { _, r, _, _ in .dayOfWeek(ldt(r).date.isoWeekday) },
        "getHour": .init { _, r, _, _ in .int(Int64(ldt(r).time.hour)) },
        "getMinute": .init { _, r, _, _ in .int(Int64(ldt(r).time.minute)) },
        "getSecond": .init { _, r, _, _ in .int(Int64(ldt(r).time.second)) },
        "getNano": .init { _, r, _, _ in .int(Int64(ldt(r).time.millisecond) * 1_000_000) },
        "toLocalDate": .init { _, r, _, _ in .localDate(ldt(r).date) },
        "toLocalTime": .init { _, r, _, _ in .localTime(ldt(r).time) },
        "atZone": .init { i, r, a, at in try checkZone(a.first, i, at); return zoned(i, ldt(r)) },
        "isBefore": .init { _, r, a, at in
            guard case .localDateTime(let o)? = a.first else { throw DSLFlow.failure("isBefore takes a LocalDateTime", at, type: "ClassCastException") }
            return .bool(ldt(r) < o)
        },
        "isAfter": .init { _, r, a, at in
            guard case .localDateTime(let o)? = a.first else { throw DSLFlow.failure("isAfter takes a LocalDateTime", at, type: "ClassCastException") }
            return .bool(o < ldt(r))
        },
        "isEqual": .init { _, r, a, at in
            guard case .localDateTime(let o)? = a.first else { throw DSLFlow.failure("isEqual takes a LocalDateTime", at, type: "ClassCastException") }
            return .bool(o == ldt(r))
        },
        "plusNanos": .init { _, r, a, at in
            guard case .int(let n)? = a.first else { throw DSLFlow.failure("plusNanos takes a whole amount", at, type: "IllegalArgumentException") }
            return .localDateTime(try shift(ldt(r), n / 1_000_000, ms: 1, days: 0, months: 0, at))
        },
        "plusSeconds": plusLocal(1, ms: 1_000), "minusSeconds": plusLocal(-1, ms: 1_000),
        "plusMinutes": plusLocal(1, ms: 60_000), "minusMinutes": plusLocal(-1, ms: 60_000),
        "plusHours": plusLocal(1, ms: 3_600_000), "minusHours": plusLocal(-1, ms: 3_600_000),
        "plusDays": plusLocal(1, days: 1), "minusDays": plusLocal(-1, days: 1),
        "plusWeeks": plusLocal(1, days: 7), "minusWeeks": plusLocal(-1, days: 7),
        "plusMonths": plusLocal(1, months: 1), "minusMonths": plusLocal(-1, months: 1),
        "plusYears": plusLocal(1, months: 12), "minusYears": plusLocal(-1, months: 12),
        "plus": .init { _, r, a, at in try plusByUnit(ldt(r), 1, a, at) },
        "minus": .init { _, r, a, at in try plusByUnit(ldt(r), -1, a, at) },
        "withHour": .init { _, r, a, at in .localDateTime(try with(ldt(r), "HOUR_OF_DAY", try whole(a, at), hasDate: true, hasTime: true, at)) },
        "withMinute": .init { _, r, a, at in .localDateTime(try with(ldt(r), "MINUTE_OF_HOUR", try whole(a, at), hasDate: true, hasTime: true, at)) },
        "withSecond": .init { _, r, a, at in .localDateTime(try with(ldt(r), "SECOND_OF_MINUTE", try whole(a, at), hasDate: true, hasTime: true, at)) },
        "withNano": .init { _, r, a, at in .localDateTime(try with(ldt(r), "NANO_OF_SECOND", try whole(a, at), hasDate: true, hasTime: true, at)) },
        "withDayOfMonth": .init { _, r, a, at in .localDateTime(try with(ldt(r), "DAY_OF_MONTH", try whole(a, at), hasDate: true, hasTime: true, at)) },
        "withDayOfYear": .init { _, r, a, at in .localDateTime(try with(ldt(r), "DAY_OF_YEAR", try whole(a, at), hasDate: true, hasTime: true, at)) },
        "withMonth": .init { _, r, a, at in .localDateTime(try with(ldt(r), "MONTH_OF_YEAR", try whole(a, at), hasDate: true, hasTime: true, at)) },
        "withYear": .init { _, r, a, at in .localDateTime(try with(ldt(r), "YEAR", try whole(a, at), hasDate: true, hasTime: true, at)) },
        "with": .init { _, r, a, at in .localDateTime(try withArguments(ldt(r), a, hasDate: true, hasTime: true, at)) },
        "get": .init { _, r, a, at in
            guard case .constant("ChronoField", let f)? = a.first else { throw DSLFlow.failure("get takes a ChronoField", at, type: "IllegalArgumentException") }
            return .int(try field(ldt(r), f, hasDate: true, hasTime: true, at))
        },
        "getLong": .init { _, r, a, at in
            guard case .constant("ChronoField", let f)? = a.first else { throw DSLFlow.failure("getLong takes a ChronoField", at, type: "IllegalArgumentException") }
            return .int(try field(ldt(r), f, hasDate: true, hasTime: true, at))
        },
        "until": .init { i, r, a, at in
            guard a.count == 2, case .constant("ChronoUnit", let unit) = a[1] else { throw DSLFlow.failure("until takes a date-time and a ChronoUnit", at, type: "IllegalArgumentException") }
            return .int(try until(r, a[0], unit, at, i))
        },
        "truncatedTo": .init { _, r, a, at in
            guard case .constant("ChronoUnit", let unit)? = a.first else { throw DSLFlow.failure("truncatedTo takes a ChronoUnit", at, type: "IllegalArgumentException") }
            var l = ldt(r)
            if unit == "DAYS" { l.time = .midnight; return .localDateTime(l) }
            guard let per = timeUnitMs[unit] else { throw DSLFlow.failure("Unit is too large to be used for truncation", at, type: "UnsupportedTemporalTypeException") }
            l.time = LocalTime(millisecondOfDay: l.time.millisecondOfDay / per * per)
            return .localDateTime(l)
        },
        "format": .init { i, r, a, at in
            guard case .formatter(let p)? = a.first else { throw DSLFlow.failure("format takes a DateTimeFormatter", at, type: "IllegalArgumentException") }
            return .string(try DSLTime.format(r, pattern: p, at, i))
        },
    ]

    private static func whole(_ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> Int64 {
        guard a.count == 1, case .int(let n) = a[0] else { throw DSLFlow.failure("takes a whole number", at, type: "IllegalArgumentException") }
        return n
    }

    private static func plusByUnit(_ l: LocalDateTime, _ sign: Int64, _ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        if a.count == 1, case .duration(let d) = a[0] { return .localDateTime(try shift(l, d.milliseconds &* sign, ms: 1, days: 0, months: 0, at)) }
        guard a.count == 2, case .int(let n) = a[0], case .constant("ChronoUnit", let unit) = a[1] else {
            throw DSLFlow.failure("plus/minus takes a Duration, or an amount and a ChronoUnit", at, type: "IllegalArgumentException")
        }
        let signed = n &* sign
        if let ms = timeUnitMs[unit] { return .localDateTime(try shift(l, signed, ms: ms, days: 0, months: 0, at)) }
        if unit == "DAYS" || unit == "WEEKS" { return .localDateTime(try shift(l, signed, ms: 0, days: unit == "DAYS" ? 1 : 7, months: 0, at)) }
        if let months = dateUnitMonths[unit] { return .localDateTime(try shift(l, signed, ms: 0, days: 0, months: months, at)) }
        if unit == "NANOS" || unit == "MICROS" { return .localDateTime(try shift(l, signed / (unit == "NANOS" ? 1_000_000 : 1_000), ms: 1, days: 0, months: 0, at)) }
        throw unsupportedUnit(unit, at)
    }

    // MARK: LocalDate and LocalTime additions

    private static func date(_ r: DSLValue) -> CivilDate { if case .localDate(let d) = r { d } else { CivilDate(daysSinceEpoch: 0) } }
    private static func time(_ r: DSLValue) -> LocalTime { if case .localTime(let t) = r { t } else { .midnight } }

    private static func plusDate(_ sign: Int64, days: Int64 = 0, months: Int64 = 0) -> DSLMethodCode {
        .init { _, r, a, at in
            guard a.count == 1, case .int(let n) = a[0] else { throw DSLFlow.failure("plus/minus takes a whole amount", at, type: "IllegalArgumentException") }
            return .localDate(try shift(LocalDateTime(date: date(r), time: .midnight), n &* sign, ms: 0, days: days, months: months, at).date)
        }
    }

    static let localDateMethods: [String: DSLMethodCode] = [
        "atStartOfDay": .init { i, r, a, at in
            let l = LocalDateTime(date: date(r), time: .midnight)
            if a.isEmpty { return .localDateTime(l) }
            try checkZone(a.first, i, at)
            return .instant(i.execution.calendar.startOfDay(l.date))
        },
        "atTime": .init { _, r, a, at in
            if case .localTime(let t)? = a.first, a.count == 1 { return .localDateTime(LocalDateTime(date: date(r), time: t)) }
            let parts = a.compactMap { v -> Int? in if case .int(let n) = v { return Int(clamping: n) }; return nil }
            guard parts.count == a.count, (2...3).contains(parts.count), let t = LocalTime(hour: parts[0], minute: parts[1], second: parts.count > 2 ? parts[2] : 0) else {
                throw DSLFlow.failure("atTime takes a LocalTime, or an hour and a minute (and a second) in range", at, type: "DateTimeException")
            }
            return .localDateTime(LocalDateTime(date: date(r), time: t))
        },
        "getMonth": .init { _, r, _, _ in .constant(type: "Month", name: months[date(r).month - 1]) },
        "getDayOfYear": .init { _, r, _, _ in .int(dayOfYear(date(r))) },
        "lengthOfMonth": .init { _, r, _, _ in .int(Int64(CivilDate.daysIn(month: date(r).month, year: date(r).year))) },
        "lengthOfYear": .init { _, r, _, _ in .int(CivilDate.isLeap(date(r).year) ? 366 : 365) },
        "isLeapYear": .init { _, r, _, _ in .bool(CivilDate.isLeap(date(r).year)) },
        "isEqual": .init { _, r, a, at in
            guard case .localDate(let o)? = a.first else { throw DSLFlow.failure("isEqual takes a LocalDate", at, type: "ClassCastException") }
            return .bool(o == date(r))
        },
        "minusDays": plusDate(-1, days: 1), "plusWeeks": plusDate(1, days: 7), "minusWeeks": plusDate(-1, days: 7),
        "plusMonths": plusDate(1, months: 1), "minusMonths": plusDate(-1, months: 1),
        "plusYears": plusDate(1, months: 12), "minusYears": plusDate(-1, months: 12),
        "toEpochDay": .init { _, r, _, _ in .int(date(r).daysSinceEpoch) },
        "with": .init { _, r, a, at in .localDate(try withArguments(LocalDateTime(date: date(r), time: .midnight), a, hasDate: true, hasTime: false, at).date) },
        "withDayOfMonth": .init { _, r, a, at in .localDate(try with(LocalDateTime(date: date(r), time: .midnight), "DAY_OF_MONTH", try whole(a, at), hasDate: true, hasTime: false, at).date) },
        "withMonth": .init { _, r, a, at in .localDate(try with(LocalDateTime(date: date(r), time: .midnight), "MONTH_OF_YEAR", try whole(a, at), hasDate: true, hasTime: false, at).date) },
        "withYear": .init { _, r, a, at in .localDate(try with(LocalDateTime(date: date(r), time: .midnight), "YEAR", try whole(a, at), hasDate: true, hasTime: false, at).date) },
        "get": .init { _, r, a, at in
            guard case .constant("ChronoField", let f)? = a.first else { throw DSLFlow.failure("get takes a ChronoField", at, type: "IllegalArgumentException") }
            return .int(try field(LocalDateTime(date: date(r), time: .midnight), f, hasDate: true, hasTime: false, at))
        },
        "until": .init { i, r, a, at in
            guard a.count == 2, case .constant("ChronoUnit", let unit) = a[1] else { throw DSLFlow.failure("until takes a date and a ChronoUnit", at, type: "IllegalArgumentException") }
            return .int(try until(r, a[0], unit, at, i))
        },
        "format": .init { i, r, a, at in
            guard case .formatter(let p)? = a.first else { throw DSLFlow.failure("format takes a DateTimeFormatter", at, type: "IllegalArgumentException") }
            return .string(try DSLTime.format(r, pattern: p, at, i))
        },
    ]

    /// `LocalTime.plusX(n)` / `minusX(n)`: around the clock (Java wraps past midnight).
    private static func plusTime(_ sign: Int64, _ unitMs: Int64) -> DSLMethodCode {
        .init { _, r, a, at in
            guard a.count == 1, case .int(let n) = a[0] else { throw DSLFlow.failure("takes a whole amount", at, type: "IllegalArgumentException") }
            let day: Int64 = 86_400_000
            let step = (n % (day / unitMs)) * unitMs * sign
            return .localTime(LocalTime(millisecondOfDay: ((time(r).millisecondOfDay + step) % day + day) % day))
        }
    }

    static let localTimeMethods: [String: DSLMethodCode] = [
        "plusSeconds": plusTime(1, 1_000), "minusSeconds": plusTime(-1, 1_000),
        "minusMinutes": plusTime(-1, 60_000), "minusHours": plusTime(-1, 3_600_000),
        "getNano": .init { _, r, _, _ in .int(Int64(time(r).millisecond) * 1_000_000) },
        "toNanoOfDay": .init { _, r, _, _ in .int(time(r).millisecondOfDay * 1_000_000) },
        "atDate": .init { _, r, a, at in
            guard case .localDate(let d)? = a.first else { throw DSLFlow.failure("atDate takes a LocalDate", at, type: "IllegalArgumentException") }
            return .localDateTime(LocalDateTime(date: d, time: time(r)))
        },
        "with": .init { _, r, a, at in .localTime(try withArguments(LocalDateTime(date: CivilDate(daysSinceEpoch: 0), time: time(r)), a, hasDate: false, hasTime: true, at).time) },
        "withHour": .init { _, r, a, at in .localTime(try with(LocalDateTime(date: CivilDate(daysSinceEpoch: 0), time: time(r)), "HOUR_OF_DAY", try whole(a, at), hasDate: false, hasTime: true, at).time) },
        "withMinute": .init { _, r, a, at in .localTime(try with(LocalDateTime(date: CivilDate(daysSinceEpoch: 0), time: time(r)), "MINUTE_OF_HOUR", try whole(a, at), hasDate: false, hasTime: true, at).time) },
        "withSecond": .init { _, r, a, at in .localTime(try with(LocalDateTime(date: CivilDate(daysSinceEpoch: 0), time: time(r)), "SECOND_OF_MINUTE", try whole(a, at), hasDate: false, hasTime: true, at).time) },
        "get": .init { _, r, a, at in
            guard case .constant("ChronoField", let f)? = a.first else { throw DSLFlow.failure("get takes a ChronoField", at, type: "IllegalArgumentException") }
            return .int(try field(LocalDateTime(date: CivilDate(daysSinceEpoch: 0), time: time(r)), f, hasDate: false, hasTime: true, at))
        },
        "until": .init { i, r, a, at in
            guard a.count == 2, case .constant("ChronoUnit", let unit) = a[1] else { throw DSLFlow.failure("until takes a time and a ChronoUnit", at, type: "IllegalArgumentException") }
            return .int(try until(r, a[0], unit, at, i))
        },
        "isEqual": .init { _, r, a, _ in if case .localTime(let o)? = a.first { return .bool(o == time(r)) }; return .bool(false) },
        "truncatedTo": .init { _, r, a, at in
            guard case .constant("ChronoUnit", let unit)? = a.first else { throw DSLFlow.failure("truncatedTo takes a ChronoUnit", at, type: "IllegalArgumentException") }
            if unit == "DAYS" { return .localTime(.midnight) }
            if unit == "NANOS" || unit == "MICROS" { return r }
            guard let per = timeUnitMs[unit] else { throw DSLFlow.failure("Unit is too large to be used for truncation", at, type: "UnsupportedTemporalTypeException") }
            return .localTime(LocalTime(millisecondOfDay: time(r).millisecondOfDay / per * per))
        },
        "format": .init { i, r, a, at in
            guard case .formatter(let p)? = a.first else { throw DSLFlow.failure("format takes a DateTimeFormatter", at, type: "IllegalArgumentException") }
            return .string(try DSLTime.format(r, pattern: p, at, i))
        },
    ]

    // MARK: Constants (ChronoUnit, Month, ZoneId, ThingStatus)

    static let constantMethods: [String: DSLMethodCode] = [
        "between": .init { i, r, a, at in
            guard case .constant("ChronoUnit", let unit) = r, a.count == 2 else { throw DSLFlow.failure("between is ChronoUnit's: ChronoUnit.MINUTES.between(a, b)", at, type: "NoSuchMethodException") }
            return .int(try until(a[0], a[1], unit, at, i))
        },
        "isDateBased": .init { _, r, _, _ in
            guard case .constant("ChronoUnit", let unit) = r else { return .bool(false) }
            return .bool(["DAYS", "WEEKS", "MONTHS", "YEARS", "DECADES", "CENTURIES", "MILLENNIA", "ERAS"].contains(unit))
        },
        "isTimeBased": .init { _, r, _, _ in
            guard case .constant("ChronoUnit", let unit) = r else { return .bool(false) }
            return .bool(timeUnitMs[unit] != nil || unit == "NANOS" || unit == "MICROS")
        },
        "getDuration": .init { _, r, _, at in
            guard case .constant("ChronoUnit", let unit) = r else { throw DSLFlow.failure("getDuration is ChronoUnit's", at, type: "NoSuchMethodException") }
            if let ms = timeUnitMs[unit] { return .duration(SimDuration(milliseconds: ms)) }
            if unit == "DAYS" || unit == "WEEKS" { return .duration(SimDuration(milliseconds: unit == "DAYS" ? 86_400_000 : 604_800_000)) }
            // Java's estimated durations: a year is 365.2425 days (31556952 s).
            if let months = dateUnitMonths[unit] { return .duration(SimDuration(milliseconds: 31_556_952_000 / 12 * months)) }
            throw DSLFlow.failure("the twin keeps milliseconds: \(unitText(unit)) has no Duration it can hold", at, type: "ArithmeticException")
        },
        "getValue": .init { _, r, _, at in
            guard case .constant("Month", let m) = r, let k = months.firstIndex(of: m) else { throw DSLFlow.failure("getValue is Month's", at, type: "NoSuchMethodException") }
            return .int(Int64(k + 1))
        },
        "ordinal": .init { _, r, _, at in
            switch r {
            case .constant("Month", let m): return .int(Int64(months.firstIndex(of: m) ?? 0))
            case .constant("ChronoUnit", let u): return .int(Int64(chronoUnitNames.firstIndex(of: u) ?? 0))
            case .constant("ThingStatus", let s): return .int(Int64(ThingStatus.allCases.firstIndex { $0.rawValue == s } ?? 0))
            default: throw DSLFlow.failure("ordinal is an enum constant's", at, type: "NoSuchMethodException")
            }
        },
        "getDisplayName": .init { _, r, a, at in
            guard case .constant("Month", let m) = r, let k = months.firstIndex(of: m) else {
                // ZoneId.getDisplayName shares the constants' table: refused at run time with the table's reason.
                throw DSLFlow.failure("\(r.kindName).getDisplayName is not run by the twin: \(DSLJavaSurface.locale) (rules.dslUnsupported)", at, type: "UnsupportedOperationException")
            }
            return try displayName(k, days: false, a, at)
        },
        "plus": .init { _, r, a, at in
            guard case .constant("Month", let m) = r, let k = months.firstIndex(of: m), case .int(let n)? = a.first else { throw DSLFlow.failure("plus is Month's: plus(months)", at, type: "NoSuchMethodException") }
            return .constant(type: "Month", name: months[Int(((Int64(k) + n % 12) % 12 + 12) % 12)])
        },
        "minus": .init { _, r, a, at in
            guard case .constant("Month", let m) = r, let k = months.firstIndex(of: m), case .int(let n)? = a.first else { throw DSLFlow.failure("minus is Month's: minus(months)", at, type: "NoSuchMethodException") }
            return .constant(type: "Month", name: months[Int(((Int64(k) - n % 12) % 12 + 12) % 12)])
        },
        "getId": .init { _, r, _, at in
            guard case .constant(let type, let id) = r, type == "ZoneId" || type == "ZoneOffset" else { throw DSLFlow.failure("getId is ZoneId's", at, type: "NoSuchMethodException") }
            return .string(id)
        },
        "length": .init { _, r, a, at in
            guard case .constant("Month", let m) = r, case .bool(let leap)? = a.first, let k = months.firstIndex(of: m) else { throw DSLFlow.failure("length is Month's: length(leapYear)", at, type: "NoSuchMethodException") }
            return .int(Int64(CivilDate.daysIn(month: k + 1, year: leap ? 2024 : 2023)))
        },
    ]

    static let monthStatics: [String: DSLFunction] = {
        var table: [String: DSLFunction] = [:]
        for m in months { table[m] = { _, _, _ in .constant(type: "Month", name: m) } }
        table["of"] = { _, a, at in
            guard case .int(let n)? = a.first, (1...12).contains(n) else { throw DSLFlow.failure("Invalid value for MonthOfYear: \(a.first?.text ?? "")", at, type: "DateTimeException") }
            return .constant(type: "Month", name: months[Int(n) - 1])
        }
        table["valueOf"] = { _, a, at in
            guard case .string(let s)? = a.first, months.contains(s) else { throw DSLFlow.failure("No enum constant java.time.Month.\(a.first?.text ?? "")", at, type: "IllegalArgumentException") }
            return .constant(type: "Month", name: s)
        }
        return table
    }()

    static let thingStatusStatics: [String: DSLFunction] = Dictionary(uniqueKeysWithValues: ThingStatus.allCases.map { s in
        (s.rawValue, { _, _, _ in DSLValue.constant(type: "ThingStatus", name: s.rawValue) } as DSLFunction)
    })
    static let thingStatusDetailStatics: [String: DSLFunction] = Dictionary(uniqueKeysWithValues: ThingStatusDetail.allCases.map { s in
        (s.rawValue, { _, _, _ in DSLValue.constant(type: "ThingStatusDetail", name: s.rawValue) } as DSLFunction)
    })

    /// openHAB's `ThingStatusInfo`: `getStatus`, `getStatusDetail`, `getDescription` (the property forms too).
    static let thingStatusMethods: [String: DSLMethodCode] = [
        "getStatus": .init { _, r, _, _ in if case .thingStatus(let s) = r { return .constant(type: "ThingStatus", name: s.status.rawValue) }; return .null },
        "getStatusDetail": .init { _, r, _, _ in if case .thingStatus(let s) = r { return .constant(type: "ThingStatusDetail", name: s.statusDetail.rawValue) }; return .null },
        "getDescription": .init { _, r, _, _ in if case .thingStatus(let s) = r, let d = s.description { return .string(d) }; return .null },
    ]

    // MARK: Display names (DayOfWeek, Month)

    static let textStyles = ["FULL", "FULL_STANDALONE", "SHORT", "SHORT_STANDALONE", "NARROW", "NARROW_STANDALONE"]
    static let textStyleStatics: [String: DSLFunction] = Dictionary(uniqueKeysWithValues: textStyles.map { name in
        (name, { _, _, _ in DSLValue.constant(type: "TextStyle", name: name) } as DSLFunction)
    })

    /// The locales whose abbreviated (`SHORT`) names JDK 17 gives as the twin keeps them (checked with jshell; the
    /// UK, Canadian and Canadian French abbreviations differ: `Sept`, `Mon.`, `juill.`).
    private static let shortNameLocales: Set<String> = ["ENGLISH", "US", "GERMAN", "GERMANY", "FRENCH", "FRANCE"]

    /// `DayOfWeek`/`Month.getDisplayName(TextStyle, Locale)`: `index` 0-based; `days` picks the day names.
    static func displayName(_ index: Int, days: Bool, _ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        guard a.count == 2, case .constant("TextStyle", let style) = a[0], case .constant("Locale", let locale) = a[1],
              let names = DSLDateFormat.locales[locale] else {
            throw DSLFlow.failure("getDisplayName takes a TextStyle and a Locale the twin knows (\(DSLDateFormat.locales.keys.sorted().joined(separator: ", ")))", at, type: "IllegalArgumentException")
        }
        let full = days ? names.days : names.months, short = days ? names.shortDays : names.shortMonths
        // Locale.ROOT has no names of its own: JDK 17 gives the English abbreviations for FULL and SHORT alike.
        if locale == "ROOT", style == "FULL" || style == "SHORT" || style == "FULL_STANDALONE" { return .string(short[index]) }
        switch style {
        case "FULL", "FULL_STANDALONE": return .string(full[index])
        case "SHORT" where shortNameLocales.contains(locale): return .string(short[index])
        default:
            throw DSLFlow.failure("getDisplayName(\(style), \(locale)): the twin keeps full names, and abbreviations of \(shortNameLocales.sorted().joined(separator: ", ")) only (rules.dslUnsupported)", at, type: "UnsupportedOperationException")
        }
    }

    static let dayOfWeekMethods: [String: DSLMethodCode] = [
        "getDisplayName": .init { _, r, a, at in
            guard case .dayOfWeek(let d) = r else { return .null }
            return try displayName(d - 1, days: true, a, at)
        },
        "plus": .init { _, r, a, at in
            guard case .dayOfWeek(let d) = r, case .int(let n)? = a.first else { throw DSLFlow.failure("plus takes a number of days", at, type: "IllegalArgumentException") }
            return .dayOfWeek(Int(((Int64(d - 1) + n % 7) % 7 + 7) % 7) + 1)
        },
        "minus": .init { _, r, a, at in
            guard case .dayOfWeek(let d) = r, case .int(let n)? = a.first else { throw DSLFlow.failure("minus takes a number of days", at, type: "IllegalArgumentException") }
            return .dayOfWeek(Int(((Int64(d - 1) - n % 7) % 7 + 7) % 7) + 1)
        },
        "ordinal": .init { _, r, _, _ in if case .dayOfWeek(let d) = r { return .int(Int64(d - 1)) }; return .null },
    ]

    // MARK: Predefined formatters

    /// The predefined `DateTimeFormatter`s (a `.formatter` whose pattern starts with U+0001 and names one).
    static let predefinedFormatters = ["ISO_LOCAL_DATE", "ISO_LOCAL_TIME", "ISO_LOCAL_DATE_TIME", "ISO_OFFSET_DATE_TIME", "ISO_ZONED_DATE_TIME",
                                       "ISO_DATE_TIME", "ISO_DATE", "ISO_TIME", "ISO_OFFSET_DATE", "ISO_OFFSET_TIME", "ISO_INSTANT", "ISO_ORDINAL_DATE",
                                       "ISO_WEEK_DATE", "BASIC_ISO_DATE", "RFC_1123_DATE_TIME"]
    static let predefinedMark = "\u{1}"

    static let formatterStatics: [String: DSLFunction] = Dictionary(uniqueKeysWithValues: predefinedFormatters.map { name in
        (name, { _, _, _ in DSLValue.formatter(predefinedMark + name) } as DSLFunction)
    })

    /// `ISO_LOCAL_TIME`: `HH:mm:ss`, and the fraction without trailing zeros when there is one.
    private static func isoTime(_ t: LocalTime) -> String {
        let pad = DSLDateFormat.pad
        var s = "\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2))"
        if t.millisecond != 0 {
            var f = pad(t.millisecond, 3)
            while f.hasSuffix("0") { f.removeLast() }
            s += "." + f
        }
        return s
    }

    private static func isoDate(_ d: CivilDate) -> String {
        d.year > 9999 ? "+" + d.description : d.description
    }

    /// Formats `value` with the predefined formatter `name`, as JDK 17 does; a formatter that prints an offset
    /// given a value without one is Java's `UnsupportedTemporalTypeException`.
    static func formatPredefined(_ name: String, _ value: DSLValue, _ at: DSLLocation, _ i: DSLInterpreter) throws(DSLFlow) -> String {
        let calendar = i.execution.calendar
        var date: CivilDate?, time: LocalTime?, offset: Int64?, zone: String?
        var utc: SimInstant?
        switch value {
        case .instant, .state(.dateTime):
            let t = instant(value) ?? .epoch
            let l = calendar.localDateTime(at: t)
            (date, time, offset, zone, utc) = (l.date, l.time, calendar.offset(at: t).milliseconds, calendar.identifier, t)
        case .localDateTime(let l): (date, time) = (l.date, l.time)
        case .localDate(let d): date = d
        case .localTime(let t): time = t
        default: throw DSLFlow.failure("cannot format \(value.kindName) as a date-time", at, type: "DateTimeException")
        }
        func need<T>(_ v: T?, _ field: String) throws(DSLFlow) -> T {
            guard let v else { throw DSLFlow.failure("Unsupported field: \(field)", at, type: "UnsupportedTemporalTypeException") }
            return v
        }
        let pad = DSLDateFormat.pad
        switch name {
        case "ISO_LOCAL_DATE": return isoDate(try need(date, "Year"))
        case "ISO_LOCAL_TIME": return isoTime(try need(time, "HourOfDay"))
        case "ISO_LOCAL_DATE_TIME": return isoDate(try need(date, "Year")) + "T" + isoTime(try need(time, "HourOfDay"))
        case "ISO_OFFSET_DATE_TIME":
            return isoDate(try need(date, "Year")) + "T" + isoTime(try need(time, "HourOfDay")) + offsetId(try need(offset, "OffsetSeconds"))
        case "ISO_ZONED_DATE_TIME":
            return isoDate(try need(date, "Year")) + "T" + isoTime(try need(time, "HourOfDay")) + offsetId(try need(offset, "OffsetSeconds"))
                + "[\(try need(zone, "ZoneId"))]"
        case "ISO_DATE_TIME":
            // The offset and the zone are optional sections: printed when the value has them.
            return isoDate(try need(date, "Year")) + "T" + isoTime(try need(time, "HourOfDay")) + (offset.map(offsetId) ?? "") + (zone.map { "[\($0)]" } ?? "")
        case "ISO_DATE": return isoDate(try need(date, "Year")) + (offset.map(offsetId) ?? "")
        case "ISO_TIME": return isoTime(try need(time, "HourOfDay")) + (offset.map(offsetId) ?? "")
        case "ISO_OFFSET_DATE": return isoDate(try need(date, "Year")) + offsetId(try need(offset, "OffsetSeconds"))
        case "ISO_OFFSET_TIME": return isoTime(try need(time, "HourOfDay")) + offsetId(try need(offset, "OffsetSeconds"))
        case "ISO_INSTANT":
            let t = try need(utc, "InstantSeconds")
            let l = LocalCalendar.utc.localDateTime(at: t)
            // ISO_INSTANT prints the fraction in groups of three digits.
            let fraction = l.time.millisecond == 0 ? "" : "." + pad(l.time.millisecond, 3)
            return "\(isoDate(l.date))T\(pad(l.time.hour, 2)):\(pad(l.time.minute, 2)):\(pad(l.time.second, 2))\(fraction)Z"
        case "ISO_ORDINAL_DATE":
            let d = try need(date, "Year")
            return "\(pad(d.year, 4))-\(pad(Int(dayOfYear(d)), 3))" + (offset.map(offsetId) ?? "")
        case "ISO_WEEK_DATE":
            let d = try need(date, "Year")
            let (weekYear, week) = isoWeek(d)
            return "\(pad(weekYear, 4))-W\(pad(week, 2))-\(d.isoWeekday)" + (offset.map(offsetId) ?? "")
        case "BASIC_ISO_DATE":
            let d = try need(date, "Year")
            return "\(pad(d.year, 4))\(pad(d.month, 2))\(pad(d.day, 2))" + (offset.map { $0 == 0 ? "Z" : offsetId($0).replacingOccurrences(of: ":", with: "") } ?? "")
        case "RFC_1123_DATE_TIME":
            let d = try need(date, "DayOfMonth"), t = try need(time, "HourOfDay"), o = try need(offset, "OffsetSeconds")
            let names = DSLDateFormat.english
            let seconds = ":" + pad(t.second, 2)
            return "\(names.shortDays[d.isoWeekday - 1]), \(d.day) \(String(names.months[d.month - 1].prefix(3))) \(pad(d.year, 4)) \(pad(t.hour, 2)):\(pad(t.minute, 2))\(seconds) "
                + (o == 0 ? "GMT" : offsetId(o).replacingOccurrences(of: ":", with: ""))
        default:
            throw DSLFlow.failure("\(name) is not a formatter the twin has", at, type: "IllegalArgumentException")
        }
    }

    /// The ISO week-based year and week of `d` (weeks start on Monday; week 1 holds the year's first Thursday).
    static func isoWeek(_ d: CivilDate) -> (Int, Int) {
        let thursday = d.adding(days: 4 - d.isoWeekday)
        let week = Int((dayOfYear(thursday) - 1) / 7 + 1)
        return (thursday.year, week)
    }

    // MARK: Random, UUID, URL codec

    static let randomMethods: [String: DSLMethodCode] = [
        "nextInt": .init { _, r, a, at in
            guard case .random(let g) = r else { return .null }
            switch a.count {
            case 0: return .int(Int64(g.nextInt()))
            case 1:
                guard case .int(let bound) = a[0], bound > 0, bound <= Int64(Int32.max) else { throw DSLFlow.failure("bound must be positive", at, type: "IllegalArgumentException") }
                return .int(Int64(g.nextInt(bound: Int32(bound))))
            default:
                guard case .int(let origin) = a[0], case .int(let bound) = a[1], origin < bound, let o = Int32(exactly: origin), let b = Int32(exactly: bound) else {
                    throw DSLFlow.failure("bound must be greater than origin", at, type: "IllegalArgumentException")
                }
                return .int(Int64(g.nextInt(origin: o, bound: b)))
            }
        },
        "nextLong": .init { _, r, a, at in
            guard case .random(let g) = r else { return .null }
            guard a.isEmpty else { throw DSLFlow.failure("the twin runs nextLong() without bounds (Java 17's bounded nextLong is RandomSupport's)", at, type: "UnsupportedOperationException") }
            return .int(g.nextLong())
        },
        "nextDouble": .init { _, r, a, at in
            guard case .random(let g) = r else { return .null }
            guard a.isEmpty else { throw DSLFlow.failure("the twin runs nextDouble() without bounds", at, type: "UnsupportedOperationException") }
            return .number(g.nextDouble())
        },
        "nextBoolean": .init { _, r, _, _ in if case .random(let g) = r { return .bool(g.nextBoolean()) }; return .null },
        "setSeed": .init { _, r, a, at in
            guard case .random(let g) = r, case .int(let seed)? = a.first else { throw DSLFlow.failure("setSeed takes a long", at, type: "IllegalArgumentException") }
            g.setSeed(seed)
            return .null
        },
    ]

    static func newRandom(_ i: DSLInterpreter, _ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        if let first = a.first {
            guard case .int(let seed) = first else { throw DSLFlow.failure("new Random takes a long seed", at, type: "IllegalArgumentException") }
            return .random(DSLRandom(seed: seed))
        }
        // `new Random()`: Java seeds from the clock; the twin from the scenario's seed (the same run, the same numbers).
        return .random(DSLRandom(seed: Int64(bitPattern: i.execution.randomBits())))
    }

    /// `UUID.randomUUID()`: a version 4 UUID from the scenario's random stream.
    static func randomUUID(_ i: DSLInterpreter) -> DSLValue {
        var hi = i.execution.randomBits(), lo = i.execution.randomBits()
        hi = (hi & ~0xF000) | 0x4000                       // version 4
        lo = (lo & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // IETF variant
        return .constant(type: "UUID", name: uuidText(hi, lo))
    }

    static func uuidText(_ hi: UInt64, _ lo: UInt64) -> String {
        func hex(_ v: UInt64, _ digits: Int) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: max(0, digits - s.count)) + s
        }
        return "\(hex(hi >> 32, 8))-\(hex((hi >> 16) & 0xFFFF, 4))-\(hex(hi & 0xFFFF, 4))-\(hex(lo >> 48, 4))-\(hex(lo & 0xFFFF_FFFF_FFFF, 12))"
    }

    static let uuidStatics: [String: DSLFunction] = [
        "randomUUID": { i, _, _ in randomUUID(i) },
        "fromString": { _, a, at in
            guard case .string(let s)? = a.first else { throw DSLFlow.failure("UUID.fromString takes a text", at, type: "IllegalArgumentException") }
            let parts = s.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 5, s.count <= 36, parts.allSatisfy({ !$0.isEmpty && $0.count <= 16 && $0.allSatisfy(\.isHexDigit) }),
                  let p0 = UInt64(parts[0], radix: 16), let p1 = UInt64(parts[1], radix: 16), let p2 = UInt64(parts[2], radix: 16),
                  let p3 = UInt64(parts[3], radix: 16), let p4 = UInt64(parts[4], radix: 16) else {
                throw DSLFlow.failure("Invalid UUID string: \(s)", at, type: "IllegalArgumentException")
            }
            let hi = (p0 & 0xFFFF_FFFF) << 32 | (p1 & 0xFFFF) << 16 | (p2 & 0xFFFF), lo = (p3 & 0xFFFF) << 48 | (p4 & 0xFFFF_FFFF_FFFF)
            return .constant(type: "UUID", name: uuidText(hi, lo))
        },
    ]

    /// The charset argument of `URLEncoder.encode(s, charset)`: the twin encodes UTF-8 only.
    private static func checkCharset(_ a: [DSLValue], _ name: String, _ at: DSLLocation) throws(DSLFlow) {
        guard a.count >= 2 else { return }
        let charset: String
        switch a[1] {
        case .string(let s): charset = s
        case .constant("Charset", let s): charset = s
        default: throw DSLFlow.failure("\(name) takes a text and a charset", at, type: "IllegalArgumentException")
        }
        guard ["UTF-8", "UTF8", "utf-8", "utf8"].contains(charset) else {
            throw DSLFlow.failure("\(name) with the charset \(charset): the twin encodes UTF-8 only (rules.dslUnsupported)", at, type: "UnsupportedEncodingException")
        }
    }

    /// `URLEncoder.encode`: letters, digits and `.-*_` stay, a space is `+`, every other byte of the UTF-8 is `%XX`.
    static func urlEncode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            case UInt8(ascii: " "): out += "+"
            default:
                let hex = String(b, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// `URLDecoder.decode`: `+` is a space, `%XX` runs are bytes of UTF-8 (malformed ones U+FFFD); a bad escape is
    /// Java's `IllegalArgumentException`.
    static func urlDecode(_ s: String, _ at: DSLLocation) throws(DSLFlow) -> String {
        var out = "", bytes: [UInt8] = []
        let scalars = Array(s.unicodeScalars)
        var k = 0
        func flush() { if !bytes.isEmpty { out += String(decoding: bytes, as: UTF8.self); bytes = [] } }
        while k < scalars.count {
            let c = scalars[k]
            if c == "%" {
                guard k + 2 < scalars.count else {
                    throw DSLFlow.failure("URLDecoder: Incomplete trailing escape (%) pattern", at, type: "IllegalArgumentException")
                }
                let pair = String(String.UnicodeScalarView(scalars[(k + 1)...(k + 2)]))
                guard let v = UInt8(pair, radix: 16), pair.allSatisfy(\.isHexDigit) else {
                    throw DSLFlow.failure("URLDecoder: Illegal hex characters in escape (%) pattern - Error at index 0 in: \"\(pair)\"", at, type: "IllegalArgumentException")
                }
                bytes.append(v)
                k += 3
                continue
            }
            flush()
            out.unicodeScalars.append(c == "+" ? " " : c)
            k += 1
        }
        flush()
        return out
    }

    static let urlEncoderStatics: [String: DSLFunction] = ["encode": { i, a, at in
        guard let first = a.first, a.count <= 2 else { throw DSLFlow.failure("URLEncoder.encode takes a text and a charset", at, type: "IllegalArgumentException") }
        try checkCharset(a, "URLEncoder.encode", at)
        if case .null = first { throw DSLFlow.failure("URLEncoder.encode of null", at, type: "NullPointerException") }
        return .string(urlEncode(i.describe(first)))
    }]

    static let urlDecoderStatics: [String: DSLFunction] = ["decode": { i, a, at in
        guard let first = a.first, a.count <= 2 else { throw DSLFlow.failure("URLDecoder.decode takes a text and a charset", at, type: "IllegalArgumentException") }
        try checkCharset(a, "URLDecoder.decode", at)
        if case .null = first { throw DSLFlow.failure("URLDecoder.decode of null", at, type: "NullPointerException") }
        return .string(try urlDecode(i.describe(first), at))
    }]

    static let charsetStatics: [String: DSLFunction] = ["UTF_8": { _, _, _ in .constant(type: "Charset", name: "UTF-8") }]

    // MARK: Boxed numbers

    /// `Double.parseDouble` / `new Double(String)`: Java trims blanks and takes a `d`/`f` suffix, `NaN`, `Infinity`.
    static func parseDouble(_ s: String, _ at: DSLLocation) throws(DSLFlow) -> Double {
        var t = s.trimmingCharacters(in: CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(32)))
        if let last = t.last, "dDfF".contains(last), t.count > 1, t.dropLast().last.map({ $0.isNumber || $0 == "." }) == true { t.removeLast() }
        let body = t.hasPrefix("+") || t.hasPrefix("-") ? String(t.dropFirst()) : t
        let negative = t.hasPrefix("-")
        if body == "NaN" { return .nan }
        if body == "Infinity" { return negative ? -.infinity : .infinity }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }), let d = Double(t) else {
            throw DSLFlow.failure(t.isEmpty ? "empty String" : "For input string: \"\(s)\"", at, type: "NumberFormatException")
        }
        return d
    }

    static let boxedConstructors: [String: DSLFunction] = [
        "Double": { _, a, at in
            guard a.count == 1 else { throw DSLFlow.failure("new Double takes a number or a text", at, type: "IllegalArgumentException") }
            if case .string(let s) = a[0] { return .number(try parseDouble(s, at)) }
            guard let n = a[0].numeric else { throw DSLFlow.failure("new Double takes a number or a text, not \(a[0].kindName)", at, type: "IllegalArgumentException") }
            return .number(n.value)
        },
        "Integer": { _, a, at in try boxedInteger(a, at, min: Int64(Int32.min), max: Int64(Int32.max)) },
        "Long": { _, a, at in try boxedInteger(a, at, min: Int64.min, max: Int64.max) },
        "Boolean": { _, a, _ in
            if case .bool(let b)? = a.first { return .bool(b) }
            return .bool(a.first.map { $0.text.lowercased() == "true" } ?? false)
        },
        "String": { i, a, _ in .string(a.first.map(i.describe) ?? "") },
        "Random": { i, a, at in try newRandom(i, a, at) },
    ]

    private static func boxedInteger(_ a: [DSLValue], _ at: DSLLocation, min: Int64, max: Int64) throws(DSLFlow) -> DSLValue {
        guard a.count == 1 else { throw DSLFlow.failure("takes a whole number or a text", at, type: "IllegalArgumentException") }
        switch a[0] {
        case .string(let s):
            guard let n = Int64(s), n >= min, n <= max else { throw DSLFlow.failure("For input string: \"\(s)\"", at, type: "NumberFormatException") }
            return .int(n)
        case .int(let n):
            guard n >= min, n <= max else { throw DSLFlow.failure("\(n) is out of range", at, type: "IllegalArgumentException") }
            return .int(n)
        default:
            throw DSLFlow.failure("takes a whole number or a text, not \(a[0].kindName) (Java would not compile it)", at, type: "IllegalArgumentException")
        }
    }

    // MARK: Strings

    static let stringMethods: [String: DSLMethodCode] = [
        "contentEquals": .init { i, r, a, at in
            guard a.count == 1 else { throw DSLFlow.failure("contentEquals takes a CharSequence", at, type: "IllegalArgumentException") }
            if case .null = a[0] { throw DSLFlow.failure("contentEquals(null)", at, type: "NullPointerException") }
            return .bool(r.text == i.describe(a[0]))
        },
        "compareToIgnoreCase": .init { _, r, a, at in
            guard case .string(let o)? = a.first else { throw DSLFlow.failure("compareToIgnoreCase takes a String", at, type: "IllegalArgumentException") }
            // String.CASE_INSENSITIVE_ORDER: char by char, upper then lower case, the difference of the first that differs.
            let x = Array(r.text.utf16), y = Array(o.utf16)
            for k in 0..<min(x.count, y.count) {
                let c1 = foldCase(x[k]), c2 = foldCase(y[k])
                if c1 != c2 { return .int(Int64(c1) - Int64(c2)) }
            }
            return .int(Int64(x.count - y.count))
        },
        "stripLeading": .init { _, r, _, _ in .string(String(r.text.drop { $0.isWhitespace })) },
        "stripTrailing": .init { _, r, _, _ in .string(String(r.text.reversed().drop { $0.isWhitespace }.reversed())) },
        "formatted": .init { i, r, a, at in try DSLText.format([r] + a, at, i) },
    ]

    private static func foldCase(_ u: UInt16) -> UInt16 {
        guard let scalar = Unicode.Scalar(u) else { return u }
        let upper = String(scalar).uppercased().utf16
        let c = upper.count == 1 ? upper.first ?? u : u
        guard let s2 = Unicode.Scalar(c) else { return c }
        let lower = String(s2).lowercased().utf16
        return lower.count == 1 ? lower.first ?? c : c
    }

    // MARK: Collections

    private static func values(_ v: DSLValue) -> [DSLValue] { if case .list(let l) = v { l.values } else { [] } }

    /// `List.lastIndexOf`, `containsAll`, `retainAll` (as `java.util.AbstractCollection`).
    static let listMethods: [String: DSLMethodCode] = [
        "lastIndexOf": .init { _, r, a, _ in .int(Int64(values(r).lastIndex { DSLOperators.equal($0, a.first ?? .null) } ?? -1)) },
        "containsAll": .init { _, r, a, at in
            guard case .list(let other)? = a.first else { throw DSLFlow.failure("containsAll takes a collection", at, type: "NullPointerException") }
            let mine = values(r)
            return .bool(other.values.allSatisfy { x in mine.contains { DSLOperators.equal($0, x) } })
        },
        "retainAll": .init { _, r, a, at in
            guard case .list(let l) = r, case .list(let other)? = a.first else { throw DSLFlow.failure("retainAll takes a collection", at, type: "NullPointerException") }
            let keep = other.values
            return .bool(try l.update { (v: inout [DSLValue]) throws(DSLFlow) -> Bool in
                let before = v.count
                v.removeAll { x in !keep.contains { DSLOperators.equal($0, x) } }
                return v.count != before
            })
        },
    ]

    /// `Map.putIfAbsent`, `putAll`, `replace(key, value)` (as `java.util.HashMap`; a key mapped to null counts as absent
    /// for `putIfAbsent`).
    static let mapMethods: [String: DSLMethodCode] = [
        "putIfAbsent": .init { _, r, a, at in
            guard case .map(let m) = r, a.count == 2 else { throw DSLFlow.failure("putIfAbsent takes a key and a value", at, type: "IllegalArgumentException") }
            let old = m.entries.first { DSLOperators.equal($0.key, a[0]) }?.value ?? .null
            if case .null = old { try DSLLibrary.put(m, a[0], a[1], at) }
            return old
        },
        "putAll": .init { _, r, a, at in
            guard case .map(let m) = r, case .map(let other)? = a.first else { throw DSLFlow.failure("putAll takes a map", at, type: "NullPointerException") }
            for e in other.entries { try DSLLibrary.put(m, e.key, e.value, at) }
            return .null
        },
        "replace": .init { _, r, a, at in
            guard case .map(let m) = r, a.count == 2 else { throw DSLFlow.failure("the twin runs replace(key, value)", at, type: "IllegalArgumentException") }
            guard let old = m.entries.first(where: { DSLOperators.equal($0.key, a[0]) })?.value else { return .null }
            try DSLLibrary.put(m, a[0], a[1], at)
            return old
        },
    ]

    // MARK: openHAB: storeStates, restoreStates, group members

    /// `storeStates(items…)`: a map of each Item to its state; a Group gives its members' (all of them, below it),
    /// as openHAB's `BusEventImpl.storeStates`.
    static func storeStates(_ i: DSLInterpreter, _ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        let map = DSLMap()
        for v in a {
            guard case .item(let name) = v, let type = i.execution.itemType(checked: name) else { throw DSLFlow.failure("storeStates takes Items, not \(v.kindName)", at, type: "IllegalArgumentException") }
            let members = type == .groupItem ? DSLItems.members(name, all: true, i) : [v]
            for m in members {
                guard case .item(let n) = m, let state = i.execution.itemState(checked: n) else { continue }
                try DSLLibrary.put(map, m, .state(state), at)
            }
        }
        return .map(map)
    }

    /// `restoreStates(map)`: each state back to its Item — as a command when the state is a `Command` (everything
    /// but `NULL`, `UNDEF` and `OPEN`/`CLOSED`), else as an update (openHAB's `BusEventImpl.restoreStates`).
    static func restoreStates(_ i: DSLInterpreter, _ a: [DSLValue], _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        guard a.count == 1 else { throw DSLFlow.failure("restoreStates takes the map storeStates gave", at, type: "IllegalArgumentException") }
        guard case .map(let map) = a[0] else {
            if case .null = a[0] { return .null }
            throw DSLFlow.failure("restoreStates takes the map storeStates gave, not \(a[0].kindName)", at, type: "ClassCastException")
        }
        for entry in map.entries {
            let name = try DSLLibrary.itemName(entry.key, "restoreStates", at, i)
            let isCommand: Bool
            switch entry.value {
            case .state(.null), .state(.undef), .state(.openClosed): isCommand = false
            default: isCommand = true
            }
            try await DSLLibrary.send(isCommand ? "sendCommand" : "postUpdate", to: name, entry.value, at, i)
        }
        return .null
    }

    /// `GroupItem.addMember(item)` / `removeMember(item)`: the Item joins or leaves the Group (the twin keeps
    /// membership in the member's group names, so `members`, triggers `Member of` and the Group's state follow).
    static let groupMethods: [String: DSLSuspendingMethod] = [
        "addMember": { i, r, a, at in try await membership(i, r, a, at, add: true) },
        "removeMember": { i, r, a, at in try await membership(i, r, a, at, add: false) },
    ]

    private static func membership(_ i: DSLInterpreter, _ r: DSLValue, _ a: [DSLValue], _ at: DSLLocation, add: Bool) async throws(DSLFlow) -> DSLValue {
        let name = add ? "addMember" : "removeMember"
        guard case .item(let groupName) = r, i.execution.itemType(checked: groupName) == .groupItem else {
            throw DSLFlow.failure("\(name) is a GroupItem's; \(r.text) is not a Group", at, type: "NoSuchMethodException")
        }
        guard a.count == 1, case .item(let member) = a[0], var item = i.execution.item(checked: member) else {
            throw DSLFlow.failure("\(name) takes an Item", at, type: "IllegalArgumentException")
        }
        let group = groupName.rawValue
        if add {
            guard member != groupName else { throw DSLFlow.failure("a Group cannot be a member of itself", at, type: "IllegalArgumentException") }
            guard !item.groupNames.contains(group) else { return .null }
            item.groupNames.append(group)
        } else {
            guard item.groupNames.contains(group) else { return .null }
            item.groupNames.removeAll { $0 == group }
        }
        await i.execution.engine.runtime.putItem(item)
        return .null
    }
}
