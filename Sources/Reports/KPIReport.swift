import Simulation

/// `kpi.csv`: the BOPTEST core KPIs of every listing over the run and of every stay over its window.
///
/// Columns `scope,id,listing,from,to,ener_tot_kwh,cost_tot,emis_tot_kg,pele_tot_kw,tdis_tot_kh,heater_cycles`:
/// one `listing` row per listing (sorted), then one `stay` row per non-cancelled reservation
/// (sorted by id) over its window clipped to the run. Named as BOPTEST names them:
/// - `ener_tot_kwh`: electric energy of all devices, kWh (3 decimals);
/// - `cost_tot`: Σ energy × price over the pieces between consecutive meter snapshots, each at the
///   price in force at the piece's start (with 15-minute snapshots, 15-minute billing); empty
///   without a `tariff` (4 decimals);
/// - `emis_tot_kg`: energy × the `co2KgPerKWh` factor; empty without one (3 decimals);
/// - `pele_tot_kw`: peak electric demand, the largest average power over one timeseries interval
///   (15 minutes by default, BOPTEST's) that lies inside the window (3 decimals; empty when none does);
/// - `tdis_tot_kh`: thermal discomfort, degree-hours below comfort while guests were present (3 decimals);
/// - `heater_cycles`: times a heating device switched on inside the window (not a BOPTEST KPI, but
///   what wears a heater out).
public enum KPIReport {
    /// The header columns, in order.
    public static let header = ["scope", "id", "listing", "from", "to", "ener_tot_kwh", "cost_tot", "emis_tot_kg",
                                "pele_tot_kw", "tdis_tot_kh", "heater_cycles"]

    /// The report, from the ledger's snapshots at each window's ends and the cost, peak and heater
    /// cycles `stream` gathered while the run went.
    /// - Parameters:
    ///   - stream: holds a window for every listing over the run and for every non-cancelled stay.
    /// - Throws: ``ReportsError`` for a missing snapshot or window, or a non-finite figure.
    public static func csv(ledger: EnergyLedger, stream: ReportStream, listings: [String], stays: [StayRecord],
                           co2KgPerKWh: Double?) throws(ReportsError) -> String {
        var writer = CSVWriter(header: header)
        let calendar = stream.calendar
        func row(_ scope: String, _ id: String, _ listing: String, _ from: SimInstant, _ to: SimInstant) throws(ReportsError) {
            let k = try kpis(ledger: ledger, stream: stream, listing: listing, co2KgPerKWh: co2KgPerKWh, from: from, to: to)
            writer.appendRow([scope, id, listing, calendar.timestamp(at: from), calendar.timestamp(at: to),
                              try CSVWriter.decimal(k.energyKWh, places: 3), try CSVWriter.decimal(k.cost, places: 4),
                              try CSVWriter.decimal(k.emissionsKg, places: 3), try CSVWriter.decimal(k.peakKW, places: 3),
                              try CSVWriter.decimal(k.discomfortKh, places: 3), String(k.heaterCycles)])
        }
        for listing in Array(Set(listings)).sorted() { try row("listing", listing, listing, stream.start, stream.end) }
        for stay in stays.sorted(by: { ($0.reservation, $0.listing) < ($1.reservation, $1.listing) }) where !stay.isCancelled {
            let from = max(stay.windowStart, stream.start), to = min(stay.windowEnd, stream.end)
            if from < to { try row("stay", stay.reservation, stay.listing, from, to) }
        }
        return writer.text
    }

    /// The report from a whole run's `ledger` (every snapshot and transition kept): what
    /// ``csv(ledger:stream:listings:stays:co2KgPerKWh:)`` gives for a stream fed the same run.
    /// - Parameters:
    ///   - heaters: per listing, the ids of its heating devices.
    ///   - interval: the timeseries interval the meters were snapshotted at, from `start`.
    /// - Throws: ``ReportsError`` for a missing snapshot or a non-finite figure.
    public static func csv(ledger: EnergyLedger, listings: [String], stays: [StayRecord], heaters: [String: Set<String>],
                           tariff: Tariff?, co2KgPerKWh: Double?, interval: SimDuration, start: SimInstant, end: SimInstant,
                           calendar: LocalCalendar) throws(ReportsError) -> String {
        var stream = ReportStream(listings: listings, start: start, end: end, interval: interval, calendar: calendar,
                                  tariff: tariff, heaters: heaters)
        stream.replay(ledger)
        for stay in stays where !stay.isCancelled {
            stream.addWindow(listing: stay.listing, from: max(stay.windowStart, start), to: min(stay.windowEnd, end), ledger: ledger)
        }
        return try csv(ledger: ledger, stream: stream, listings: listings, stays: stays, co2KgPerKWh: co2KgPerKWh)
    }

