import Simulation

/// What the reports need of a run beyond the snapshots at its day, stay and run boundaries,
/// gathered while it runs so that nothing grows with the run's length: each listing's chart
/// (``ListingChart/Trace``) and, for each KPI window, its cost, peak demand and heater cycles
/// (``KPIReport/Window``).
///
/// Feed it every snapshot and every power transition of a listing in time order, as they are
/// recorded. A window (a listing over the run is one from the start; a stay is opened when it
/// is booked) takes in the snapshots recorded from its start up to now when it opens, so a stay
/// booked after its own check-in moment counts from that moment — provided the caller still
/// holds those snapshots (see ``forget(before:)``).
public struct ReportStream: Sendable {
    public let start: SimInstant, end: SimInstant, interval: SimDuration
    public let calendar: LocalCalendar
    let tariff: Tariff?
    /// The listings, in the order they were given (``listingIndex(_:)``: a run feeds them by position).
    private var listings: [Listing] = []
    private var positions: [String: Int] = [:]
    /// Snapshots and switch-ons before this instant may be gone: a window opened from earlier is incomplete.
    private var forgottenBefore: SimInstant?

    /// One listing's share.
    private struct Listing: Sendable {
        var trace: ListingChart.Trace?
        /// Windows whose end has not passed yet.
        var open: [KPIReport.Window] = []
        /// Windows whose end has passed, by their ends.
        var closed: [WindowKey: KPIReport.Window] = [:]
        /// The listing's heating devices, and whether each is on (a few: looked up by a scan, not a hash).
        var heaters: [String] = []
        var heaterOn: [Bool] = []
        /// Heater switch-ons not yet forgotten, in order.
        var switchOns: [SimInstant] = []
        var lastAt: SimInstant?

        mutating func add(_ snapshot: MeterSnapshot, isTick: Bool, interval: SimDuration, tariff: Tariff?, calendar: LocalCalendar) {
            trace?.add(snapshot)
            guard lastAt.map({ snapshot.at > $0 }) ?? true else { return }
            lastAt = snapshot.at
            let energy = snapshot.totalEnergyKWh
            var index = 0
            while index < open.count {
                open[index].add(at: snapshot.at, energyKWh: energy, isTick: isTick, interval: interval, tariff: tariff, calendar: calendar)
                if open[index].to < snapshot.at {  // a switch-on at its end may still come
                    let window = open.remove(at: index)
                    closed[WindowKey(from: window.from, to: window.to)] = window
                } else {
                    index += 1
                }
            }
        }

        mutating func add(_ transition: PowerTransition) {
            trace?.add(transition)
            guard let heater = heaters.firstIndex(of: transition.device) else { return }
            let on = transition.powerW > 0
            if on, !heaterOn[heater] {
                switchOns.append(transition.at)
                for index in open.indices { open[index].addSwitchOn(at: transition.at) }
            }
            heaterOn[heater] = on
        }
    }

    private struct WindowKey: Hashable, Sendable { let from: SimInstant, to: SimInstant }

    /// A stream for `listings` over `[start, end]`, with a KPI window for each listing over the whole run.
    /// - Parameters:
    ///   - interval: the timeseries tick spacing from `start` (peak demand is measured over one tick).
    ///   - heaters: per listing, the ids of its heating devices (their switch-ons are the heater cycles).
    public init(listings: [String], start: SimInstant, end: SimInstant, interval: SimDuration, calendar: LocalCalendar,
                tariff: Tariff?, heaters: [String: Set<String>]) {
        self.start = start
        self.end = end
        self.interval = interval
        self.calendar = calendar
        self.tariff = tariff
        for id in listings where positions[id] == nil {
            var listing = Listing(trace: start < end ? ListingChart.Trace(start: start, end: end) : nil)
            listing.open = [KPIReport.Window(from: start, to: end)]
            listing.heaters = heaters[id]?.sorted() ?? []
            listing.heaterOn = Array(repeating: false, count: listing.heaters.count)
            positions[id] = self.listings.count
            self.listings.append(listing)
        }
    }

    /// The position of listing `id` among the stream's, for ``add(_:listing:)`` (`nil` when it is not one of them).
    public func listingIndex(_ id: String) -> Int? { positions[id] }

    /// Takes in a snapshot of a listing, later than the listing's snapshots before it (an earlier one is ignored).
    public mutating func add(_ snapshot: MeterSnapshot) {
        guard let index = positions[snapshot.listing] else { return }
        add(snapshot, listing: index)
    }

    /// ``add(_:)`` for the listing at `index` (``listingIndex(_:)`` of `snapshot.listing`), without looking it up.
    public mutating func add(_ snapshot: MeterSnapshot, listing index: Int) {
        let isTick = isTick(snapshot.at)
        // In place: a copy of the listing would copy its chart's points at every snapshot.
        listings[index].add(snapshot, isTick: isTick, interval: interval, tariff: tariff, calendar: calendar)
    }

