/// A date in the proleptic Gregorian calendar, with no time zone: `2026-01-09`.
///
/// Conversions use Howard Hinnant's exact integer algorithms, so no `Calendar` is needed
/// to count days.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, e.g. 2026 (year 0 exists and is 1 BC).
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int

    /// Creates a date, or `nil` when the month or day does not exist (`2026-02-29`).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch: Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        year = Int(yoe + era * 400 + (m <= 2 ? 1 : 0))
        month = Int(m)
        day = Int(d)
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + Int64(days)) }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let (_, r) = (daysSinceEpoch + 3).floorDivided(by: 7)  // 1970-01-01 was a Thursday
        return Int(r) + 1
    }

    /// Whether `year` is a Gregorian leap year.
    public static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// The number of days in `month` of `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Parses exactly `YYYY-MM-DD`; `nil` for anything else or a date that does not exist.
    public init?(iso text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let y = ASCIIDigits.number(bytes[0..<4]), let m = ASCIIDigits.number(bytes[5..<7]),
              let d = ASCIIDigits.number(bytes[8..<10])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `YYYY-MM-DD` (years outside 0…9999 print with as many digits as they need).
    public var description: String {
        "\(ASCIIDigits.padded(year, 4))-\(ASCIIDigits.padded(month, 2))-\(ASCIIDigits.padded(day, 2))"
    }
}

/// Small helpers for fixed-width decimal fields, shared by the date and time parsers.
enum ASCIIDigits {
    /// The value of a run of ASCII digits, or `nil` if any byte is not a digit.
    static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for b in bytes {
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(b - UInt8(ascii: "0"))
        }
        return value
    }

    /// `value` left-padded with zeros to `width` digits (a minus sign goes in front).
    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let pad = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + pad + digits
    }
}
