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
///
/// A long run records every listing at every local midnight and stay end (a portfolio year holds
/// hundreds of thousands of snapshots), so the storage is compact: a listing's snapshots are
/// fixed-size rows, their device figures one shared array of plain numbers, and each distinct
/// device list (ids and types) is stored once — about 200 bytes per snapshot of a four-device
/// flat instead of some 450 as separate ``MeterSnapshot`` values with their arrays.
/// ``MeterSnapshot`` values are made on demand.
public struct EnergyLedger: Sendable, Equatable {
    private var columns: [String: SnapshotColumn] = [:]
    private var transitionsByListing: [String: [PowerTransition]] = [:]

    /// Creates an empty ledger.
    public init() {}

    // MARK: Recording

    /// Records `snapshot`, replacing any previous record of the same listing and instant.
    /// - Complexity: O(1) when snapshots arrive in time order, O(*n*) otherwise.
    public mutating func record(_ snapshot: MeterSnapshot) {
        Self.insert(snapshot, into: &columns[snapshot.listing, default: SnapshotColumn()])
    }

    /// Records `transition` after every transition of its listing at the same or an earlier instant.
    /// - Complexity: O(1) when transitions arrive in time order, O(*n*) otherwise.
    public mutating func record(_ transition: PowerTransition) {
        Self.insert(transition, into: &transitionsByListing[transition.listing, default: []])
    }

    // MARK: Contents

    /// Every listing with at least one snapshot or transition, sorted by id.
    public var listings: [String] {
        Set(columns.keys).union(transitionsByListing.keys).sorted()
    }

    /// How many snapshots of `listing` there are.
    public func snapshotCount(listing: String) -> Int { columns[listing]?.count ?? 0 }

    /// The instant of the first snapshot of `listing`, if any.
    public func firstInstant(listing: String) -> SimInstant? { columns[listing]?.rows.first?.at }

    /// The snapshots of `listing` in time order (empty for a listing never recorded).
    public func snapshots(listing: String) -> [MeterSnapshot] {
        guard let column = columns[listing] else { return [] }
        return (0..<column.count).map { column.snapshot($0, listing: listing) }
    }

    /// The snapshots of `listing` taken in `[from, to]`, in time order. - Complexity: O(log *n* + *k*).
    public func snapshots(listing: String, from: SimInstant, to: SimInstant) -> [MeterSnapshot] {
        guard let column = columns[listing] else { return [] }
        let (lower, upper) = column.range(from: from, to: to)
        return (lower..<upper).map { column.snapshot($0, listing: listing) }
    }

    /// The instant and summed device energy (kWh) of each snapshot of `listing` in `[from, to]`, in
    /// time order: what cost and peak need, without making the snapshots.
    public func energyPoints(listing: String, from: SimInstant, to: SimInstant) -> [(at: SimInstant, totalEnergyKWh: Double)] {
        guard let column = columns[listing] else { return [] }
        let (lower, upper) = column.range(from: from, to: to)
        return (lower..<upper).map { (column.rows[$0].at, column.totalEnergyKWh($0)) }
    }

    /// The power transitions of `listing` in time order (empty for a listing never recorded).
    public func transitions(listing: String) -> [PowerTransition] { transitionsByListing[listing] ?? [] }

    /// The snapshot of `listing` taken exactly at `instant`.
    /// - Throws: ``ReportsError`` `ledger.listingUnknown` when the listing was never recorded,
    ///   `ledger.noSnapshot` when it was, but not at `instant`.
    /// - Complexity: O(log *n*) in the listing's snapshots.
    public func snapshot(listing: String, at instant: SimInstant) throws(ReportsError) -> MeterSnapshot {
        let (column, index) = try row(listing: listing, at: instant)
        return column.snapshot(index, listing: listing)
    }

    /// The column of `listing` and the index of its row taken exactly at `instant`.
    /// - Throws: as ``snapshot(listing:at:)``.
    private func row(listing: String, at instant: SimInstant) throws(ReportsError) -> (SnapshotColumn, Int) {
        let column = try self.column(listing)
        return (column, try Self.index(in: column, listing: listing, at: instant))
    }

    /// The snapshots of `listing`. - Throws: ``ReportsError`` `ledger.listingUnknown`.
    private func column(_ listing: String) throws(ReportsError) -> SnapshotColumn {
        guard let column = columns[listing], !column.rows.isEmpty else {
            let known = columns.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw ReportsError(.unknownListing,
                               "The energy ledger has no snapshots of listing \"\(listing)\" (it knows \(known.isEmpty ? "no listings" : known)); check the listing id.")
        }
        return column
    }

    /// The index of the row of `column` taken exactly at `instant`. - Throws: ``ReportsError`` `ledger.noSnapshot`.
    private static func index(in column: SnapshotColumn, listing: String, at instant: SimInstant) throws(ReportsError) -> Int {
        let index = column.firstIndex(notBefore: instant)
        guard index < column.count, column.rows[index].at == instant else {
            throw ReportsError(.noSnapshot,
                               "The energy ledger has no snapshot of \"\(listing)\" at \(instant) (it has \(column.count), from \(column.rows[0].at) to \(column.rows[column.count - 1].at)); the runner must record meters at every instant a report or expectation asks about.")
        }
        return index
    }

    // MARK: Queries

    /// Electric energy drawn over `[from, to]`, kWh: by one device, or by all devices of the listing when `device` is `nil`.
    /// - Throws: ``ReportsError`` when a snapshot at `from` or `to` is missing, the device is
    ///   unknown, or `to` is before `from`.
    public func energyKWh(listing: String, device: String?, from: SimInstant, to: SimInstant) throws(ReportsError) -> Double {
        try deviceDelta(listing: listing, device: device, from: from, to: to, .energyKWh)
    }

