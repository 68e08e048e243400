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

    /// The report.
    /// - Parameters:
    ///   - heaters: per listing, the ids of its heating devices.
    ///   - interval: the timeseries interval the meters were snapshotted at, from `start`.
    /// - Throws: ``ReportsError`` for a missing snapshot or a non-finite figure.
    public static func csv(ledger: EnergyLedger, listings: [String], stays: [StayRecord], heaters: [String: Set<String>],
                           tariff: Tariff?, co2KgPerKWh: Double?, interval: SimDuration, start: SimInstant, end: SimInstant,
                           calendar: LocalCalendar) throws(ReportsError) -> String {
        var writer = CSVWriter(header: header)
        var switchOnsByListing: [String: [SimInstant]] = [:]
        func row(_ scope: String, _ id: String, _ listing: String, _ from: SimInstant, _ to: SimInstant) throws(ReportsError) {
            let switchOns = switchOnsByListing[listing] ?? heaterSwitchOns(ledger: ledger, listing: listing, heaters: heaters[listing] ?? [])
            switchOnsByListing[listing] = switchOns
            let k = try kpis(ledger: ledger, listing: listing, switchOns: switchOns, tariff: tariff, co2KgPerKWh: co2KgPerKWh,
                             interval: interval, origin: start, from: from, to: to, calendar: calendar)
            writer.appendRow([scope, id, listing, calendar.timestamp(at: from), calendar.timestamp(at: to),
                              try CSVWriter.decimal(k.energyKWh, places: 3), try CSVWriter.decimal(k.cost, places: 4),
                              try CSVWriter.decimal(k.emissionsKg, places: 3), try CSVWriter.decimal(k.peakKW, places: 3),
                              try CSVWriter.decimal(k.discomfortKh, places: 3), String(k.heaterCycles)])
        }
        for listing in Array(Set(listings)).sorted() { try row("listing", listing, listing, start, end) }
        for stay in stays.sorted(by: { ($0.reservation, $0.listing) < ($1.reservation, $1.listing) }) where !stay.isCancelled {
            let from = max(stay.windowStart, start), to = min(stay.windowEnd, end)
            if from < to { try row("stay", stay.reservation, stay.listing, from, to) }
        }
        return writer.text
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

    /// The KPIs of `listing` over `[from, to]` (both snapshotted).
    /// - Parameter origin: the instant timeseries ticks count from (the run's start).
    public static func kpis(ledger: EnergyLedger, listing: String, heaters: Set<String>, tariff: Tariff?, co2KgPerKWh: Double?,
                            interval: SimDuration, origin: SimInstant, from: SimInstant, to: SimInstant,
                            calendar: LocalCalendar) throws(ReportsError) -> Figures {
        try kpis(ledger: ledger, listing: listing, switchOns: heaterSwitchOns(ledger: ledger, listing: listing, heaters: heaters),
                 tariff: tariff, co2KgPerKWh: co2KgPerKWh, interval: interval, origin: origin, from: from, to: to, calendar: calendar)
    }

    /// The instants, in order, at which one of `heaters` of `listing` switched on: a transition to
    /// power after none or after one to zero of the same device. Computed once per listing, so a
    /// stay's `heater_cycles` is a binary search, not a pass over every transition of the run.
    static func heaterSwitchOns(ledger: EnergyLedger, listing: String, heaters: Set<String>) -> [SimInstant] {
        var switchOns: [SimInstant] = []
        var on: [String: Bool] = [:]
        for transition in ledger.transitions(listing: listing) where heaters.contains(transition.device) {
            let nowOn = transition.powerW > 0
            if nowOn, on[transition.device] != true { switchOns.append(transition.at) }
            on[transition.device] = nowOn
        }
        return switchOns
    }

    /// The KPIs of `listing` over `[from, to]`, its heater switch-ons given (``heaterSwitchOns(ledger:listing:heaters:)``).
    static func kpis(ledger: EnergyLedger, listing: String, switchOns: [SimInstant], tariff: Tariff?, co2KgPerKWh: Double?,
                     interval: SimDuration, origin: SimInstant, from: SimInstant, to: SimInstant,
                     calendar: LocalCalendar) throws(ReportsError) -> Figures {
        let energy = try ledger.energyKWh(listing: listing, device: nil, from: from, to: to)
        let inside = ledger.energyPoints(listing: listing, from: from, to: to)
        var cost: Double?
        if let tariff {
            var sum = 0.0
            for (a, b) in zip(inside, inside.dropFirst()) {
                sum += (b.totalEnergyKWh - a.totalEnergyKWh) * tariff.price(at: a.at, calendar: calendar)
            }
            cost = sum
        }
        var peak: Double?
        let ticks = inside.filter { interval > .zero && ($0.at - origin).milliseconds % interval.milliseconds == 0 }
        for (a, b) in zip(ticks, ticks.dropFirst()) where b.at - a.at == interval {
            let kW = (b.totalEnergyKWh - a.totalEnergyKWh) / interval.hours
            peak = max(peak ?? kW, kW)
        }
        let cycles = firstIndex(in: switchOns, after: to) - firstIndex(in: switchOns, after: from)
        return Figures(energyKWh: energy, cost: cost, emissionsKg: co2KgPerKWh.map { energy * $0 }, peakKW: peak,
                       discomfortKh: try ledger.discomfortKh(listing: listing, from: from, to: to), heaterCycles: cycles)
    }

    /// The index of the first instant of `list` (in order) later than `instant` (binary search).
    private static func firstIndex(in list: [SimInstant], after instant: SimInstant) -> Int {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid] <= instant { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
