import Simulation

/// `java.util.Formatter`'s date/time conversions, `%tX` and `%TX` (upper case), as `String::format` applies
/// them to a `ZonedDateTime` (`now`), a `LocalDate`, a `LocalTime` or epoch milliseconds (a `long`), with
/// the day and month names of a `java.util.Locale` (`String.format(Locale.GERMAN, "%ta %1$td.%1$tm", d)`).
///
/// Names are those of the JDK's CLDR data (the default provider since Java 9, which openHAB 3 and 4 run on):
/// German short day names carry a period (`Mo.`), as a JDK 17 prints them. A conversion that needs a field the
/// value has not (an hour of a `LocalDate`) fails as Java's `UnsupportedTemporalTypeException` does.
enum DSLDateFormat {
    /// Day and month names of one locale (CLDR, format context), and the number symbols `Formatter` takes
    /// from its `DecimalFormatSymbols`.
    struct Names: Sendable {
        let days: [String]        // Monday first
        let shortDays: [String]
        let months: [String]
        let shortMonths: [String]
        var decimalSeparator: Character = "."
        var groupingSeparator: Character = ","

        /// A number formatted with `.` and `,` (`1,234.5`), written with this locale's symbols.
        func localized(_ number: String) -> String {
            guard decimalSeparator != "." || groupingSeparator != "," else { return number }
            return String(number.map { $0 == "." ? decimalSeparator : $0 == "," ? groupingSeparator : $0 })
        }
    }

