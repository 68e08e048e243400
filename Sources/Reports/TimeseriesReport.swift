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
        let listingFields = ids.map(Field.init)
        var bytes = headerLine
        var tick = start, timestamps = LocalCalendar.Timestamps(calendar: calendar)
        while tick <= end {
            let time = Field(timestamps.timestamp(at: tick))
            for (index, id) in ids.enumerated() {
                try appendRow(&bytes, time: time, listing: listingFields[index], try ledger.snapshot(listing: id, at: tick), since: starts[index])
            }
            if bytes.count >= 1 << 18 { piece(takeText(&bytes)) }
            tick = tick + interval
        }
        piece(takeText(&bytes))
    }

    /// The header line's bytes, `\n` ended.
    public static var headerLine: [UInt8] { Array(CSVWriter.line(header).utf8) }

    /// The text of `bytes` (rows that ``appendRow(_:time:_:since:)`` wrote), leaving `bytes` empty with its capacity.
    public static func takeText(_ bytes: inout [UInt8]) -> String {
        defer { bytes.removeAll(keepingCapacity: true) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A field's bytes as ``CSVWriter/field(_:)`` writes it, made once: a tick's time for all its rows,
    /// a listing's id for all its ticks.
    public struct Field: Sendable {
        let bytes: [UInt8]

        /// `text` as one field.
        public init(_ text: String) { bytes = Array(CSVWriter.field(text).utf8) }
    }

    /// Appends one row's UTF-8 bytes: `snapshot`'s listing (its id as `listing`) at its tick, written
    /// as `time` (`calendar.timestamp(at: tick)`, or ``LocalCalendar/Timestamps``), its energy counted from `start`, the
    /// listing's snapshot at the first tick. A run appends each tick's rows as it records the
    /// snapshots, in listing-id order, so the file need not wait for the run's end. The row is the
    /// bytes ``CSVWriter`` writes for the same fields (quoting, ``CSVWriter/decimal(_:places:)``), with
    /// no `String` per field.
    /// - Throws: `report.nonFinite` for a broken meter.
    public static func appendRow(_ bytes: inout [UInt8], time: Field, listing: Field, _ snapshot: MeterSnapshot,
                                 since start: MeterSnapshot) throws(ReportsError) {
        let power = snapshot.totalPowerW, energy = snapshot.energyKWh(since: start)
        guard snapshot.indoorC.isFinite, snapshot.outdoorC.isFinite, power.isFinite, energy.isFinite else {
            for value in [snapshot.indoorC, snapshot.outdoorC, power, energy] { _ = try CSVWriter.decimal(value, places: 0) }
            return  // not reached: one of them is not finite, and CSVWriter.decimal throws report.nonFinite for it
        }
        bytes.append(contentsOf: time.bytes)
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: listing.bytes)
        bytes.append(UInt8(ascii: ","))
        DecimalText.appendFixed(snapshot.indoorC, places: 2, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        DecimalText.appendFixed(snapshot.outdoorC, places: 2, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        if snapshot.guests < 0 { bytes.append(UInt8(ascii: "-")) }
        DecimalText.appendDigits(of: UInt64(snapshot.guests.magnitude), to: &bytes)
        bytes.append(UInt8(ascii: ","))
        DecimalText.appendFixed(power, places: 1, to: &bytes)
        bytes.append(UInt8(ascii: ","))
        DecimalText.appendFixed(energy, places: 3, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }
}
