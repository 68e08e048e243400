import Devices
import Reports
import Simulation
import SmartHome
import Synchronization

/// Takes exact meter snapshots of every listing's zone at every instant that reports and
/// expectations need — the start, each local midnight, each expectation's `at`/`from`/`to`, the
/// end, and (for reports) every timeseries tick — and of a stay's listing at the stay's check-in
/// and check-out moments (one listing, so the work is not listings × bookings); and,
/// for charts, records power transitions from the openHAB event bus.
///
/// Snapshots of cumulative integrals are exact at any instant, so their differences give exact
/// per-day and per-stay figures; nothing is sampled and summed.
final class MeterRecorder: Sendable {
    private let storage = Mutex(EnergyLedger())
    let calendar: LocalCalendar

    init(calendar: LocalCalendar) { self.calendar = calendar }

    /// The ledger recorded so far.
    var ledger: EnergyLedger { storage.withLock { $0 } }

    /// Schedules the snapshots (one kernel event per distinct instant) and, with an interval, the bus listener.
    func install(scenario: Scenario, kernel: SimulationKernel, zones: [String: ThermalZone], runtime: OpenHABRuntime,
                 interval: SimDuration?) async throws {
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
        if let interval, interval > .zero {
            var tick = scenario.start
            while tick <= scenario.end {
                instants.insert(tick)
                tick = tick + interval
                if instants.count % 65_536 == 0 { try Task.checkCancellation() }  // decades of ticks take a while
            }
        }
        let listings = scenario.listings
        let sortedZones = listings.compactMap { l in zones[l.id].map { (l, $0) } }
        let position = Dictionary(sortedZones.enumerated().map { ($0.element.0.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        // Stay windows of every booking the timeline makes: only that booking's listing is snapshotted
        // (all of them would cost listings × bookings).
        var stayInstants: [SimInstant: Set<Int>] = [:]
        for step in scenario.timeline {
            guard case .book(_, _, let listingID, let checkIn, let checkOut, _) = step.action,
                  let index = position[listingID] else { continue }
            let listing = sortedZones[index].0
            stayInstants[calendar.resolvedInstant(for: LocalDateTime(date: checkIn, time: listing.checkInTime)), default: []].insert(index)
            stayInstants[calendar.resolvedInstant(for: LocalDateTime(date: checkOut, time: listing.checkOutTime)), default: []].insert(index)
        }
        for (index, instant) in instants.union(stayInstants.keys).sorted().enumerated() where instant >= scenario.start && instant <= scenario.end {
            if index % 65_536 == 65_535 { try Task.checkCancellation() }
            let due = instants.contains(instant) ? sortedZones : (stayInstants[instant] ?? []).sorted().map { sortedZones[$0] }
            kernel.schedule(at: instant, label: "meters") { [self] _ in
                for (listing, zone) in due {
                    let meter = await zone.meter()
                    record(meter, listing: listing)
                }
            }
        }
        guard interval != nil else { return }
        // Power transitions for the charts: `listing_device_power` Item changes.
        var powerItems: [String: (listing: String, device: String)] = [:]
        for listing in listings {
            for device in listing.devices where device.kind.channels.contains("power") {
                powerItems[World.itemName("\(listing.id)/\(device.id)/power")] = (listing.id, device.id)
            }
        }
        let lookup = powerItems
        // Only the power Items: every other state change is then never scheduled for delivery.
        let topics = powerItems.keys.sorted().map { "openhab/items/\($0)/statechanged" }
        runtime.events.subscribe(EventFilter(topics: topics)) { [self] event in
            guard case .itemStateChanged(let name, let state, _, _, _) = event.kind, let owner = lookup[name.rawValue],
                  let watts = Double(state.description.split(separator: " ").first ?? "") else { return }
            let transition = PowerTransition(at: kernel.now, listing: owner.listing, device: owner.device, powerW: watts)
            storage.withLock { $0.record(transition) }
        }
    }

    private func record(_ meter: ZoneMeter, listing: ListingSpec) {
        var devices = meter.devices.map { d in
            DeviceMeter(id: d.id, type: d.kind.rawValue, isOn: d.isOn, powerW: d.powerW, energyKWh: d.energyKWh,
                        activeSeconds: d.activeSeconds)
        }
        for device in listing.devices where device.kind.typeName == "lock" {
            devices.append(DeviceMeter(id: device.id, type: "lock", isOn: false, powerW: 0, energyKWh: 0, activeSeconds: 0))
        }
        let snapshot = MeterSnapshot(at: meter.at, listing: listing.id, indoorC: meter.indoorC, outdoorC: meter.outdoorC,
                                     guests: meter.guests, temperatureIntegralKs: meter.temperatureIntegralKs,
                                     discomfortKs: meter.discomfortKs, occupiedSeconds: meter.occupiedSeconds,
                                     devices: devices)  // MeterSnapshot sorts them by id
        storage.withLock { $0.record(snapshot) }
    }
}
