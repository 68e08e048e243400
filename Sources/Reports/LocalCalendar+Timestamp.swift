import Simulation

extension LocalCalendar {
    /// The local date-time at `instant` with its UTC offset, e.g. `2026-01-09T16:00+01:00`.
    ///
    /// Minutes always, seconds (and milliseconds) only when not zero, as ``LocalDateTime``
    /// prints them; the offset tells the two 02:30s of an autumn overlap apart.
    public func timestamp(at instant: SimInstant) -> String {
        "\(localDateTime(at: instant))\(Self.offsetSuffix(offset(at: instant)))"
    }

    /// `+01:00`-style text for a UTC offset.
    static func offsetSuffix(_ offset: SimDuration) -> String {
        let minutes = offset.milliseconds / 60_000
        let magnitude = minutes.magnitude
        let hours = magnitude / 60, rest = magnitude % 60
        return (minutes < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}
