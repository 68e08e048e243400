import Simulation

/// `timeseries.csv`: every listing's temperatures, guests and power at fixed ticks.
///
/// Columns `time,listing,indoor_c,outdoor_c,guests,power_w,energy_kwh`, one row per tick ×
/// listing, in tick order and then by listing id. Ticks are `start`, `start + interval`, … up
/// to and including `end`. `time` is local with its UTC offset, `2026-01-09T16:00+01:00`
/// (seconds only when not zero), so the repeated hour of an autumn overlap stays unambiguous.
/// `indoor_c` and `outdoor_c` have 2 decimals, `power_w` (all devices of the listing, at the
/// tick) 1, `energy_kwh` (all devices, cumulative since `start`) 3.
public enum TimeseriesReport {
    /// The header columns, in order.
    public static let header = ["time", "listing", "indoor_c", "outdoor_c", "guests", "power_w", "energy_kwh"]

    /// The report for `listings` (sorted by id, duplicates ignored) over `[start, end]`.
    /// - Parameters:
    ///   - ledger: snapshots of each listing at every tick.
    ///   - listings: the listings to report.
    ///   - interval: the tick spacing; must be positive.
    ///   - start: the first tick.
    ///   - end: the last instant a tick may fall on.
    ///   - calendar: the time zone the `time` column is written in.
    /// - Returns: the CSV text, header first, `\n` line ends.
    /// - Throws: ``ReportsError`` `report.invalidInterval`, `report.invalidRange`, ledger errors
    ///   for a missing tick snapshot, or `report.nonFinite` for a broken meter.
    public static func csv(ledger: EnergyLedger, listings: [String], interval: SimDuration, start: SimInstant, end: SimInstant,
                           calendar: LocalCalendar) throws(ReportsError) -> String {
        var text = ""
        try write(ledger: ledger, listings: listings, interval: interval, start: start, end: end, calendar: calendar) { text += $0 }
        return text
    }

    /// ``csv(ledger:listings:interval:start:end:calendar:)`` handed out in pieces of about 256 KB, in
    /// order, so a long run's file is written without ever being whole in memory.
    public static func write(ledger: EnergyLedger, listings: [String], interval: SimDuration, start: SimInstant, end: SimInstant,
                             calendar: LocalCalendar, piece: (String) -> Void) throws(ReportsError) {
        guard interval > .zero else {
            throw ReportsError(.invalidInterval, "The timeseries interval is \(interval); give a positive duration such as PT15M.")
        }
        guard start <= end else {
            throw ReportsError(.invalidRange,
                               "The timeseries range ends at \(end), before it starts at \(start); pass the scenario start and end.")
        }
        let ids = Array(Set(listings)).sorted()
        let starts = try ids.map { id throws(ReportsError) in try ledger.snapshot(listing: id, at: start) }
        var writer = CSVWriter(header: header)
        var tick = start
        while tick <= end {
            let time = calendar.timestamp(at: tick)
            for (index, id) in ids.enumerated() {
                try appendRow(&writer, time: time, try ledger.snapshot(listing: id, at: tick), since: starts[index])
            }
            if writer.text.utf8.count >= 1 << 18 { piece(writer.takeText()) }
            tick = tick + interval
        }
        piece(writer.takeText())
    }

    /// Appends one row: `snapshot`'s listing at its tick, written as `time`
    /// (`calendar.timestamp(at: tick)`, made once per tick), its energy counted from `start`, the
    /// listing's snapshot at the first tick. A run appends each tick's rows as it records the
    /// snapshots, in listing-id order, so the file need not wait for the run's end.
    /// - Throws: `report.nonFinite` for a broken meter.
    public static func appendRow(_ writer: inout CSVWriter, time: String, _ snapshot: MeterSnapshot, since start: MeterSnapshot)
        throws(ReportsError) {
        writer.appendRow([time, snapshot.listing, try CSVWriter.decimal(snapshot.indoorC, places: 2),
                          try CSVWriter.decimal(snapshot.outdoorC, places: 2), String(snapshot.guests),
                          try CSVWriter.decimal(snapshot.totalPowerW, places: 1),
                          try CSVWriter.decimal(snapshot.energyKWh(since: start), places: 3)])
    }
}
