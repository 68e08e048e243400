/// Reads and writes iCalendar (RFC 5545) text: the subset booking platforms use for reservation
/// calendars (Airbnb, Booking.com, VRBO exports) — `VCALENDAR` with `VEVENT`s.
///
/// Reading: lines end in CRLF or LF; a line starting with a space or tab continues the previous
/// one (folding, §3.1); property parameters (`;TZID=Europe/Budapest`, `;VALUE=DATE`) are read,
/// `TEXT` values unescaped (`\\n`, `\\,`, `\\;`, `\\\\`, §3.3.11). Other components (`VTIMEZONE`,
/// `VALARM`) and unknown properties are skipped; `RRULE`/`EXDATE` are expanded (``occurrences(of:_:exdates:name:)``),
/// `RDATE` and `RECURRENCE-ID` refused; a `TZID` must name a `VTIMEZONE` of the file or a known zone;
/// `VEVENT`s do not nest; stays lie in ``years`` and last at most ``maxStayNights``. Writing: CRLF line ends, lines folded at 75
/// octets without splitting a UTF-8 character, text escaped — what ``parse(_:name:)`` reads back.
public enum ICalendarText {
    /// The events of `text`, in file order.
    /// - Parameter name: the file's name for messages.
    /// - Throws: ``SimulationError`` `calendar.invalid` naming the (unfolded) line: no `BEGIN:VCALENDAR`,
    ///   an unterminated or unbalanced component, a line without `:`, an event without `UID` or
    ///   `DTSTART`, or a date or time that does not parse.
    public static func parse(_ text: String, name: String) throws(SimulationError) -> [ICalendarEvent] {
        let lines = unfold(text)
        guard let first = lines.first(where: { !$0.text.isEmpty }), first.text.uppercased() == "BEGIN:VCALENDAR" else {
            throw problem(name, line: 1, "does not start with BEGIN:VCALENDAR, so it is not an iCalendar file.")
        }
        var events: [ICalendarEvent] = []
        var stack: [String] = []
        var current: Properties?
        /// `EXDATE` may come many times in one event; the other properties once (the first is read).
        var exdates: [Property] = []
        /// `TZID`s the file defines in `VTIMEZONE`s, and every `TZID` an event uses with its line.
        var definedZones: Set<String> = []
        var usedZones: [(zone: String, line: Int)] = []
        for (number, text) in lines where !text.isEmpty {
            guard let colon = colonIndex(text) else {
                throw problem(name, line: number, "\(UserText.quoted(String(text), limit: 60)) has no \":\"; a content line is NAME[;PARAM=…]:VALUE.")
            }
            let head = text[..<colon], value = String(text[text.index(after: colon)...])
            let parts = head.split(separator: ";", omittingEmptySubsequences: false)
            let property = parts[0].uppercased()
            switch property {
            case "BEGIN":
                let component = value.uppercased()
                if component == "VEVENT", stack.contains("VEVENT") {
                    throw problem(name, line: number, "BEGIN:VEVENT inside a VEVENT; events do not nest (RFC 5545 §3.6.1).")
                }
                guard stack.count < maxNesting else {
                    throw problem(name, line: number, "BEGIN:\(UserText.shown(value, limit: 40)) nests components \(stack.count + 1) deep; "
                                  + "a calendar nests at most \(maxNesting) (VCALENDAR, VEVENT, VALARM, …).")
                }
                stack.append(component)
                if component == "VEVENT", stack.count == 2 {
                    current = [:]
                    exdates = []
                }
            case "END":
                let open = stack.popLast()
                guard let open, open == value.uppercased() else {
                    throw problem(name, line: number, "END:\(UserText.shown(value, limit: 40)) does not close the open \(open.map { "BEGIN:\($0)" } ?? "nothing").")
                }
                if open == "VEVENT", stack.count == 1, let properties = current {
                    let event = try event(properties, name: name, endLine: number)
                    events += try occurrences(of: event, properties, exdates: exdates, name: name)
                    current = nil
                }
            default:
                var params: [String: String] = [:]
                for parameter in parts.dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    if pair.count == 2 { params[pair[0].uppercased()] = String(pair[1]).trimmingQuotes }
                }
                if property == "TZID", stack.last == "VTIMEZONE" { definedZones.insert(value) }
                guard current != nil, stack.last == "VEVENT" else { continue }
                if let zone = params["TZID"] { usedZones.append((zone, number)) }
                if property == "EXDATE" { exdates.append((params, value, number)) }
                if current?[property] == nil { current?[property] = (params, value, number) }
            }
        }
        guard stack.isEmpty else { throw problem(name, line: lines.count, "ends inside BEGIN:\(stack.last ?? "")") }
        // A TZID names a VTIMEZONE of the file (RFC 5545 §3.2.19) or, as exports write it, an IANA zone.
        for (zone, line) in usedZones where !definedZones.contains(zone) {
            guard (try? LocalCalendar(identifier: zone)) == nil else { continue }
            throw problem(name, line: line, "TZID=\(UserText.quoted(zone, limit: 60)) is neither a VTIMEZONE of this file nor an IANA time zone known on this machine.",
                          hint: "write an IANA zone such as TZID=Europe/Budapest, or add its VTIMEZONE to the file.")
        }
        return events
    }

    /// Components nest at most this deep (VCALENDAR › VEVENT › VALARM needs three).
    static let maxNesting = 8
    /// The most events one recurring `VEVENT` may expand to.
    public static let maxOccurrences = 1_000
    /// The longest stay an event may describe, nights (a year and a day: beyond that a date is wrong).
    public static let maxStayNights = 366
    /// The calendar years an event may lie in.
    public static let years = 1900...2199

    typealias Property = (params: [String: String], value: String, line: Int)
    typealias Properties = [String: Property]

    /// A `VCALENDAR` with `events`, CRLF line ends, folded and escaped.
    /// - Parameters:
    ///   - productID: `PRODID`, e.g. `-//RentalTwin//Reservations//EN`.
    ///   - calendarName: `X-WR-CALNAME`, shown by calendar apps.
    public static func write(_ events: [ICalendarEvent], productID: String, calendarName: String) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(escape(productID))", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
                     "X-WR-CALNAME:\(escape(calendarName))"]
        for event in events {
            lines.append("BEGIN:VEVENT")
            if let stamp = event.stamp { lines.append("DTSTAMP:\(utcText(stamp))") }
            lines.append("UID:\(escape(event.uid))")
            lines.append(timeLine("DTSTART", event.start))
            if let end = event.end { lines.append(timeLine("DTEND", end)) }
            if let summary = event.summary { lines.append("SUMMARY:\(escape(summary))") }
            if let description = event.description { lines.append("DESCRIPTION:\(escape(description))") }
            if let status = event.status { lines.append("STATUS:\(status)") }
            if let created = event.created { lines.append("CREATED:\(utcText(created))") }
            if let modified = event.lastModified { lines.append("LAST-MODIFIED:\(utcText(modified))") }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    // MARK: Reading

    /// Content lines with their first physical line number, continuation lines joined.
    private static func unfold(_ text: String) -> [(number: Int, text: String)] {
        var result: [(number: Int, text: String)] = []
        var number = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            let line = raw.last == "\r" ? raw.dropLast() : raw
            if let first = line.first, first == " " || first == "\t", !result.isEmpty {
                result[result.count - 1].text += line.dropFirst()
            } else {
                result.append((number, String(line)))
            }
        }
        return result
    }

    /// The `:` that ends the name and parameters (a quoted parameter value may contain `:`).
    private static func colonIndex(_ text: String) -> String.Index? {
        var quoted = false
        for index in text.indices {
            switch text[index] {
            case "\"": quoted.toggle()
            case ":" where !quoted: return index
            default: continue
            }
        }
        return nil
    }

    private static func event(_ p: Properties, name: String, endLine: Int) throws(SimulationError) -> ICalendarEvent {
        guard let uid = p["UID"]?.value, !uid.isEmpty else { throw problem(name, line: endLine, "a VEVENT has no UID.") }
        guard let startProperty = p["DTSTART"] else { throw problem(name, line: endLine, "the VEVENT \(uid) has no DTSTART.") }
        func time(_ property: (params: [String: String], value: String, line: Int), _ what: String) throws(SimulationError) -> ICalendarEvent.Time {
            guard let parsed = parseTime(property.value, params: property.params) else {
                throw problem(name, line: property.line, "\(what) \"\(property.value)\" is not an iCalendar date (20260109) or date-time (20260109T150000, …Z).")
            }
            return parsed
        }
        func instant(_ key: String) throws(SimulationError) -> SimInstant? {
            guard let property = p[key] else { return nil }
            if case .utc(let instant) = try time(property, key) { return instant }
            return nil
        }
        for key in ["RDATE", "RECURRENCE-ID"] {
            guard let property = p[key] else { continue }
            throw problem(name, line: property.line, "the VEVENT \(UserText.quoted(uid, limit: 60)) has \(key), which the twin does not read; "
                          + "it would book other nights than the file means.", hint: "export the calendar with each stay as its own VEVENT, or use RRULE.")
        }
        let start = try time(startProperty, "DTSTART")
        let end = try p["DTEND"].map { property throws(SimulationError) in try time(property, "DTEND") }
        let first = day(start)
        guard years.contains(first.year) else {
            throw problem(name, line: startProperty.line, "DTSTART \(UserText.quoted(startProperty.value, limit: 40)) lies in \(first.year); "
                          + "a stay must lie in \(years.lowerBound)–\(years.upperBound).")
        }
        if let end, let endProperty = p["DTEND"] {
            let nights = day(end).daysSinceEpoch - first.daysSinceEpoch
            guard nights <= Int64(maxStayNights) else {
                throw problem(name, line: endProperty.line, "the VEVENT \(UserText.quoted(uid, limit: 60)) lasts \(nights) nights "
                              + "(DTSTART \(startProperty.value) to DTEND \(endProperty.value)); a stay is at most \(maxStayNights) nights.",
                              hint: "check the dates' years.")
            }
        }
        return ICalendarEvent(uid: unescape(uid), summary: p["SUMMARY"].map { unescape($0.value) },
                              description: p["DESCRIPTION"].map { unescape($0.value) },
                              start: start, end: end,
                              status: p["STATUS"].map { $0.value.uppercased() }, stamp: try instant("DTSTAMP"),
                              created: try instant("CREATED"), lastModified: try instant("LAST-MODIFIED"))
    }

    /// `20260109` (or with `VALUE=DATE`), `20260109T150000[Z]`.
    static func parseTime(_ value: String, params: [String: String]) -> ICalendarEvent.Time? {
        let bytes = Array(value.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var n = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                n = n * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return n
        }
        guard bytes.count >= 8, let year = digits(0..<4), let month = digits(4..<6), let day = digits(6..<8),
              let date = CivilDate(year: year, month: month, day: day) else { return nil }
        if bytes.count == 8 { return .date(date) }
        guard params["VALUE"]?.uppercased() != "DATE", bytes.count == 15 || (bytes.count == 16 && bytes[15] == UInt8(ascii: "Z")),
              bytes[8] == UInt8(ascii: "T"), let hour = digits(9..<11), let minute = digits(11..<13), let second = digits(13..<15),
              let time = LocalTime(hour: hour, minute: minute, second: second) else { return nil }
        let local = LocalDateTime(date: date, time: time)
        if bytes.count == 16 { return .utc(SimInstant(unixMilliseconds: local.wallMilliseconds)) }
        return .local(local, zone: params["TZID"])
    }

    /// TEXT unescaping (§3.3.11).
    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var out = ""
        var escaped = false
        for character in text {
            if escaped {
                out.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    // MARK: Writing

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// `line` folded: at most 75 octets per physical line, continuation lines starting with a space.
    static func fold(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        var out = "", count = 0, limit = 75
        for character in line {
            let size = character.utf8.count
            if count + size > limit {
                out += "\r\n "
                count = 0
                limit = 74
            }
            out.append(character)
            count += size
        }
        return out
    }

    private static func timeLine(_ name: String, _ time: ICalendarEvent.Time) -> String {
        switch time {
        case .date(let d): return "\(name);VALUE=DATE:\(compact(d))"
        case .local(let local, let zone):
            return "\(name)\(zone.map { ";TZID=\($0)" } ?? ""):\(compact(local.date))T\(compact(local.time))"
        case .utc(let instant): return "\(name):\(utcText(instant))"
        }
    }

    private static func utcText(_ instant: SimInstant) -> String {
        let local = LocalDateTime(wallMilliseconds: instant.unixMilliseconds)
        return "\(compact(local.date))T\(compact(local.time))Z"
    }

    private static func compact(_ date: CivilDate) -> String {
        ASCIIDigits.padded(date.year, 4) + ASCIIDigits.padded(date.month, 2) + ASCIIDigits.padded(date.day, 2)
    }

    private static func compact(_ time: LocalTime) -> String {
        ASCIIDigits.padded(time.hour, 2) + ASCIIDigits.padded(time.minute, 2) + ASCIIDigits.padded(time.second, 2)
    }

    static func problem(_ name: String, line: Int, _ message: String, hint: String? = nil) -> SimulationError {
        SimulationError(.invalidCalendar, "\(name) line \(line): \(message)" + (hint.map { " Hint: \($0)" } ?? ""))
    }

    /// The calendar day a time falls on as written (a UTC instant: its UTC date).
    static func day(_ time: ICalendarEvent.Time) -> CivilDate {
        switch time {
        case .date(let d): return d
        case .local(let local, _): return local.date
        case .utc(let instant): return LocalDateTime(wallMilliseconds: instant.unixMilliseconds).date
        }
    }
}

extension String {
    /// Without one pair of surrounding double quotes (a quoted iCalendar parameter value).
    fileprivate var trimmingQuotes: String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}
