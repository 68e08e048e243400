import Simulation

/// `energy-daily.csv`: electric energy and runtime per local day, listing and device.
///
/// Columns `date,listing,device,type,energy_kwh,runtime_h`, one row per local day × listing ×
/// device, sorted by date, listing, device. `energy_kwh` has 3 decimals; `runtime_h` (hours the
/// device drew more than standby) has 3 decimals too. Days split at local midnights: a
/// daylight-saving day counts its 23 or 25 hours, and the first and last days cover only the
/// part of the run inside them. Locks appear with `0.000` energy and runtime.
public enum EnergyDailyReport {
    /// The header columns, in order.
    public static let header = ["date", "listing", "device", "type", "energy_kwh", "runtime_h"]

    /// The report for every listing with snapshots in `ledger`, over `[start, end)`.
    ///
    /// The devices of a listing on a day are those of its snapshot at the day's first instant
    /// inside the range.
    /// - Parameters:
    ///   - ledger: snapshots at `start`, `end` and every local midnight between them.
    ///   - calendar: the scenario's time zone, which decides where days split.
    ///   - start: the first instant covered (the scenario start).
    ///   - end: the end of the range (the scenario end); `start == end` gives the header only.
    /// - Returns: the CSV text, header first, `\n` line ends.
    /// - Throws: ``ReportsError`` `report.invalidRange` when `end` is before `start`; ledger
    ///   errors when a snapshot at a day boundary is missing; `report.nonFinite` for a broken meter.
    public static func csv(ledger: EnergyLedger, calendar: LocalCalendar, start: SimInstant, end: SimInstant) throws(ReportsError) -> String {
        guard start <= end else {
            throw ReportsError(.invalidRange,
                               "The daily energy report range ends at \(end), before it starts at \(start); pass the scenario start and end.")
        }
        let listings = ledger.listings.filter { ledger.snapshotCount(listing: $0) > 0 }
        var writer = CSVWriter(header: header)
        for day in calendar.daySlices(from: start, to: end) {
            for listing in listings {
                for figures in try ledger.deviceFigures(listing: listing, from: day.from, to: day.to) {
                    writer.appendRow([day.date.description, listing, figures.device.id, figures.device.type,
                                      try CSVWriter.decimal(figures.energyKWh, places: 3), try CSVWriter.decimal(figures.runtimeHours, places: 3)])
                }
            }
        }
        return writer.text
    }
}
