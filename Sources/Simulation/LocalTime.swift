/// A wall-clock time of day with no date or zone: `15:00`, `10:30:15`.
public struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since midnight, 0 ..< 86 400 000.
    public var millisecondOfDay: Int64

    /// Creates a time from its milliseconds since midnight (must be within one day).
    public init(millisecondOfDay: Int64) {
        precondition((0..<86_400_000).contains(millisecondOfDay), "time of day out of range")
        self.millisecondOfDay = millisecondOfDay
    }

    /// Creates `hour:minute:second`, or `nil` if a field is out of range.
    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        millisecondOfDay = Int64((hour * 60 + minute) * 60 + second) * 1_000
    }

    /// Parses `HH:MM` or `HH:MM:SS`; `nil` for anything else.
    public init?(iso text: some StringProtocol) {
        let b = Array(text.utf8)
        guard b.count == 5 || b.count == 8, b[2] == UInt8(ascii: ":"),
              let h = ASCIIDigits.number(b[0..<2]), let m = ASCIIDigits.number(b[3..<5])
        else { return nil }
        var s = 0
        if b.count == 8 {
            guard b[5] == UInt8(ascii: ":"), let sec = ASCIIDigits.number(b[6..<8]) else { return nil }
            s = sec
        }
        self.init(hour: h, minute: m, second: s)
    }

    /// Midnight.
    public static let midnight = LocalTime(millisecondOfDay: 0)

    /// The hour, 0–23.
    public var hour: Int { Int(millisecondOfDay / 3_600_000) }
    /// The minute of the hour, 0–59.
    public var minute: Int { Int(millisecondOfDay / 60_000 % 60) }
    /// The second of the minute, 0–59.
    public var second: Int { Int(millisecondOfDay / 1_000 % 60) }
    /// The millisecond of the second, 0–999.
    public var millisecond: Int { Int(millisecondOfDay % 1_000) }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.millisecondOfDay < rhs.millisecondOfDay }

    /// `HH:MM:SS`, with `.mmm` appended when the milliseconds are not zero.
    public var isoString: String {
        var s = "\(ASCIIDigits.padded(hour, 2)):\(ASCIIDigits.padded(minute, 2)):\(ASCIIDigits.padded(second, 2))"
        if millisecond != 0 { s += ".\(ASCIIDigits.padded(millisecond, 3))" }
        return s
    }

    /// `HH:MM`, or the full ``isoString`` when seconds are not zero.
    public var description: String {
        millisecondOfDay % 60_000 == 0 ? "\(ASCIIDigits.padded(hour, 2)):\(ASCIIDigits.padded(minute, 2))" : isoString
    }
}
