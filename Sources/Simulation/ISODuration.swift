/// Parsing and printing of ISO 8601 durations (`PT2H`, `PT90M`, `P1DT6H`, `PT0.5S`).
///
/// A day (`D`) is 24 hours and a week (`W`) 7 days; years and months are rejected because
/// their length depends on the calendar.
public enum ISODuration {
    /// Parses an ISO 8601 duration.
    /// - Throws: ``SimulationError`` with code `duration.invalid` and a hint.
    public static func parse(_ text: String) throws(SimulationError) -> SimDuration {
        func fail(_ why: String) -> SimulationError {
            SimulationError(.invalidDuration,
                            "\"\(text)\" is not an ISO 8601 duration (\(why)); write e.g. \"PT2H\", \"PT90M\" or \"P1DT6H\".")
        }
        var chars = Substring(text)
        var negative = false
        if chars.first == "-" { negative = true; chars = chars.dropFirst() }
        guard chars.first == "P" else { throw fail("it must start with P") }
        chars = chars.dropFirst()
        guard !chars.isEmpty else { throw fail("it has no fields") }
        var total: Int64 = 0
        var inTime = false
        var number = ""
        var sawField = false
        var lastRank = -1
        let ranks: [Character: (rank: Int, ms: Int64, time: Bool)] = [
            "W": (0, 604_800_000, false), "D": (1, 86_400_000, false),
            "H": (2, 3_600_000, true), "M": (3, 60_000, true), "S": (4, 1_000, true),
        ]
        for c in chars {
            if c == "T" {
                guard !inTime, number.isEmpty else { throw fail("misplaced T") }
                inTime = true
                continue
            }
            if c.isASCII, c.isNumber || c == "." { number.append(c); continue }
            guard let unit = ranks[c] else {
                if c == "Y" || (c == "M" && !inTime) { throw fail("years and months have no fixed length") }
                throw fail("unexpected \"\(c)\"")
            }
            guard unit.time == inTime else { throw fail(inTime ? "\(c) must come before T" : "\(c) must come after T") }
            guard unit.rank > lastRank else { throw fail("fields out of order") }
            guard !number.isEmpty else { throw fail("\(c) has no number") }
            let ms: Int64
            if number.contains(".") {
                guard c == "S", let seconds = Double(number), seconds.isFinite else { throw fail("only seconds may have a fraction") }
                guard seconds <= 1e15 else { throw fail("\(number) seconds is out of range") }  // Int64(_:) of a larger value traps
                ms = Int64((seconds * 1_000).rounded())
            } else {
                guard let n = Int64(number), n <= 1_000_000_000 else { throw fail("\(number) is not a whole number in range") }
                ms = n * unit.ms
            }
            total += ms
            number = ""
            sawField = true
            lastRank = unit.rank
        }
        guard number.isEmpty else { throw fail("a number has no unit") }
        guard sawField else { throw fail("it has no fields") }
        return SimDuration(milliseconds: negative ? -total : total)
    }

    /// The canonical ISO 8601 text: days, hours, minutes, seconds; `PT0S` for zero.
    public static func format(_ duration: SimDuration) -> String {
        var ms = duration.milliseconds
        guard ms != 0 else { return "PT0S" }
        var out = ms < 0 ? "-P" : "P"
        ms = abs(ms)
        let days = ms / 86_400_000; ms %= 86_400_000
        let hours = ms / 3_600_000; ms %= 3_600_000
        let minutes = ms / 60_000; ms %= 60_000
        let seconds = ms / 1_000, millis = ms % 1_000
        if days > 0 { out += "\(days)D" }
        if hours > 0 || minutes > 0 || seconds > 0 || millis > 0 {
            out += "T"
            if hours > 0 { out += "\(hours)H" }
            if minutes > 0 { out += "\(minutes)M" }
            if seconds > 0 || millis > 0 {
                out += millis == 0 ? "\(seconds)S" : "\(seconds).\(ASCIIDigits.padded(Int(millis), 3))S"
            }
        }
        return out
    }
}
