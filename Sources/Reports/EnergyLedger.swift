import Simulation

/// The exact meter snapshots and power transitions of a run, and the figures they answer.
///
/// The scenario runner records a ``MeterSnapshot`` of every listing at each instant a report
/// or expectation needs; because snapshots hold cumulative integrals, every query is the exact
/// difference of the two snapshots at the window's ends — there is no interpolation. A query
/// for an instant without a snapshot throws ``ReportsError`` `ledger.noSnapshot` rather than
/// guessing.
///
/// Snapshots are kept per listing in time order; recording the same listing and instant twice
/// keeps the later record. Power transitions are kept per listing in time order, equal times in
/// recording order.
public struct EnergyLedger: Sendable, Equatable {
    private var snapshotsByListing: [String: [MeterSnapshot]] = [:]
    private var transitionsByListing: [String: [PowerTransition]] = [:]

    /// Creates an empty ledger.
    public init() {}

    // MARK: Recording

    /// Records `snapshot`, replacing any previous record of the same listing and instant.
    /// - Complexity: O(1) when snapshots arrive in time order, O(*n*) otherwise.
    public mutating func record(_ snapshot: MeterSnapshot) {
        Self.insert(snapshot, into: &snapshotsByListing[snapshot.listing, default: []])
    }

    /// Records `transition` after every transition of its listing at the same or an earlier instant.
    /// - Complexity: O(1) when transitions arrive in time order, O(*n*) otherwise.
    public mutating func record(_ transition: PowerTransition) {
        Self.insert(transition, into: &transitionsByListing[transition.listing, default: []])
    }

    // MARK: Contents

    /// Every listing with at least one snapshot or transition, sorted by id.
    public var listings: [String] {
        Set(snapshotsByListing.keys).union(transitionsByListing.keys).sorted()
    }

    /// The snapshots of `listing` in time order (empty for a listing never recorded).
    public func snapshots(listing: String) -> [MeterSnapshot] { snapshotsByListing[listing] ?? [] }

    /// The snapshots of `listing` taken in `[from, to]`, in time order. - Complexity: O(log *n*).
    public func snapshots(listing: String, from: SimInstant, to: SimInstant) -> ArraySlice<MeterSnapshot> {
        let list = snapshotsByListing[listing] ?? []
        let lower = Self.firstIndex(in: list, notBefore: from)
        let upper = Self.firstIndex(in: list, notBefore: to + .milliseconds(1))
        return list[lower..<max(lower, upper)]
    }

    /// The power transitions of `listing` in time order (empty for a listing never recorded).
    public func transitions(listing: String) -> [PowerTransition] { transitionsByListing[listing] ?? [] }

    /// The snapshot of `listing` taken exactly at `instant`.
    /// - Throws: ``ReportsError`` `ledger.listingUnknown` when the listing was never recorded,
    ///   `ledger.noSnapshot` when it was, but not at `instant`.
    /// - Complexity: O(log *n*) in the listing's snapshots.
    public func snapshot(listing: String, at instant: SimInstant) throws(ReportsError) -> MeterSnapshot {
        guard let list = snapshotsByListing[listing], !list.isEmpty else {
            let known = snapshotsByListing.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw ReportsError(.unknownListing,
                               "The energy ledger has no snapshots of listing \"\(listing)\" (it knows \(known.isEmpty ? "no listings" : known)); check the listing id.")
        }
        let index = Self.firstIndex(in: list, notBefore: instant)
        guard index < list.count, list[index].at == instant else {
            throw ReportsError(.noSnapshot,
                               "The energy ledger has no snapshot of \"\(listing)\" at \(instant) (it has \(list.count), from \(list[0].at) to \(list[list.count - 1].at)); the runner must record meters at every instant a report or expectation asks about.")
        }
        return list[index]
    }

    // MARK: Queries

    /// Electric energy drawn over `[from, to]`, kWh: by one device, or by all devices of the listing when `device` is `nil`.
    /// - Throws: ``ReportsError`` when a snapshot at `from` or `to` is missing, the device is
    ///   unknown, or `to` is before `from`.
    public func energyKWh(listing: String, device: String?, from: SimInstant, to: SimInstant) throws(ReportsError) -> Double {
        try deviceDelta(listing: listing, device: device, from: from, to: to) { $0.energyKWh }
    }

