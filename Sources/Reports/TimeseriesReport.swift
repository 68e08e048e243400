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
        var writer = CSVWriter(header: header)
        var tick = start
        while tick <= end {
            try appendRows(&writer, ledger: ledger, listings: ids, at: tick, since: start, calendar: calendar)
            if writer.text.utf8.count >= 1 << 18 { piece(writer.takeText()) }
            tick = tick + interval
        }
        piece(writer.takeText())
    }

    /// Appends the rows of one tick: one per listing of `listings` (sorted by id, no duplicates),
    /// from the ledger's snapshots at `tick` and at `start`. A run appends each tick's rows as it
    /// records them, so the file need not wait for the run's end.
    /// - Throws: ledger errors for a missing snapshot, or `report.nonFinite` for a broken meter.
    public static func appendRows(_ writer: inout CSVWriter, ledger: EnergyLedger, listings: [String], at tick: SimInstant,
                                  since start: SimInstant, calendar: LocalCalendar) throws(ReportsError) {
        let time = calendar.timestamp(at: tick)
        for id in listings {
            let s = try ledger.tickFigures(listing: id, at: tick, since: start)
            writer.appendRow([time, id, try CSVWriter.decimal(s.indoorC, places: 2), try CSVWriter.decimal(s.outdoorC, places: 2),
                              String(s.guests), try CSVWriter.decimal(s.totalPowerW, places: 1),
                              try CSVWriter.decimal(s.energyKWh, places: 3)])
        }
    }
}
