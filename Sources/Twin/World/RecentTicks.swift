import Reports
import ScenarioFormat
import Simulation

/// One listing's timeseries-tick snapshots not yet forgotten, oldest first: what a stay booked
/// after its own check-in moment still needs (its window's snapshots since that moment), kept out
/// of the ledger, which holds only the snapshots the reports ask about at the end.
///
/// Stored flat, as the ledger stores its snapshots: fixed-size rows, their device figures in one
/// array of plain numbers, and each distinct device list (ids and types) once. Appending copies a
/// snapshot's numbers in and forgetting moves a start offset, so neither allocates nor frees a
/// snapshot (a year of 15-minute ticks is 35,040 per listing); the arrays are compacted when more
/// than half of them is forgotten. ``MeterSnapshot`` values are made on demand (a late booking).
struct RecentTicks: Sendable {
    /// A snapshot's figures without its device list.
    private struct Row: Sendable {
        var at: SimInstant
        var indoorC: Double, outdoorC: Double
        var temperatureIntegralKs: Double, discomfortKs: Double, occupiedSeconds: Double
        var guests: Int
        var layout: Int
        /// The index of its first device figure in `values`, counted from the first figure ever appended.
        var first: Int
    }

    private struct DeviceKey: Sendable { var id: String, type: String }
    private struct DeviceValue: Sendable { var powerW: Double, energyKWh: Double, activeSeconds: Double, isOn: Bool }

    /// The rows; those before `head` are forgotten.
    private var rows: [Row] = []
    private var head = 0
    /// Device figures; `values[0]` is figure number `valueBase`.
    private var values: [DeviceValue] = []
    private var valueBase = 0
    /// The distinct device lists the rows refer to (few: usually one).
    private var layouts: [[DeviceKey]] = []
    /// The listing of the snapshots (a ring holds one listing's).
    private var listing = ""

    /// How many snapshots are held.
    var count: Int { rows.count - head }

    /// Appends `snapshot`, later than every snapshot held.
    mutating func append(_ snapshot: MeterSnapshot) {
        if rows.count == head { listing = snapshot.listing }
        let devices = snapshot.devices
        let layout: Int
        if let last = layouts.indices.last, Self.matches(layouts[last], devices) {
            layout = last
        } else if let found = layouts.indices.first(where: { Self.matches(layouts[$0], devices) }) {
            layout = found
        } else {
            layouts.append(devices.map { DeviceKey(id: $0.id, type: $0.type) })
            layout = layouts.count - 1
        }
        let first = valueBase + values.count
        for device in devices {
            values.append(DeviceValue(powerW: device.powerW, energyKWh: device.energyKWh, activeSeconds: device.activeSeconds, isOn: device.isOn))
        }
        rows.append(Row(at: snapshot.at, indoorC: snapshot.indoorC, outdoorC: snapshot.outdoorC,
                        temperatureIntegralKs: snapshot.temperatureIntegralKs, discomfortKs: snapshot.discomfortKs,
                        occupiedSeconds: snapshot.occupiedSeconds, guests: snapshot.guests, layout: layout, first: first))
    }

    /// Drops the snapshots taken before `horizon`.
    mutating func forget(before horizon: SimInstant) {
        while head < rows.count, rows[head].at < horizon { head += 1 }
        // Compact once more than half is forgotten: each row and figure is moved at most once on average.
        if head > 0, head * 2 >= rows.count {
            let keptFirst = head < rows.count ? rows[head].first : valueBase + values.count
            rows.removeFirst(head)
            head = 0
            values.removeFirst(keptFirst - valueBase)
            valueBase = keptFirst
        }
    }

    /// The `index`-th snapshot held, oldest first.
    subscript(index: Int) -> MeterSnapshot { snapshot(row: rows[head + index]) }

    /// The snapshots taken in `[from, to]`, oldest first.
    func snapshots(from: SimInstant, to: SimInstant) -> [MeterSnapshot] {
        var result: [MeterSnapshot] = []
        var index = firstIndex(notBefore: from)
        while index < rows.count, rows[index].at <= to {
            result.append(snapshot(row: rows[index]))
            index += 1
        }
        return result
    }

    /// Whether `keys` are `devices`' ids and types, in order.
    private static func matches(_ keys: [DeviceKey], _ devices: [DeviceMeter]) -> Bool {
        guard keys.count == devices.count else { return false }
        for index in keys.indices where keys[index].id != devices[index].id || keys[index].type != devices[index].type { return false }
        return true
    }

    private func snapshot(row: Row) -> MeterSnapshot {
        let keys = layouts[row.layout]
        var devices: [DeviceMeter] = []
        devices.reserveCapacity(keys.count)
        for (offset, key) in keys.enumerated() {
            let value = values[row.first - valueBase + offset]
            devices.append(DeviceMeter(id: key.id, type: key.type, isOn: value.isOn, powerW: value.powerW, energyKWh: value.energyKWh,
                                       activeSeconds: value.activeSeconds))
        }
        return MeterSnapshot(at: row.at, listing: listing, indoorC: row.indoorC, outdoorC: row.outdoorC, guests: row.guests,
                             temperatureIntegralKs: row.temperatureIntegralKs, discomfortKs: row.discomfortKs,
                             occupiedSeconds: row.occupiedSeconds, devices: devices)
    }

    /// The index in `rows` of the first snapshot held taken at or after `instant` (binary search).
    private func firstIndex(notBefore instant: SimInstant) -> Int {
        var low = head, high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid].at < instant { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
