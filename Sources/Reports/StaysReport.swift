import Simulation

/// `stays.csv`: one row per reservation with the energy, mean room temperature and discomfort of its stay.
///
/// Columns `reservation,listing,guest,check_in,check_out,nights,status,energy_kwh,mean_indoor_c,discomfort_kh`,
/// sorted by reservation id. The metrics cover the stay window — check-in moment to check-out
/// moment — clipped to the run: `[max(windowStart, start), min(windowEnd, end))`. `energy_kwh`
/// is all devices of the listing (3 decimals), `mean_indoor_c` the time-weighted mean room
/// temperature (2 decimals), `discomfort_kh` the degree-hours below comfort while guests were
/// present (3 decimals). The three metric fields are empty for a cancelled reservation and for
/// a window with nothing inside the run (entirely after `end` or before `start`).
public enum StaysReport {
    /// The header columns, in order.
    public static let header = ["reservation", "listing", "guest", "check_in", "check_out", "nights", "status",
                                "energy_kwh", "mean_indoor_c", "discomfort_kh"]

    /// The report for `stays`.
    /// - Parameters:
    ///   - ledger: snapshots at the run's start and end and at every stay's check-in and check-out moment inside it.
    ///   - stays: every reservation, in any order.
    ///   - start: the run's start; `nil` means each listing's first snapshot (which the runner takes at the start).
    ///   - end: the run's end; windows are clipped to it.
    /// - Returns: the CSV text, header first, `\n` line ends.
    /// - Throws: ``ReportsError`` when a snapshot at a clipped window end is missing, or
    ///   `report.nonFinite` for a broken meter.
    public static func csv(ledger: EnergyLedger, stays: [StayRecord], start: SimInstant? = nil, end: SimInstant) throws(ReportsError) -> String {
        let ordered = stays.enumerated().sorted { a, b in
            (a.element.reservation, a.element.listing, a.offset) < (b.element.reservation, b.element.listing, b.offset)
        }.map(\.element)
        var writer = CSVWriter(header: header)
        for stay in ordered {
            var energy = "", meanIndoor = "", discomfort = ""
            let runStart = start ?? ledger.firstInstant(listing: stay.listing)
            if !stay.isCancelled, let runStart {
                let from = max(stay.windowStart, runStart), to = min(stay.windowEnd, end)
                if from < to {
                    energy = try CSVWriter.decimal(try ledger.energyKWh(listing: stay.listing, device: nil, from: from, to: to), places: 3)
                    meanIndoor = try CSVWriter.decimal(try ledger.meanIndoorC(listing: stay.listing, from: from, to: to), places: 2)
                    discomfort = try CSVWriter.decimal(try ledger.discomfortKh(listing: stay.listing, from: from, to: to), places: 3)
                }
            }
            writer.appendRow([stay.reservation, stay.listing, stay.guest, stay.checkIn.description, stay.checkOut.description,
                              String(stay.nights), stay.status, energy, meanIndoor, discomfort])
        }
        return writer.text
    }
}
