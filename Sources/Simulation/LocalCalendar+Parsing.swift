extension LocalCalendar {
    /// Parses a scenario date-time: local (`2026-01-09T16:00`, `2026-01-09T16:00:30`) in this
    /// zone, or with an explicit offset (`2026-01-09T15:00Z`, `2026-01-09T16:00+01:00`).
    /// - Throws: ``SimulationError`` `time.invalid` for a malformed text, `time.nonexistent`
    ///   or `time.ambiguous` for a local time that a daylight-saving change skips or repeats.
    public func parseInstant(_ text: String) throws(SimulationError) -> SimInstant {
        let (localText, offset) = try Self.splitOffset(text)
        guard let local = LocalDateTime(iso: localText) else {
            throw SimulationError(.invalidDateTime,
                                  "\"\(text)\" is not a date-time; write \"YYYY-MM-DDTHH:MM\" (local), optionally with \":SS\" and \"Z\" or \"+01:00\".")
        }
        if let offset { return SimInstant(unixMilliseconds: local.wallMilliseconds - offset.milliseconds) }
        return try instant(for: local)
    }

    /// Parses a date `YYYY-MM-DD`.
    /// - Throws: ``SimulationError`` `time.invalid`, saying whether the form or the day is wrong.
    public static func parseDate(_ text: String) throws(SimulationError) -> CivilDate {
        guard let date = CivilDate(iso: text) else {
            throw SimulationError(.invalidDateTime,
                                  "\"\(text)\" is not a date that exists; write \"YYYY-MM-DD\", e.g. \"2026-01-09\".")
        }
        return date
    }

    /// Parses a time of day `HH:MM` or `HH:MM:SS`.
    /// - Throws: ``SimulationError`` `time.invalid`.
    public static func parseTime(_ text: String) throws(SimulationError) -> LocalTime {
        guard let time = LocalTime(iso: text) else {
            throw SimulationError(.invalidDateTime, "\"\(text)\" is not a time of day; write \"HH:MM\", e.g. \"15:00\".")
        }
        return time
    }

    /// Splits a trailing `Z` or `±HH:MM` off a date-time text.
    private static func splitOffset(_ text: String) throws(SimulationError) -> (String, SimDuration?) {
        if text.hasSuffix("Z") { return (String(text.dropLast()), .zero) }
        let bytes = Array(text.utf8)
        guard bytes.count > 16 else { return (text, nil) }
        let signIndex = bytes.count - 6
        let sign = bytes[signIndex]
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return (text, nil) }
        guard bytes[signIndex + 3] == UInt8(ascii: ":"),
              let h = ASCIIDigits.number(bytes[(signIndex + 1)..<(signIndex + 3)]),
              let m = ASCIIDigits.number(bytes[(signIndex + 4)...]), h <= 18, m <= 59
        else {
            throw SimulationError(.invalidDateTime, "\"\(text)\" has a malformed UTC offset; write it as \"+01:00\" or \"Z\".")
        }
        let minutes = Int64(h * 60 + m) * (sign == UInt8(ascii: "-") ? -1 : 1)
        return (String(decoding: bytes[..<signIndex], as: UTF8.self), .minutes(minutes))
    }
}