    static let english = Names(
        days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
        shortDays: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
        months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
        shortMonths: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])

    static let german = Names(
        days: ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"],
        shortDays: ["Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa.", "So."],
        months: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
        shortMonths: ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."],
        decimalSeparator: ",", groupingSeparator: ".")

    static let french = Names(
        days: ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"],
        shortDays: ["lun.", "mar.", "mer.", "jeu.", "ven.", "sam.", "dim."],
        months: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
        shortMonths: ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."],
        decimalSeparator: ",", groupingSeparator: "\u{202F}")  // CLDR's narrow no-break space

    /// `java.util.Locale`'s constants the twin knows, with their names. The twin's default locale (a
    /// `String.format` without one) is English, as on an openHAB host set to `en`.
    static let locales: [String: Names] = [
        "ENGLISH": english, "US": english, "UK": english, "CANADA": english, "ROOT": english,
        "GERMAN": german, "GERMANY": german,
        "FRENCH": french, "FRANCE": french, "CANADA_FRENCH": french,
    ]

    /// `n` with zeros in front up to `width` digits.
    static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// The text of `%t<conversion>` (or `%T…` when `upper`) for `value`.
    static func text(_ conversion: Character, upper: Bool, _ value: DSLValue, names: Names, _ at: DSLLocation,
                     _ i: DSLInterpreter?) throws(DSLFlow) -> String {
        let fields = try Fields(value, at, i)
        let text = try fields.text(conversion, names: names, at)
        return upper ? text.uppercased() : text
    }

    /// The parts of a date-time a conversion may ask for; `nil` where the value has none.
    private struct Fields {
        var date: CivilDate?
        var time: LocalTime?
        var offset: SimDuration?
        var epochMilliseconds: Int64?

        init(_ value: DSLValue, _ at: DSLLocation, _ i: DSLInterpreter?) throws(DSLFlow) {
            switch value {
            case .instant(let t):
                guard let calendar = i?.execution.calendar else { throw DSLFlow.failure("a date-time needs the scenario's calendar", at, type: "DateTimeException") }
                let local = calendar.localDateTime(at: t)
                (date, time, offset, epochMilliseconds) = (local.date, local.time, calendar.offset(at: t), t.unixMilliseconds)
            case .localDate(let d): date = d
            case .localTime(let t): time = t
            case .int(let ms):
                // A long is epoch milliseconds, in the default zone: the scenario's.
                guard let calendar = i?.execution.calendar else { throw DSLFlow.failure("a date-time needs the scenario's calendar", at, type: "DateTimeException") }
                let t = SimInstant(unixMilliseconds: ms)
                let local = calendar.localDateTime(at: t)
                (date, time, offset, epochMilliseconds) = (local.date, local.time, calendar.offset(at: t), ms)
            default:
                // Java: IllegalFormatConversionException "t != org.openhab.core.library.types.DateTimeType" — a
                // DateTimeType is not a TemporalAccessor; its getZonedDateTime is.
                throw DSLFlow.failure("%t can't format \(value.kindName); format a ZonedDateTime, e.g. (Item.state as DateTimeType).getZonedDateTime",
                                      at, type: "IllegalFormatConversionException")
            }
        }

        private func needDate(_ c: Character, _ at: DSLLocation) throws(DSLFlow) -> CivilDate {
            guard let date else { throw DSLFlow.failure("%t\(c) needs a date; this value has only a time", at, type: "UnsupportedTemporalTypeException") }
            return date
        }

        private func needTime(_ c: Character, _ at: DSLLocation) throws(DSLFlow) -> LocalTime {
            guard let time else { throw DSLFlow.failure("%t\(c) needs a time of day; this value has only a date", at, type: "UnsupportedTemporalTypeException") }
            return time
        }

        func text(_ c: Character, names: Names, _ at: DSLLocation) throws(DSLFlow) -> String {
            let pad = DSLDateFormat.pad
            switch c {
            case "H": return pad(try needTime(c, at).hour, 2)
            case "I": let h = try needTime(c, at).hour % 12; return pad(h == 0 ? 12 : h, 2)
            case "k": return String(try needTime(c, at).hour)
            case "l": let h = try needTime(c, at).hour % 12; return String(h == 0 ? 12 : h)
            case "M": return pad(try needTime(c, at).minute, 2)
            case "S": return pad(try needTime(c, at).second, 2)
            case "L": return pad(try needTime(c, at).millisecond, 3)
            case "N": return pad(try needTime(c, at).millisecond, 3) + "000000"
            case "p": return try needTime(c, at).hour < 12 ? "am" : "pm"
            case "z":
                guard let offset else { throw DSLFlow.failure("%tz needs a zone; this value has none", at, type: "UnsupportedTemporalTypeException") }
                let minutes = Int(offset.milliseconds / 60_000)
                return (minutes < 0 ? "-" : "+") + pad(abs(minutes) / 60, 2) + pad(abs(minutes) % 60, 2)
            case "s", "Q":
                guard let epochMilliseconds else { throw DSLFlow.failure("%t\(c) needs an instant; this value has none", at, type: "UnsupportedTemporalTypeException") }
                let seconds = epochMilliseconds >= 0 ? epochMilliseconds / 1000 : (epochMilliseconds - 999) / 1000
                return String(c == "s" ? seconds : epochMilliseconds)
            case "B": return names.months[try needDate(c, at).month - 1]
            case "b", "h": return names.shortMonths[try needDate(c, at).month - 1]
            case "A": return names.days[try needDate(c, at).isoWeekday - 1]
            case "a": return names.shortDays[try needDate(c, at).isoWeekday - 1]
            case "C": return pad(try needDate(c, at).year / 100, 2)
            case "Y": return pad(try needDate(c, at).year, 4)
            case "y": return pad(try needDate(c, at).year % 100, 2)
            case "j":
                let d = try needDate(c, at)
                let first = CivilDate(year: d.year, month: 1, day: 1)?.daysSinceEpoch ?? d.daysSinceEpoch
                return pad(Int(d.daysSinceEpoch - first) + 1, 3)
            case "m": return pad(try needDate(c, at).month, 2)
            case "d": return pad(try needDate(c, at).day, 2)
            case "e": return String(try needDate(c, at).day)
            case "R": return try text("H", names: names, at) + ":" + text("M", names: names, at)
            case "T": return try text("H", names: names, at) + ":" + text("M", names: names, at) + ":" + text("S", names: names, at)
            case "r": return try text("I", names: names, at) + ":" + text("M", names: names, at) + ":" + text("S", names: names, at) + " " + text("p", names: names, at).uppercased()
            case "D": return try text("m", names: names, at) + "/" + text("d", names: names, at) + "/" + text("y", names: names, at)
            case "F": return try text("Y", names: names, at) + "-" + text("m", names: names, at) + "-" + text("d", names: names, at)
            default:
                // %tZ and %tc print a zone's short name, which the twin's calendar does not carry.
                throw DSLFlow.failure("%t\(c) is not a date/time conversion the twin prints (it prints H I k l M S L N p z s Q B b h A a C Y y j m d e R T r D F)",
                                      at, type: "UnknownFormatConversionException")
            }
        }
    }
}