    /// Hours spent drawing more than standby power over `[from, to]`: by one device, or summed over all devices when `device` is `nil`.
    /// - Throws: ``ReportsError`` as ``energyKWh(listing:device:from:to:)``.
    public func runtimeHours(listing: String, device: String?, from: SimInstant, to: SimInstant) throws(ReportsError) -> Double {
        try deviceDelta(listing: listing, device: device, from: from, to: to, .activeSeconds) / 3_600
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

    /// Every device of the listing's snapshot at `from`, in its order, with its
    /// ``energyKWh(listing:device:from:to:)`` and ``runtimeHours(listing:device:from:to:)`` over
    /// `[from, to]`: the same figures and errors, the two snapshots read once instead of per device and figure.
    /// - Throws: ``ReportsError`` as those, and `ledger.noSnapshot` for no snapshot at `from`.
    public func deviceFigures(listing: String, from: SimInstant, to: SimInstant) throws(ReportsError)
        -> [(device: DeviceMeter, energyKWh: Double, runtimeHours: Double)] {
        let a = try snapshot(listing: listing, at: from)
        guard !a.devices.isEmpty else { return [] }
        let (_, b) = try ends(listing: listing, from: from, to: to)
        return try a.devices.map { device throws(ReportsError) in
            guard let after = b.device(device.id) else { throw Self.unknownDevice(device.id, listing: listing, in: b) }
            return (device, after.energyKWh - device.energyKWh, (after.activeSeconds - device.activeSeconds) / 3_600)
        }
    }

    // MARK: Helpers

    /// The snapshots at both ends of a window, checking that the window is not backwards.
    private func ends(listing: String, from: SimInstant, to: SimInstant) throws(ReportsError) -> (MeterSnapshot, MeterSnapshot) {
        try checkWindow(listing: listing, from: from, to: to)
        return (try snapshot(listing: listing, at: from), try snapshot(listing: listing, at: to))
    }

    /// Refuses a backwards window.
    private func checkWindow(listing: String, from: SimInstant, to: SimInstant) throws(ReportsError) {
        guard from <= to else {
            throw ReportsError(.invalidWindow,
                               "The ledger window for \"\(listing)\" ends at \(to), before it starts at \(from); swap from and to.")
        }
    }

    /// The change of a cumulative device figure over a window, for one device or all of them.
    /// A cumulative device figure, as a snapshot and as a stored row hold it.
    private enum Figure {
        case energyKWh, activeSeconds

        func of(_ meter: DeviceMeter) -> Double { self == .energyKWh ? meter.energyKWh : meter.activeSeconds }
        func of(_ value: SnapshotColumn.DeviceValue) -> Double { self == .energyKWh ? value.energyKWh : value.activeSeconds }
    }

    private func deviceDelta(listing: String, device: String?, from: SimInstant, to: SimInstant,
                             _ figure: Figure) throws(ReportsError) -> Double {
        guard let device else {
            // All devices: read from the rows, without making snapshots (the timeseries asks this for every row).
            try checkWindow(listing: listing, from: from, to: to)
            let column = try self.column(listing)
            return column.delta(from: try Self.index(in: column, listing: listing, at: from),
                                to: try Self.index(in: column, listing: listing, at: to), figure.of)
        }
        let (a, b) = try ends(listing: listing, from: from, to: to)
        for snapshot in [a, b] where snapshot.device(device) == nil { throw Self.unknownDevice(device, listing: listing, in: snapshot) }
        return (b.device(device).map(figure.of) ?? 0) - (a.device(device).map(figure.of) ?? 0)
    }

    /// `ledger.unknownDevice`: `snapshot` of `listing` has no device `device`.
    private static func unknownDevice(_ device: String, listing: String, in snapshot: MeterSnapshot) -> ReportsError {
        let known = snapshot.devices.map(\.id).joined(separator: ", ")
        return ReportsError(.unknownDevice,
                            "Listing \"\(listing)\" has no device \"\(device)\" in its snapshot at \(snapshot.at) (devices: \(known.isEmpty ? "none" : known)); check the device id.")
    }

    /// Puts `snapshot` in time order into `column` (in place), replacing one at the same instant.
    private static func insert(_ snapshot: MeterSnapshot, into column: inout SnapshotColumn) {
        let row = column.row(for: snapshot)
        if let last = column.rows.last, last.at < snapshot.at {
            column.rows.append(row)
            return
        }
        let index = column.firstIndex(notBefore: snapshot.at)
        if index < column.count, column.rows[index].at == snapshot.at {
            column.rows[index] = row
        } else {
            column.rows.insert(row, at: index)
        }
    }

    /// Puts `transition` into `list` (in place) after every transition at the same or an earlier instant.
    private static func insert(_ transition: PowerTransition, into list: inout [PowerTransition]) {
        var index = list.count
        while index > 0, list[index - 1].at > transition.at { index -= 1 }
        list.insert(transition, at: index)
    }


    // MARK: Equality

    /// Ledgers are equal when they hold the same snapshots and transitions (however they were stored).
    public static func == (a: EnergyLedger, b: EnergyLedger) -> Bool {
        guard a.transitionsByListing == b.transitionsByListing, Set(a.columns.keys) == Set(b.columns.keys) else { return false }
        return a.columns.keys.allSatisfy { a.snapshots(listing: $0) == b.snapshots(listing: $0) }
    }
}

