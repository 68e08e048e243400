import Simulation

/// The value of a `DateTimeType`: an instant, written in the zone of the twin's calendar (openHAB 5
/// keeps an `Instant` and prints it in the system zone, which in the twin is the scenario's zone).
///
/// Two values are equal when their instants are, whatever zone they print in, as `DateTimeType.equals`.
public struct DateTimeValue: Sendable, Hashable, CustomStringConvertible {
    /// When.
    public let instant: SimInstant
    /// The zone the value prints in.
    public let calendar: LocalCalendar

    /// `instant`, printed in `calendar`'s zone.
    public init(_ instant: SimInstant, in calendar: LocalCalendar) {
        self.instant = instant
        self.calendar = calendar
    }

    /// `DateTimeType.toFullString()`: `2026-01-09T15:00:00.000+0100` — seconds always, the fraction to
    /// milliseconds (the twin's resolution), the offset as `±hhmm`.
    public var description: String {
        let local = calendar.localDateTime(at: instant)
        let offsetMinutes = Int(calendar.offset(at: instant).milliseconds / 60_000)
        let sign = offsetMinutes < 0 ? "-" : "+"
        let hours = abs(offsetMinutes) / 60, minutes = abs(offsetMinutes) % 60
        let millis = Int(local.time.millisecondOfDay % 1_000)
        return "\(local.date)T\(pad(local.time.hour)):\(pad(local.time.minute)):\(pad(local.time.second))."
            + "\(pad(millis, width: 3))\(sign)\(pad(hours))\(pad(minutes))"
    }

    /// Parses a state text as `DateTimeType(String)` does: `2026-01-09T15:00`, with seconds and a
    /// fraction, with a zone (`Z`, `+01:00`, `+0100`), with a space instead of `T`, a date alone
    /// (midnight), a time alone (on 1970-01-01), or epoch seconds (fewer than 12 digits) or milliseconds. A text without a zone is local
    /// time in `calendar` (openHAB's system zone).
    /// - Returns: `nil` when the text is none of these.
    public init?(parsing text: String, in calendar: LocalCalendar) {
        var text = Substring(text)
        if text.hasSuffix("]"), let open = text.lastIndex(of: "[") { text = text[..<open] }  // ZonedDateTime's [zone]
        if text.count >= 16, text[text.index(text.startIndex, offsetBy: 10)] == " " {
            let cut = text.index(text.startIndex, offsetBy: 10)
            text = text[..<cut] + "T" + text[text.index(after: cut)...]
        }
        if text.count >= 5, text[text.index(text.startIndex, offsetBy: 2)] == ":" {
            text = "1970-01-01T" + text  // a time alone is that time on 1970-01-01, as DateTimeType reads it
        }
        if let epoch = Int64(text) {
            let digits = String(abs(epoch)).count
            self.init(SimInstant(unixMilliseconds: digits < 12 ? epoch * 1_000 : epoch), in: calendar)
            return
        }
        if text.count == 10 { text += "T00:00:00" }
        guard text.count >= 16, let date = CivilDate(iso: text.prefix(10)),
              text[text.index(text.startIndex, offsetBy: 10)] == "T" else { return nil }
        var rest = text.dropFirst(11)
        func number(_ count: Int) -> Int? {
            guard rest.count >= count, rest.prefix(count).allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            defer { rest = rest.dropFirst(count) }
            return Int(rest.prefix(count))
        }
        guard let hour = number(2), rest.first == ":" else { return nil }
        rest = rest.dropFirst()
        guard let minute = number(2) else { return nil }
        var second = 0, millis = 0
        if rest.first == ":" {
            rest = rest.dropFirst()
            guard let s = number(2) else { return nil }
            second = s
            if rest.first == "." {
                rest = rest.dropFirst()
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, digits.count <= 9 else { return nil }
                millis = Int((String(digits) + "00").prefix(3)) ?? 0
                rest = rest.dropFirst(digits.count)
            }
        }
        guard let whole = LocalTime(hour: hour, minute: minute, second: second) else { return nil }
        let time = LocalTime(millisecondOfDay: whole.millisecondOfDay + Int64(millis))
        let local = LocalDateTime(date: date, time: time)
        if rest.isEmpty {
            self.init(calendar.resolvedInstant(for: local), in: calendar)
            return
        }
        let offsetMinutes: Int
        if rest == "Z" {
            offsetMinutes = 0
        } else {
            guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
            let digits = rest.dropFirst().filter { $0 != ":" }
            guard digits.count == 4 || digits.count == 2, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(digits) else { return nil }
            let minutes = digits.count == 4 ? value / 100 * 60 + value % 100 : value * 60
            offsetMinutes = sign == "-" ? -minutes : minutes
        }
        let wall = local.wallMilliseconds - Int64(offsetMinutes) * 60_000
        self.init(SimInstant(unixMilliseconds: wall), in: calendar)
    }

    public static func == (lhs: DateTimeValue, rhs: DateTimeValue) -> Bool { lhs.instant == rhs.instant }
    public func hash(into hasher: inout Hasher) { hasher.combine(instant) }

    private func pad(_ value: Int, width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
