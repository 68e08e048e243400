import ScenarioFormat
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
/// the ledger takes a tick's snapshots only at days', stays', expectations' and the run's ends.
/// The other ticks of the last 26 hours wait in each listing's ``RecentTicks``, forgotten once a
/// simulated hour. (26 hours: a stay may be booked on its check-in day after its check-in moment,
/// and its window then counts from that moment; its ends then move from the ticks to the ledger.)
final class MeterRecorder: Sendable {
    private struct State: Sendable {
        var ledger = EnergyLedger()
        /// With reports: charts and KPI windows, the timeseries rows not yet spooled, what is kept.
        var stream: ReportStream?
        /// `timeseries.csv` rows not yet spooled, as UTF-8 (the header first).
        var timeseries: [UInt8]?
        /// Every listing's snapshot at the first tick (the start), in listing-id order: energy counts from there.
        var tickStarts: [MeterSnapshot] = []
        /// Every listing's id as a timeseries field, in listing-id order (made once, not per row).
        var listingFields: [TimeseriesReport.Field] = []
        var ticksWritten = 0
        /// The ticks' `time` texts.
        var timestamps: LocalCalendar.Timestamps?
        var timeseriesFailure: ReportsError?
        /// Instants every listing's snapshot is kept at, and per listing its stays' window ends (with all of them in one set).
        var anchors: Set<SimInstant> = []
        var stayAnchors: [String: Set<SimInstant>] = [:]
        var anyStayAnchor: Set<SimInstant> = []
        /// With reports: per listing, in listing-id order, its tick snapshots of the last 26 hours or so.
        var recent: [RecentTicks] = []
        var recentIndex: [String: Int] = [:]
        /// Per listing, by its place among the zones read (``Metered/position``): its ring in `recent`, its place in `stream`.
        var recentSlots: [Int] = []
        var streamSlots: [Int] = []
        /// Per listing, by its place among the zones read: its latest snapshot, overwritten in place by the next
        /// reading of the same devices (no snapshot is made and freed per listing and tick).
        var latest: [MeterSnapshot?] = []
        var lastForget: SimInstant = .epoch
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
            guard let stream = state.stream, state.timeseries != nil else { return nil }
            let text = TimeseriesReport.takeText(&state.timeseries!)
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
            state.lastForget = scenario.start
            if let interval, interval > .zero {
                state.stream = ReportStream(listings: listings.map(\.id), start: scenario.start, end: scenario.end, interval: interval,
                                            calendar: calendar, tariff: scenario.tariff, heaters: heaters)
                state.timeseries = TimeseriesReport.headerLine
                state.timestamps = LocalCalendar.Timestamps(calendar: calendar)
            }
        }
        let sortedZones = listings.compactMap { l in zones[l.id].map { (l, $0) } }.enumerated().map { position, listing in
            Metered(spec: listing.0, zone: listing.1, locks: listing.0.devices.filter { $0.kind.typeName == "lock" }.map(\.id).sorted(),
                    position: position)
        }
        let position = Dictionary(sortedZones.enumerated().map { ($0.element.spec.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        // Stay windows of every booking the timeline makes: only that booking's listing is snapshotted
        // (all of them would cost listings × bookings).
        var stayInstants: [SimInstant: Set<Int>] = [:]
        for step in scenario.timeline {
            guard case .book(_, _, let listingID, let checkIn, let checkOut, _) = step.action,
                  let index = position[listingID] else { continue }
            let (from, to) = Self.stayWindow(listing: sortedZones[index].spec, checkIn: checkIn, checkOut: checkOut, calendar: calendar)
            stayInstants[from, default: []].insert(index)
            stayInstants[to, default: []].insert(index)
        }
        // One chained kernel event per distinct instant, in order — the fixed instants and, with an
        // interval, every tick — holding only the next one (a year of ticks is not queued up front).
        let start = scenario.start, end = scenario.end
        let fixed = anchors.union(stayInstants.keys).filter { $0 >= start && $0 <= end }.sorted()
        let step = interval.flatMap { $0 > .zero ? $0 : nil }
        // A tick's snapshots in listing-id order: the timeseries' row order.
        let idOrder = sortedZones.indices.sorted { sortedZones[$0].spec.id < sortedZones[$1].spec.id }
        storage.withLock { $0.latest = Array(repeating: nil, count: sortedZones.count) }
        if step != nil {
            storage.withLock { state in
                state.recent = Array(repeating: RecentTicks(), count: idOrder.count)
                state.listingFields = idOrder.map { TimeseriesReport.Field(sortedZones[$0].spec.id) }
                state.recentIndex = Dictionary(idOrder.enumerated().map { (sortedZones[$0.element].spec.id, $0.offset) },
                                               uniquingKeysWith: { first, _ in first })
                state.recentSlots = sortedZones.map { state.recentIndex[$0.spec.id] ?? 0 }
                if let stream = state.stream { state.streamSlots = sortedZones.map { stream.listingIndex($0.spec.id) ?? -1 } }
            }
        }
        let dueAtStay = stayInstants.mapValues { Set($0.map { sortedZones[$0].spec.id }) }
        // With reports, every listing's check-in and check-out moment of every local day: a stay booked
        // while the run goes on (a calendar feed, the API) has its window ends there, and they need not be
        // ticks (a start at 10:04 puts the ticks at :04, :19, …). Those snapshots wait in the recent ring
        // like ticks; a stay booked before the moment keeps its snapshot in the ledger, one booked after
        // it finds the snapshot in the ring (issue 26: such a stay's report failed for want of it).
        var listingsByTime: [LocalTime: [Int]] = [:]
        if step != nil {
            for (index, metered) in sortedZones.enumerated() {
                for time in Set([metered.spec.checkInTime, metered.spec.checkOutTime]) { listingsByTime[time, default: []].append(index) }
            }
        }
        // Every such moment from the day before the start's to the day after the end's, worked out once
        // (not at every tick): a moment is within a day of its date, so these are all that a run's
        // instants can meet or wait for.
        var listingsAt: [SimInstant: Set<Int>] = [:]
        if !listingsByTime.isEmpty {
            var day = calendar.date(at: scenario.start).adding(days: -1)
            let lastDay = calendar.date(at: scenario.end).adding(days: 1)
            while day <= lastDay {
                for (time, indices) in listingsByTime {
                    listingsAt[calendar.resolvedInstant(for: LocalDateTime(date: day, time: time)), default: []].formUnion(indices)
                }
                day = day.adding(days: 1)
            }
        }
        let momentListings = listingsAt
        let momentInstants = listingsAt.keys.sorted()
        /// The first moment after `instant`.
        @Sendable func nextMoment(after instant: SimInstant) -> SimInstant? {
            var low = 0, high = momentInstants.count
            while low < high {
                let mid = (low + high) / 2
                if momentInstants[mid] <= instant { low = mid + 1 } else { high = mid }
            }
            return low < momentInstants.count ? momentInstants[low] : nil
        }
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
            if let moment = nextMoment(after: instant), moment <= end, candidate.map({ moment < $0 }) ?? true { candidate = moment }
            return candidate
        }
        kernel.schedule(at: start, then: next, label: "meters") { [self] instant in
            let tick = isTick(instant)
            let everyListing = tick || anchors.contains(instant)
            let moments = momentListings[instant] ?? []
            let atMoment = everyListing ? [] : moments
            let stays = dueAtStay[instant] ?? []
            let due = everyListing ? sortedZones : sortedZones.indices.filter { atMoment.contains($0) || stays.contains(sortedZones[$0].id) }.map { sortedZones[$0] }
            var readings: [ZoneMeter] = []
            readings.reserveCapacity(due.count)
            for metered in due { readings.append(metered.zone.meterNow()) }
            recorded(due, readings, at: instant, tickOrder: tick ? idOrder : nil, start: start, everyListing: everyListing, timelineStays: stays,
                     moments: moments)
        }
        guard interval != nil else { return }
        // Power transitions for the charts and heater cycles: the zones log their devices' switching
        // and hand it out with each meter reading (no bus events, no extra kernel events).
        for metered in sortedZones { await metered.zone.logPowerChanges() }
        // Every stay, however it is booked (timeline, calendar feed, API), opens its KPI window.
        let specs = Dictionary(listings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        reservations.addObserver(StayWindows(recorder: self, listings: specs, start: scenario.start, end: scenario.end))
    }

    /// A stay of `listing` over `[windowStart, windowEnd]` was booked: its ends are kept (those already
    /// past move from the recent ticks to the ledger) and its KPI window opens with what was recorded since its start.
    fileprivate func stayBooked(listing: String, windowStart: SimInstant, windowEnd: SimInstant, start: SimInstant, end: SimInstant) {
        storage.withLock { state in
            let from = max(windowStart, start), to = min(windowEnd, end)
            let ends: Set<SimInstant> = [windowStart, windowEnd, from, to]
            state.stayAnchors[listing, default: []].formUnion(ends)
            state.anyStayAnchor.formUnion(ends)
            guard state.stream != nil else { return }
            // The window's ends among the recent readings go to the ledger: the ring keeps a reading whole at the
            // listing's check-in and check-out moments, and the other ends (the run's start and end) are there already.
            let ring = state.recentIndex[listing]
            let whole = ring.map { state.recent[$0].snapshots(from: from, to: to) } ?? []
            for snapshot in whole where ends.contains(snapshot.at) { state.ledger.record(snapshot) }
            // The window's snapshots so far in time order: the ledger's (day ends and the like) and the recent readings, once each.
            var points = state.ledger.energyPoints(listing: listing, from: from, to: to)
            let held = Set(points.map(\.at))
            points += (ring.map { state.recent[$0].points(from: from, to: to) } ?? []).filter { !held.contains($0.at) }
            points.sort { $0.at < $1.at }
            state.stream?.addWindow(listing: listing, from: from, to: to, points: points)
        }
    }

    /// Records the meters of `due` read at `instant` (`readings`, in the same order); at a tick (its
    /// snapshots taken in `tickOrder`, listing-id order), keeps them as recent ticks and appends the
    /// timeseries rows; once an hour, forgets the ticks older than ``keptTicks``.
    /// A snapshot at neither a tick nor an anchor is a timeline stay's end (`timelineStays`: to the ledger)
    /// or a listing's check-in or check-out moment (to its recent ring, and to the ledger if a stay booked
    /// so far ends there). `moments`: the listings (by ``Metered/position``) whose check-in or check-out
    /// moment `instant` is, whose recent reading is kept whole (a late stay's ends are such moments).
    private func recorded(_ due: [Metered], _ readings: [ZoneMeter], at instant: SimInstant, tickOrder: [Int]?, start: SimInstant,
                          everyListing: Bool, timelineStays: Set<String>, moments: Set<Int>) {
        storage.withLock { state in
            for (index, metered) in due.enumerated() { Self.record(readings[index], of: metered, into: &state.latest[metered.position]) }
            // The ledger takes every snapshot but a tick's or a moment's that no report asks about at the end.
            let keepAll = everyListing && (tickOrder == nil || state.anchors.contains(instant))
            let maybeStayEnd = !keepAll && state.anyStayAnchor.contains(instant)
            // A tick keeps its snapshots as recent ticks, and so does a check-in or check-out moment.
            let toRing = !state.recent.isEmpty && (tickOrder != nil || !everyListing)
            // A tick's timeseries rows, in `tickOrder`, counting energy from the snapshots at the start.
            var rows: (time: TimeseriesReport.Field, tickOrder: [Int])?
            let timeseries = state.stream != nil && tickOrder != nil && state.timeseriesFailure == nil && state.timeseries != nil
            if timeseries, let tickOrder {
                if instant == start { state.tickStarts = tickOrder.map { state.latest[$0]! } }
                if state.tickStarts.count == tickOrder.count {
                    rows = (TimeseriesReport.Field(state.timestamps!.timestamp(at: instant)), tickOrder)
                } else {
                    state.timeseriesFailure = ReportsError(.noSnapshot, "The timeseries has no snapshots at its start \(start) to count energy from; the runner must record the first tick at the start.")
                }
            }
            // Listing by listing: a tick's in listing-id order (its rows' order; a tick reads every zone, so its
            // places among the zones read are `tickOrder`'s), else in the order read. Each snapshot is moved out
            // of `latest` while it is recorded and put back after, so none is copied.
            let order = tickOrder ?? due.map(\.position)
            for (offset, position) in order.enumerated() {
                let reading = tickOrder == nil ? offset : position
                let listing = due[reading].id
                guard let snapshot = state.latest[position].take() else { continue }
                if toRing { state.recent[state.recentSlots[position]].append(snapshot, whole: moments.contains(position)) }
                let kept = keepAll || !timelineStays.isEmpty && timelineStays.contains(listing)
                    || maybeStayEnd && state.stayAnchors[listing]?.contains(instant) == true
                if kept { state.ledger.record(snapshot) }
                // The listing's switching since its previous reading, then the reading (a moment's snapshot
                // that no stay asks about, yet, waits in the ring only: charts keep their tick points).
                let slot = state.streamSlots.isEmpty ? -1 : state.streamSlots[position]
                if state.stream != nil, slot >= 0 {
                    for change in readings[reading].powerChanges {
                        state.stream!.add(PowerTransition(at: change.at, listing: listing, device: change.device, powerW: change.powerW),
                                          listing: slot)
                    }
                    if kept || tickOrder != nil { state.stream!.add(snapshot, listing: slot) }
                }
                if let tick = rows {
                    do throws(ReportsError) {
                        try TimeseriesReport.appendRow(&state.timeseries!, time: tick.time, listing: state.listingFields[offset], snapshot,
                                                       since: state.tickStarts[offset])
                    } catch {
                        state.timeseriesFailure = error
                        rows = nil
                    }
                }
                state.latest[position] = snapshot
            }
            guard state.stream != nil else { return }
            if timeseries {
                if rows != nil { state.ticksWritten += 1 }
                if (state.timeseries?.count ?? 0) >= 1 << 18 { spool.append(TimeseriesReport.takeText(&state.timeseries!)) }
            }
            if instant - state.lastForget >= .hours(1) {
                state.lastForget = instant
                let horizon = instant - Self.keptTicks
                for index in state.recent.indices { state.recent[index].forget(before: horizon) }
                state.stream?.forget(before: horizon)
            }
        }
    }

    /// A listing whose zone is read, with its locks' ids, sorted (locks have no meters, but snapshots list them).
    /// A class: a reading's list of these is copied at every meter instant, and a listing spec is a large value.
    private final class Metered: Sendable {
        let spec: ListingSpec
        let zone: ThermalZone
        let locks: [String]
        /// Its place among the zones read (the listings' order in the scenario).
        let position: Int
        /// The listing id, apart: reading it from `spec` at every reading would copy the whole spec.
        let id: String

        init(spec: ListingSpec, zone: ThermalZone, locks: [String], position: Int) {
            self.spec = spec
            self.zone = zone
            self.locks = locks
            self.position = position
            self.id = spec.id
        }
    }

    /// Puts `meter`'s reading into `latest`: in place when it holds a snapshot of the same devices in the
    /// same order (the usual case: a zone's devices do not change), else as a new snapshot.
    private static func record(_ meter: ZoneMeter, of metered: Metered, into latest: inout MeterSnapshot?) {
        if latest != nil, overwrite(&latest!, with: meter, locks: metered.locks) { return }
        latest = snapshot(meter, of: metered)
    }

    /// Writes `meter`'s figures over `snapshot`'s, device by device, when `snapshot` has the zone's devices
    /// (same ids and types, in order) and the listing's locks at the places ``snapshot(_:of:)`` puts them;
    /// `false` (`snapshot` then partly written) when it has not.
    private static func overwrite(_ snapshot: inout MeterSnapshot, with meter: ZoneMeter, locks: [String]) -> Bool {
        guard snapshot.devices.count == meter.devices.count + locks.count else { return false }
        var zoneDevice = 0, lock = 0
        for index in snapshot.devices.indices {
            // Ids are unique within a listing, so a lock's slot is told from a zone device's by its id.
            if lock < locks.count, snapshot.devices[index].id == locks[lock], snapshot.devices[index].type == "lock" {
                lock += 1
                continue
            }
            guard zoneDevice < meter.devices.count else { return false }
            let d = meter.devices[zoneDevice]
            guard snapshot.devices[index].id == d.id, snapshot.devices[index].type == d.kind.rawValue else { return false }
            snapshot.devices[index].isOn = d.isOn
            snapshot.devices[index].powerW = d.powerW
            snapshot.devices[index].energyKWh = d.energyKWh
            snapshot.devices[index].activeSeconds = d.activeSeconds
            zoneDevice += 1
        }
        guard zoneDevice == meter.devices.count, lock == locks.count else { return false }
        snapshot.at = meter.at
        snapshot.indoorC = meter.indoorC
        snapshot.outdoorC = meter.outdoorC
        snapshot.guests = meter.guests
        snapshot.temperatureIntegralKs = meter.temperatureIntegralKs
        snapshot.discomfortKs = meter.discomfortKs
        snapshot.occupiedSeconds = meter.occupiedSeconds
        return true
    }

    private static func snapshot(_ meter: ZoneMeter, of metered: Metered) -> MeterSnapshot {
        // The zone's devices come sorted by id; the locks go in at their places, so the snapshot need not sort them again.
        let locks = metered.locks
        var devices: [DeviceMeter] = []
        devices.reserveCapacity(meter.devices.count + locks.count)
        var lock = 0
        for d in meter.devices {
            while lock < locks.count, locks[lock] < d.id {
                devices.append(DeviceMeter(id: locks[lock], type: "lock", isOn: false, powerW: 0, energyKWh: 0, activeSeconds: 0))
                lock += 1
            }
            devices.append(DeviceMeter(id: d.id, type: d.kind.rawValue, isOn: d.isOn, powerW: d.powerW, energyKWh: d.energyKWh,
                                       activeSeconds: d.activeSeconds))
        }
        for id in locks[lock...] {
            devices.append(DeviceMeter(id: id, type: "lock", isOn: false, powerW: 0, energyKWh: 0, activeSeconds: 0))
        }
        return MeterSnapshot(at: meter.at, listing: metered.id, indoorC: meter.indoorC, outdoorC: meter.outdoorC,
                             guests: meter.guests, temperatureIntegralKs: meter.temperatureIntegralKs,
                             discomfortKs: meter.discomfortKs, occupiedSeconds: meter.occupiedSeconds,
                             devices: devices)
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
    package let stream: ReportStream
    /// `timeseries.csv`, header first, one tick's rows after another.
    package let timeseries: TextSpool
    /// Ticks whose rows are in ``timeseries``.
    package let ticksWritten: Int
    /// Why the timeseries stopped, if it did (a broken meter).
    package let timeseriesFailure: ReportsError?
}
