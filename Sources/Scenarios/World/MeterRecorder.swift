import Booking
import Devices
import Reports
import Simulation
import SmartHome
import Synchronization

/// Takes exact meter snapshots of every listing's zone at every instant that reports and
/// expectations need — the start, each local midnight, each expectation's `at`/`from`/`to`, the
/// end, and (for reports) every timeseries tick — and of a stay's listing at the stay's check-in
/// and check-out moments (one listing, so the work is not listings × bookings); and, for
/// reports, takes each zone's power changes (its devices' switching) with its readings.
///
/// Snapshots of cumulative integrals are exact at any instant, so their differences give exact
/// per-day and per-stay figures; nothing is sampled and summed.
///
/// With reports, what grows with the run's length is not kept: each tick's `timeseries.csv` rows
/// are written as the tick is recorded (to a ``TextSpool``), charts and KPI windows gather in a
/// ``ReportStream`` (a stay's window opens when it is booked, through a reservation observer), and
/// once a simulated day the ledger drops the tick snapshots older than 26 hours but those at
/// days', stays', expectations' and the run's ends. (26 hours: a stay may be booked on its
/// check-in day after its check-in moment, and its window then counts from that moment.)
final class MeterRecorder: Sendable {
    private struct State: Sendable {
        var ledger = EnergyLedger()
        /// With reports: charts and KPI windows, the timeseries rows not yet spooled, what is kept.
        var stream: ReportStream?
        var timeseries: CSVWriter?
        /// Every listing's snapshot at the first tick (the start), in listing-id order: energy counts from there.
        var tickStarts: [MeterSnapshot] = []
        var ticksWritten = 0
        var timeseriesFailure: ReportsError?
        /// Instants every listing's snapshot is kept at, and per listing its stays' window ends.
        var anchors: Set<SimInstant> = []
        var stayAnchors: [String: Set<SimInstant>] = [:]
        var lastPrune: SimInstant = .epoch
    }

    private let storage = Mutex(State())
    private let spool = TextSpool()
    let calendar: LocalCalendar
    /// How far back tick snapshots are kept (a late booking's window must still find its start).
    static let keptTicks = SimDuration.hours(26)

    init(calendar: LocalCalendar) { self.calendar = calendar }

    /// The ledger recorded so far.
    var ledger: EnergyLedger { storage.withLock { $0.ledger } }

    /// What a run with reports gathered for them (`nil` without reports); the timeseries rows recorded
    /// so far are spooled first.
    var reports: RecordedReports? {
        storage.withLock { state -> RecordedReports? in
            guard let stream = state.stream, let text = state.timeseries?.takeText() else { return nil }
            spool.append(text)
            return RecordedReports(stream: stream, timeseries: spool, ticksWritten: state.ticksWritten,
                                   timeseriesFailure: state.timeseriesFailure)
        }
    }

    /// A stay's check-in and check-out moments, in the scenario's time zone.
    static func stayWindow(listing: ListingSpec, checkIn: CivilDate, checkOut: CivilDate, calendar: LocalCalendar) -> (SimInstant, SimInstant) {
        (calendar.resolvedInstant(for: LocalDateTime(date: checkIn, time: listing.checkInTime)),
         calendar.resolvedInstant(for: LocalDateTime(date: checkOut, time: listing.checkOutTime)))
    }