    /// The KPIs of one listing over `[from, to]`.
    public struct Figures: Sendable, Equatable {
        public var energyKWh: Double
        public var cost: Double?
        public var emissionsKg: Double?
        public var peakKW: Double?
        public var discomfortKh: Double
        public var heaterCycles: Int
    }

    /// The KPIs of `listing` over `[from, to]` (both snapshotted), from a whole run's `ledger`.
    /// - Parameter origin: the instant timeseries ticks count from (the run's start).
    public static func kpis(ledger: EnergyLedger, listing: String, heaters: Set<String>, tariff: Tariff?, co2KgPerKWh: Double?,
                            interval: SimDuration, origin: SimInstant, from: SimInstant, to: SimInstant,
                            calendar: LocalCalendar) throws(ReportsError) -> Figures {
        var stream = ReportStream(listings: [listing], start: origin, end: max(origin, to), interval: interval, calendar: calendar,
                                  tariff: tariff, heaters: [listing: heaters])
        stream.replay(ledger)
        stream.addWindow(listing: listing, from: from, to: to, ledger: ledger)
        return try kpis(ledger: ledger, stream: stream, listing: listing, co2KgPerKWh: co2KgPerKWh, from: from, to: to)
    }

    /// The KPIs of `listing` over `[from, to]`: energy and discomfort from the ledger's snapshots at
    /// the ends, cost, peak and cycles from the stream's window.
    static func kpis(ledger: EnergyLedger, stream: ReportStream, listing: String, co2KgPerKWh: Double?,
                     from: SimInstant, to: SimInstant) throws(ReportsError) -> Figures {
        let energy = try ledger.energyKWh(listing: listing, device: nil, from: from, to: to)
        let discomfort = try ledger.discomfortKh(listing: listing, from: from, to: to)
        let window = try stream.window(listing: listing, from: from, to: to)
        return Figures(energyKWh: energy, cost: stream.tariff == nil ? nil : window.cost, emissionsKg: co2KgPerKWh.map { energy * $0 },
                       peakKW: window.peakKW, discomfortKh: discomfort, heaterCycles: window.heaterCycles)
    }

    /// Cost, peak demand and heater switch-ons over one window `[from, to]`, summed as the
    /// listing's snapshots and transitions arrive, in time order.
    public struct Window: Sendable {
        public let from: SimInstant, to: SimInstant
        /// Σ energy × price over the pieces between consecutive snapshots inside the window, each at
        /// the price in force at the piece's start.
        public private(set) var cost = 0.0
        /// The largest average power over one tick interval inside the window, kW.
        public private(set) var peakKW: Double?
        /// Heater switch-ons in `(from, to]`.
        public private(set) var heaterCycles = 0
        /// Whether snapshots inside the window were dropped before it was opened (its figures would be wrong).
        var isIncomplete = false
        private var previous: (at: SimInstant, energyKWh: Double)?
        private var previousTick: (at: SimInstant, energyKWh: Double)?

        init(from: SimInstant, to: SimInstant) {
            self.from = from
            self.to = to
        }

        /// A snapshot of the listing: its instant and summed device energy, later than the last one taken in.
        mutating func add(at: SimInstant, energyKWh: Double, isTick: Bool, interval: SimDuration, tariff: Tariff?, calendar: LocalCalendar) {
            guard at >= from, at <= to, previous.map({ at > $0.at }) ?? true else { return }
            if let tariff, let previous { cost += (energyKWh - previous.energyKWh) * tariff.price(at: previous.at, calendar: calendar) }
            previous = (at, energyKWh)
            guard isTick else { return }
            if let a = previousTick, at - a.at == interval {
                let kW = (energyKWh - a.energyKWh) / interval.hours
                peakKW = max(peakKW ?? kW, kW)
            }
            previousTick = (at, energyKWh)
        }

        /// A heater of the listing switched on at `at`.
        mutating func addSwitchOn(at: SimInstant) {
            if at > from, at <= to { heaterCycles += 1 }
        }
    }
}
