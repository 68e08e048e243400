extension LocalCalendar {
    /// `instant` as Java's `DateTimeFormatter.ISO_ZONED_DATE_TIME` writes a `ZonedDateTime` in this zone
    /// (how openHAB's event payloads carry `lastStateUpdate`): `2026-01-09T15:00:00+01:00[Europe/Budapest]`.
    /// Seconds are always written, a fraction only when not zero and without trailing zeros (`:05.5`),
    /// the offset as `Z` when zero, and with seconds only when it has them.
    public func isoZonedText(at instant: SimInstant) -> String {
        let local = localDateTime(at: instant)
        let time = local.time
        var text = "\(local.date)T\(ASCIIDigits.padded(time.hour, 2)):\(ASCIIDigits.padded(time.minute, 2)):\(ASCIIDigits.padded(time.second, 2))"
        var millis = Int(time.millisecondOfDay % 1_000)
        if millis != 0 {
            var digits = 3
            while millis % 10 == 0 { millis /= 10; digits -= 1 }
            text += "." + ASCIIDigits.padded(millis, digits)
        }
        let offsetSeconds = Int(offset(at: instant).milliseconds / 1_000)
        if offsetSeconds == 0 {
            text += "Z"
        } else {
            let magnitude = abs(offsetSeconds)
            text += (offsetSeconds < 0 ? "-" : "+") + ASCIIDigits.padded(magnitude / 3_600, 2) + ":" + ASCIIDigits.padded(magnitude / 60 % 60, 2)
            if magnitude % 60 != 0 { text += ":" + ASCIIDigits.padded(magnitude % 60, 2) }
        }
        return text + "[\(identifier)]"
    }
}