    /// Takes in a power transition of a listing, not earlier than its transitions before.
    public mutating func add(_ transition: PowerTransition) {
        guard let index = positions[transition.listing] else { return }
        add(transition, listing: index)
    }

    /// ``add(_:)-(PowerTransition)`` for the listing at `index` (``listingIndex(_:)`` of `transition.listing`).
    public mutating func add(_ transition: PowerTransition, listing index: Int) {
        listings[index].add(transition)
    }

    /// Every snapshot and transition of `ledger`, listing by listing in time order: what a run that
    /// recorded that ledger would have fed.
    public mutating func replay(_ ledger: EnergyLedger) {
        for id in ledger.listings where positions[id] != nil {
            let snapshots = ledger.snapshots(listing: id), transitions = ledger.transitions(listing: id)
            var s = 0, t = 0
            while s < snapshots.count || t < transitions.count {
                if t == transitions.count || (s < snapshots.count && snapshots[s].at <= transitions[t].at) {
                    add(snapshots[s])
                    s += 1
                } else {
                    add(transitions[t])
                    t += 1
                }
            }
        }
    }

    /// Opens a KPI window of `listing` over `[from, to]` (nothing when it exists or is empty), taking
    /// in the snapshots `ledger` holds from `from` on and the switch-ons since then.
    public mutating func addWindow(listing id: String, from: SimInstant, to: SimInstant, ledger: EnergyLedger) {
        addWindow(listing: id, from: from, to: to, points: ledger.energyPoints(listing: id, from: from, to: to))
    }

    /// Opens a KPI window of `listing` over `[from, to]` (nothing when it exists or is empty), taking
    /// in `points` — the instant and summed device energy of every snapshot of the listing recorded
    /// in `[from, to]` so far, in time order — and the switch-ons since `from`.
    public mutating func addWindow(listing id: String, from: SimInstant, to: SimInstant,
                                   points: [(at: SimInstant, totalEnergyKWh: Double)]) {
        guard from < to, let index = positions[id] else { return }
        var listing = listings[index]
        guard !listing.closed.keys.contains(WindowKey(from: from, to: to)),
              !listing.open.contains(where: { $0.from == from && $0.to == to }) else { return }
        var window = KPIReport.Window(from: from, to: to)
        if let forgottenBefore, from < forgottenBefore { window.isIncomplete = true }
        for point in points {
            window.add(at: point.at, energyKWh: point.totalEnergyKWh, isTick: isTick(point.at), interval: interval, tariff: tariff,
                       calendar: calendar)
        }
        for at in listing.switchOns { window.addSwitchOn(at: at) }
        if let lastAt = listing.lastAt, to < lastAt {
            listing.closed[WindowKey(from: from, to: to)] = window
        } else {
            listing.open.append(window)
        }
        listings[index] = listing
    }

    /// Drops the switch-ons before `instant`: the caller drops the ledger's snapshots before it too
    /// (but those at window ends), so no window may open from earlier.
    public mutating func forget(before instant: SimInstant) {
        forgottenBefore = max(forgottenBefore ?? instant, instant)
        // In place and in order (the runner forgets once a simulated hour, for every listing).
        for index in listings.indices {
            let stale = listings[index].switchOns.prefix { $0 < instant }.count
            if stale > 0 { listings[index].switchOns.removeFirst(stale) }
        }
    }

    /// The chart trace of `listing`, if it is one of the stream's and the run is not empty.
    public func trace(listing: String) -> ListingChart.Trace? { positions[listing].flatMap { listings[$0].trace } }

    /// The KPI window of `listing` over `[from, to]`.
    /// - Throws: ``ReportsError`` `ledger.noSnapshot` when no such window was opened, or it was opened
    ///   after the snapshots inside it had been dropped.
    func window(listing id: String, from: SimInstant, to: SimInstant) throws(ReportsError) -> KPIReport.Window {
        let listing = positions[id].map { listings[$0] }
        guard let window = listing?.closed[WindowKey(from: from, to: to)] ?? listing?.open.first(where: { $0.from == from && $0.to == to }),
              !window.isIncomplete else {
            throw ReportsError(.noSnapshot,
                               "The KPIs of \"\(id)\" from \(from) to \(to) were not gathered while the run went (the window was opened too late, or never); the runner must open a stay's window when it is booked.")
        }
        return window
    }

    /// Whether `instant` is a timeseries tick (a whole number of intervals after the start).
    private func isTick(_ instant: SimInstant) -> Bool { Self.isTick(instant, start: start, interval: interval) }

    /// Whether `instant` is a whole number of `interval`s after `start` (never for a non-positive interval).
    public static func isTick(_ instant: SimInstant, start: SimInstant, interval: SimDuration) -> Bool {
        interval > .zero && (instant - start).milliseconds % interval.milliseconds == 0
    }
}
