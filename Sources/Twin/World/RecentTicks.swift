import Reports
import ScenarioFormat
import Simulation

/// One listing's timeseries-tick readings not yet forgotten, oldest first: what a stay booked after
/// its own check-in moment still needs, kept out of the ledger, which holds only the snapshots the
/// reports ask about at the end. Such a stay's KPI window needs the instant and summed device energy
/// of every reading since that moment (``points(from:to:)``), and whole snapshots only at its ends,
/// which are the listing's check-in and check-out moments (or the run's start and end, which the
/// ledger keeps anyway): so only a reading at a moment is kept whole (``append(_:whole:)``).
///
/// Whole snapshots are stored flat in a ``SnapshotColumn``, as the ledger stores its snapshots, so that
/// neither appending nor forgetting allocates or frees a snapshot; the points of a year of 15-minute
/// ticks (35,040 per listing) are two numbers each. Forgetting moves a start offset, and each store drops
/// what is forgotten once that is more than half of it. ``MeterSnapshot`` values are made on demand (a
/// late booking).
struct RecentTicks: Sendable {
    /// The readings kept whole, and the first not forgotten.
    private var column = SnapshotColumn()
    private var head = 0
    /// Every reading's instant and summed device energy (``MeterSnapshot/totalEnergyKWh``), and the first not forgotten.
    private var points: [(at: SimInstant, totalEnergyKWh: Double)] = []
    private var pointsHead = 0
    /// The listing of the snapshots (a ring holds one listing's).
    private var listing = ""

    /// How many readings are held.
    var count: Int { points.count - pointsHead }

    /// How many readings are held whole.
    var wholeCount: Int { column.count - head }

    /// Appends `snapshot`, later than every reading held: its point, and with `whole` the snapshot itself.
    mutating func append(_ snapshot: MeterSnapshot, whole: Bool) {
        points.append((snapshot.at, snapshot.totalEnergyKWh))
        guard whole else { return }
        if column.count == head { listing = snapshot.listing }
        column.append(snapshot)
    }

    /// Drops the readings taken before `horizon`.
    mutating func forget(before horizon: SimInstant) {
        while head < column.count, column.instant(head) < horizon { head += 1 }
        while pointsHead < points.count, points[pointsHead].at < horizon { pointsHead += 1 }
        // Compact once more than half is forgotten: each row, figure and point is moved at most once on average.
        if head > 0, head * 2 >= column.count {
            column.removeFirst(head)
            head = 0
        }
        if pointsHead > 0, pointsHead * 2 >= points.count {
            points.removeFirst(pointsHead)
            pointsHead = 0
        }
    }

    /// The `index`-th snapshot held whole, oldest first.
    subscript(index: Int) -> MeterSnapshot { column.snapshot(head + index, listing: listing) }

    /// The snapshots held whole taken in `[from, to]`, oldest first.
    func snapshots(from: SimInstant, to: SimInstant) -> [MeterSnapshot] {
        var result: [MeterSnapshot] = []
        var index = max(head, column.firstIndex(notBefore: from))
        while index < column.count, column.instant(index) <= to {
            result.append(column.snapshot(index, listing: listing))
            index += 1
        }
        return result
    }

    /// The instant and summed device energy of every reading held taken in `[from, to]`, oldest first.
    func points(from: SimInstant, to: SimInstant) -> [(at: SimInstant, totalEnergyKWh: Double)] {
        var low = pointsHead, high = points.count
        while low < high {
            let mid = (low + high) / 2
            if points[mid].at < from { low = mid + 1 } else { high = mid }
        }
        var result: [(at: SimInstant, totalEnergyKWh: Double)] = []
        while low < points.count, points[low].at <= to {
            result.append(points[low])
            low += 1
        }
        return result
    }
}
