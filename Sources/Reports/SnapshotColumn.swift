import Simulation

/// One listing's meter snapshots stored flat: fixed-size rows, their device figures in one array of plain
/// numbers, each distinct device list (ids and types) once; ``MeterSnapshot`` values are made on demand.
///
/// The one compact snapshot store: the ``EnergyLedger`` keeps a column per listing (about 200 bytes per
/// snapshot of a four-device flat instead of some 450), and the runner keeps the last ticks of each listing
/// in one (`RecentTicks`), dropping the oldest with ``removeFirst(_:)``.
public struct SnapshotColumn: Sendable {
    /// Fixed-size rows in time order.
    var rows: [Row] = []
    /// Device figures, appended per recorded snapshot (a replaced snapshot's stay unused); `values[0]` is
    /// figure number ``valueBase`` (figures before it went with ``removeFirst(_:)``).
    var values: [DeviceValue] = []
    var valueBase = 0
    /// The distinct device lists (id and type, sorted by id) the rows refer to.
    var layouts: [[DeviceKey]] = []

    /// A snapshot's figures without its device list.
    struct Row: Sendable {
        var at: SimInstant
        var indoorC: Double, outdoorC: Double
        var temperatureIntegralKs: Double, discomfortKs: Double, occupiedSeconds: Double
        var guests: Int32
        var layout: Int32
        /// The number of its first device figure (its index in `values` plus ``valueBase``).
        var first: Int
    }

    struct DeviceKey: Sendable, Hashable { var id: String, type: String }
    struct DeviceValue: Sendable { var powerW: Double, energyKWh: Double, activeSeconds: Double, isOn: Bool }

    /// An empty column.
    public init() {}

    /// How many snapshots it holds.
    public var count: Int { rows.count }

    /// When snapshot `index` was taken.
    public func instant(_ index: Int) -> SimInstant { rows[index].at }

    /// Appends `snapshot`, taken after every snapshot held.
    public mutating func append(_ snapshot: MeterSnapshot) {
        rows.append(row(for: snapshot))
    }

    /// Drops the `count` oldest snapshots and their figures (of a column filled by ``append(_:)``, in time order).
    public mutating func removeFirst(_ count: Int) {
        guard count > 0 else { return }
        let keptFirst = count < rows.count ? rows[count].first : valueBase + values.count
        rows.removeFirst(count)
        values.removeFirst(keptFirst - valueBase)
        valueBase = keptFirst
    }

    /// The row and its device list for `snapshot`, its figures appended to `values`.
    mutating func row(for snapshot: MeterSnapshot) -> Row {
        // Few distinct lists per listing (usually one): the newest first, compared in place, field by field
        // (a zip of the two arrays copied out and destroyed each pair).
        let devices = snapshot.devices
        func matches(_ keys: [DeviceKey]) -> Bool {
            guard keys.count == devices.count else { return false }
            for index in keys.indices where keys[index].id != devices[index].id || keys[index].type != devices[index].type {
                return false
            }
            return true
        }
        var layout = layouts.count - 1
        while layout >= 0, !matches(layouts[layout]) { layout -= 1 }
        if layout < 0 {
            layouts.append(devices.map { DeviceKey(id: $0.id, type: $0.type) })
            layout = layouts.count - 1
        }
        let first = valueBase + values.count
        for index in devices.indices {  // one by one: no array made per snapshot, no device copied out
            values.append(DeviceValue(powerW: devices[index].powerW, energyKWh: devices[index].energyKWh,
                                      activeSeconds: devices[index].activeSeconds, isOn: devices[index].isOn))
        }
        return Row(at: snapshot.at, indoorC: snapshot.indoorC, outdoorC: snapshot.outdoorC,
                   temperatureIntegralKs: snapshot.temperatureIntegralKs, discomfortKs: snapshot.discomfortKs,
                   occupiedSeconds: snapshot.occupiedSeconds, guests: Int32(clamping: snapshot.guests),
                   layout: Int32(layout), first: first)
    }

    /// The snapshot of row `index`.
    public func snapshot(_ index: Int, listing: String) -> MeterSnapshot {
        let row = rows[index]
        let keys = layouts[Int(row.layout)]
        var devices: [DeviceMeter] = []
        devices.reserveCapacity(keys.count)
        for (offset, key) in keys.enumerated() {
            let value = values[row.first - valueBase + offset]
            devices.append(DeviceMeter(id: key.id, type: key.type, isOn: value.isOn, powerW: value.powerW,
                                       energyKWh: value.energyKWh, activeSeconds: value.activeSeconds))
        }
        return MeterSnapshot(at: row.at, listing: listing, indoorC: row.indoorC, outdoorC: row.outdoorC, guests: Int(row.guests),
                             temperatureIntegralKs: row.temperatureIntegralKs, discomfortKs: row.discomfortKs,
                             occupiedSeconds: row.occupiedSeconds, devices: devices)
    }

    /// The summed device energy of row `index`, kWh, summed in device-id order as ``MeterSnapshot/totalEnergyKWh``.
    func totalEnergyKWh(_ index: Int) -> Double {
        let row = rows[index]
        var total = 0.0
        for offset in 0..<layouts[Int(row.layout)].count { total += values[row.first - valueBase + offset].energyKWh }
        return total
    }

    /// Σ over row `b`'s devices of value(at `b`) − value(at `a`), a device missing at `a` counting 0,
    /// summed in `b`'s device order — what ``EnergyLedger/energyKWh(listing:device:from:to:)`` with no
    /// device means.
    @inline(__always)
    func delta(from a: Int, to b: Int, _ value: (DeviceValue) -> Double) -> Double {
        let rowA = rows[a], rowB = rows[b]
        let keysA = layouts[Int(rowA.layout)], keysB = layouts[Int(rowB.layout)]
        var sum = 0.0
        for (offset, key) in keysB.enumerated() {
            let offsetA = rowA.layout == rowB.layout ? offset : keysA.firstIndex { $0.id == key.id }
            sum = sum + value(values[rowB.first - valueBase + offset]) - (offsetA.map { value(values[rowA.first - valueBase + $0]) } ?? 0)
        }
        return sum
    }

    /// The rows in `[from, to]`, as an index range.
    func range(from: SimInstant, to: SimInstant) -> (Int, Int) {
        let lower = firstIndex(notBefore: from)
        return (lower, max(lower, firstIndex(notBefore: to + .milliseconds(1))))
    }

    /// The index of the first row at or after `instant` (binary search).
    public func firstIndex(notBefore instant: SimInstant) -> Int {
        var low = 0, high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid].at < instant { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