    /// Schedules the snapshots (one kernel event per distinct instant) and, with an interval, has the
    /// zones log their power changes and adds the reservation observer that opens each stay's KPI window.
    func install(scenario: Scenario, kernel: SimulationKernel, zones: [String: ThermalZone],
                 reservations: ReservationService, interval: SimDuration?) async throws {
        // Instants every listing is snapshotted at: start, end, local midnights, expectations, timeseries ticks.
        var instants: Set<SimInstant> = [scenario.start, scenario.end]
        // Local midnights.
        var day = calendar.date(at: scenario.start).adding(days: 1)
        while calendar.startOfDay(day) < scenario.end {
            instants.insert(calendar.startOfDay(day))
            day = day.adding(days: 1)
        }
        for e in scenario.expectations {
            if let at = e.at { instants.insert(at) }
            switch e.check {
            case .energy(_, _, let from, let to, _, _), .discomfort(_, let from, let to, _):
                if let from { instants.insert(from) }
                if let to { instants.insert(to) }
            default: break
            }
        }
        let anchors = instants
        let listings = scenario.listings
        var heaters: [String: Set<String>] = [:]
        for listing in listings {
            heaters[listing.id] = Set(listing.devices.compactMap { device in
                if case .heating = device.kind { return device.id } else { return nil }
            })
        }
        storage.withLock { state in
            state.anchors = anchors
            state.lastPrune = scenario.start
            if let interval, interval > .zero {
                state.stream = ReportStream(listings: listings.map(\.id), start: scenario.start, end: scenario.end, interval: interval,
                                            calendar: calendar, tariff: scenario.tariff, heaters: heaters)
                state.timeseries = CSVWriter(header: TimeseriesReport.header)
            }
        }
        let sortedZones = listings.compactMap { l in zones[l.id].map { (l, $0) } }
        let position = Dictionary(sortedZones.enumerated().map { ($0.element.0.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        // Stay windows of every booking the timeline makes: only that booking's listing is snapshotted
        // (all of them would cost listings × bookings).
        var stayInstants: [SimInstant: Set<Int>] = [:]
        for step in scenario.timeline {
            guard case .book(_, _, let listingID, let checkIn, let checkOut, _) = step.action,
                  let index = position[listingID] else { continue }
            let (from, to) = Self.stayWindow(listing: sortedZones[index].0, checkIn: checkIn, checkOut: checkOut, calendar: calendar)
            stayInstants[from, default: []].insert(index)
            stayInstants[to, default: []].insert(index)
        }
        // One chained kernel event per distinct instant, in order — the fixed instants and, with an
        // interval, every tick — holding only the next one (a year of ticks is not queued up front).
        let start = scenario.start, end = scenario.end
        let fixed = anchors.union(stayInstants.keys).filter { $0 >= start && $0 <= end }.sorted()
        let step = interval.flatMap { $0 > .zero ? $0 : nil }
        // A tick's snapshots in listing-id order: the timeseries' row order.
        let idOrder = sortedZones.indices.sorted { sortedZones[$0].0.id < sortedZones[$1].0.id }
        let dueAtStay = stayInstants.mapValues { $0.sorted().map { sortedZones[$0] } }
        @Sendable func isTick(_ instant: SimInstant) -> Bool {
            step.map { ReportStream.isTick(instant, start: start, interval: $0) } ?? false
        }
        @Sendable func next(after instant: SimInstant) -> SimInstant? {
            var low = 0, high = fixed.count
            while low < high {
                let mid = (low + high) / 2
                if fixed[mid] <= instant { low = mid + 1 } else { high = mid }
            }
            var candidate = low < fixed.count ? fixed[low] : nil
            if let step {
                let tick = start + .milliseconds(((instant - start).milliseconds / step.milliseconds + 1) * step.milliseconds)
                if tick <= end, candidate.map({ tick < $0 }) ?? true { candidate = tick }
            }
            return candidate
        }
        kernel.schedule(at: start, then: next, label: "meters") { [self] instant in
            let tick = isTick(instant)
            let due = tick || anchors.contains(instant) ? sortedZones : dueAtStay[instant] ?? []
            var meters: [(ListingSpec, ZoneMeter)] = []
            meters.reserveCapacity(due.count)
            for (listing, zone) in due { meters.append((listing, await zone.meter())) }
            recorded(meters, at: instant, tickOrder: tick ? idOrder : nil, start: start)
        }
        guard interval != nil else { return }
        // Power transitions for the charts and heater cycles: the zones log their devices' switching
        // and hand it out with each meter reading (no bus events, no extra kernel events).
        for (_, zone) in sortedZones { await zone.logPowerChanges() }
        // Every stay, however it is booked (timeline, calendar feed, API), opens its KPI window.
        let specs = Dictionary(listings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        reservations.addObserver(StayWindows(recorder: self, listings: specs, start: scenario.start, end: scenario.end))
    }

    /// A stay of `listing` over `[windowStart, windowEnd]` was booked: its ends are kept and its KPI window opens.
    fileprivate func stayBooked(listing: String, windowStart: SimInstant, windowEnd: SimInstant, start: SimInstant, end: SimInstant) {
        storage.withLock { state in
            let from = max(windowStart, start), to = min(windowEnd, end)
            state.stayAnchors[listing, default: []].formUnion([windowStart, windowEnd, from, to])
            state.stream?.addWindow(listing: listing, from: from, to: to, ledger: state.ledger)
        }
    }

    /// Records the meters read at `instant`; at a tick (its snapshots taken in `tickOrder`, listing-id
    /// order), appends the timeseries rows; once a day, prunes.
    private func recorded(_ meters: [(ListingSpec, ZoneMeter)], at instant: SimInstant, tickOrder: [Int]?, start: SimInstant) {
        let snapshots = meters.map { Self.snapshot($0.1, listing: $0.0) }
        storage.withLock { state in
            for (index, snapshot) in snapshots.enumerated() {
                state.ledger.record(snapshot)
                // The listing's switching since its previous reading, then the reading.
                for change in meters[index].1.powerChanges {
                    state.stream?.add(PowerTransition(at: change.at, listing: snapshot.listing, device: change.device, powerW: change.powerW))
                }
                state.stream?.add(snapshot)
            }
            guard state.stream != nil else { return }
            if let tickOrder, state.timeseriesFailure == nil, state.timeseries != nil {
                if instant == start { state.tickStarts = tickOrder.map { snapshots[$0] } }
                do throws(ReportsError) {
                    guard state.tickStarts.count == tickOrder.count else {
                        throw ReportsError(.noSnapshot, "The timeseries has no snapshots at its start \(start) to count energy from; the runner must record the first tick at the start.")
                    }
                    let time = calendar.timestamp(at: instant)
                    for (index, position) in tickOrder.enumerated() {
                        try TimeseriesReport.appendRow(&state.timeseries!, time: time, snapshots[position], since: state.tickStarts[index])
                    }
                    state.ticksWritten += 1
                } catch {
                    state.timeseriesFailure = error
                }
                if (state.timeseries?.text.utf8.count ?? 0) >= 1 << 18, let piece = state.timeseries?.takeText() {
                    spool.append(piece)
                }
            }
            if instant - state.lastPrune >= .hours(24) {
                state.lastPrune = instant
                let horizon = instant - Self.keptTicks
                let anchors = state.anchors, stayAnchors = state.stayAnchors
                state.ledger.prune(before: horizon) { listing, at in anchors.contains(at) || stayAnchors[listing]?.contains(at) == true }
                state.stream?.forget(before: horizon)
            }
        }
    }

    private static func snapshot(_ meter: ZoneMeter, listing: ListingSpec) -> MeterSnapshot {
        var devices = meter.devices.map { d in
            DeviceMeter(id: d.id, type: d.kind.rawValue, isOn: d.isOn, powerW: d.powerW, energyKWh: d.energyKWh,
                        activeSeconds: d.activeSeconds)
        }
        for device in listing.devices where device.kind.typeName == "lock" {
            devices.append(DeviceMeter(id: device.id, type: "lock", isOn: false, powerW: 0, energyKWh: 0, activeSeconds: 0))
        }
        return MeterSnapshot(at: meter.at, listing: listing.id, indoorC: meter.indoorC, outdoorC: meter.outdoorC,
                             guests: meter.guests, temperatureIntegralKs: meter.temperatureIntegralKs,
                             discomfortKs: meter.discomfortKs, occupiedSeconds: meter.occupiedSeconds,
                             devices: devices)  // MeterSnapshot sorts them by id
    }
}

/// Opens a stay's KPI window and keeps its snapshots when the stay is booked.
private struct StayWindows: ReservationObserver {
    let recorder: MeterRecorder
    let listings: [String: ListingSpec]
    let start: SimInstant, end: SimInstant

    func reservationDidChange(_ reservation: Reservation, previous: ReservationStatus?) async {
        guard previous == nil, let listing = listings[reservation.listing.rawValue] else { return }
        let (from, to) = MeterRecorder.stayWindow(listing: listing, checkIn: reservation.checkIn, checkOut: reservation.checkOut,
                                                  calendar: recorder.calendar)
        recorder.stayBooked(listing: listing.id, windowStart: from, windowEnd: to, start: start, end: end)
    }
}

/// What a run with reports gathered for them while it ran, besides its ledger.
public struct RecordedReports: Sendable {
    /// Charts and KPI windows.
    let stream: ReportStream
    /// `timeseries.csv`, header first, one tick's rows after another.
    let timeseries: TextSpool
    /// Ticks whose rows are in ``timeseries``.
    let ticksWritten: Int
    /// Why the timeseries stopped, if it did (a broken meter).
    let timeseriesFailure: ReportsError?
}