    /// Hours spent drawing more than standby power over `[from, to]`: by one device, or summed over all devices when `device` is `nil`.
    /// - Throws: ``ReportsError`` as ``energyKWh(listing:device:from:to:)``.
    public func runtimeHours(listing: String, device: String?, from: SimInstant, to: SimInstant) throws(ReportsError) -> Double {
        try deviceDelta(listing: listing, device: device, from: from, to: to) { $0.activeSeconds } / 3_600
    }

    /// Degree-hours below the comfort temperature while guests were present over `[from, to]`, K·h.
    /// - Throws: ``ReportsError`` when a snapshot is missing or `to` is before `from`.
    public func discomfortKh(listing: String, from: SimInstant, to: SimInstant) throws(ReportsError) -> Double {
        let (a, b) = try ends(listing: listing, from: from, to: to)
        return (b.discomfortKs - a.discomfortKs) / 3_600
    }

    /// Hours with guests present over `[from, to]`.
    /// - Throws: ``ReportsError`` when a snapshot is missing or `to` is before `from`.
    public func occupiedHours(listing: String, from: SimInstant, to: SimInstant) throws(ReportsError) -> Double {
        let (a, b) = try ends(listing: listing, from: from, to: to)
        return (b.occupiedSeconds - a.occupiedSeconds) / 3_600
    }

    /// The time-weighted mean room temperature over `[from, to]`, °C.
    ///
    /// For an empty window (`from == to`) this is the room temperature at that instant, the
    /// limit of the mean as the window shrinks.
    /// - Throws: ``ReportsError`` when a snapshot is missing or `to` is before `from`.
    public func meanIndoorC(listing: String, from: SimInstant, to: SimInstant) throws(ReportsError) -> Double {
        let (a, b) = try ends(listing: listing, from: from, to: to)
        let seconds = (to - from).seconds
        guard seconds > 0 else { return a.indoorC }
        return (b.temperatureIntegralKs - a.temperatureIntegralKs) / seconds
    }

    // MARK: Helpers

    /// The snapshots at both ends of a window, checking that the window is not backwards.
    private func ends(listing: String, from: SimInstant, to: SimInstant) throws(ReportsError) -> (MeterSnapshot, MeterSnapshot) {
        guard from <= to else {
            throw ReportsError(.invalidWindow,
                               "The ledger window for \"\(listing)\" ends at \(to), before it starts at \(from); swap from and to.")
        }
        return (try snapshot(listing: listing, at: from), try snapshot(listing: listing, at: to))
    }

    /// The change of a cumulative device figure over a window, for one device or all of them.
    private func deviceDelta(listing: String, device: String?, from: SimInstant, to: SimInstant,
                             _ value: (DeviceMeter) -> Double) throws(ReportsError) -> Double {
        let (a, b) = try ends(listing: listing, from: from, to: to)
        guard let device else {
            return b.devices.reduce(0) { sum, meter in sum + value(meter) - (a.device(meter.id).map(value) ?? 0) }
        }
        for snapshot in [a, b] where snapshot.device(device) == nil {
            let known = snapshot.devices.map(\.id).joined(separator: ", ")
            throw ReportsError(.unknownDevice,
                               "Listing \"\(listing)\" has no device \"\(device)\" in its snapshot at \(snapshot.at) (devices: \(known.isEmpty ? "none" : known)); check the device id.")
        }
        return (b.device(device).map(value) ?? 0) - (a.device(device).map(value) ?? 0)
    }

    /// Puts `snapshot` in time order into `list` (in place), replacing one at the same instant.
    private static func insert(_ snapshot: MeterSnapshot, into list: inout [MeterSnapshot]) {
        if let last = list.last, last.at < snapshot.at {
            list.append(snapshot)
            return
        }
        let index = firstIndex(in: list, notBefore: snapshot.at)
        if index < list.count, list[index].at == snapshot.at {
            list[index] = snapshot
        } else {
            list.insert(snapshot, at: index)
        }
    }

    /// Puts `transition` into `list` (in place) after every transition at the same or an earlier instant.
    private static func insert(_ transition: PowerTransition, into list: inout [PowerTransition]) {
        var index = list.count
        while index > 0, list[index - 1].at > transition.at { index -= 1 }
        list.insert(transition, at: index)
    }

    /// The index of the first snapshot at or after `instant` (binary search).
    private static func firstIndex(in list: [MeterSnapshot], notBefore instant: SimInstant) -> Int {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid].at < instant { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
