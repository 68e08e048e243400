import Reports
import ScenarioFormat
import Simulation

/// One listing's timeseries-tick snapshots not yet forgotten, oldest first: what a stay booked
/// after its own check-in moment still needs (its window's snapshots since that moment), kept out
/// of the ledger, which holds only the snapshots the reports ask about at the end.
///
/// Stored flat in a ``SnapshotColumn``, as the ledger stores its snapshots, so that neither appending
/// nor forgetting allocates or frees a snapshot (a year of 15-minute ticks is 35,040 per listing):
/// forgetting moves a start offset, and the column drops what is forgotten once that is more than half
/// of it. ``MeterSnapshot`` values are made on demand (a late booking).
struct RecentTicks: Sendable {
    private var column = SnapshotColumn()
    /// Snapshots before it are forgotten.
    private var head = 0
    /// The listing of the snapshots (a ring holds one listing's).
    private var listing = ""

    /// How many snapshots are held.
    var count: Int { column.count - head }

    /// Appends `snapshot`, later than every snapshot held.
    mutating func append(_ snapshot: MeterSnapshot) {
        if column.count == head { listing = snapshot.listing }
        column.append(snapshot)
    }

    /// Drops the snapshots taken before `horizon`.
    mutating func forget(before horizon: SimInstant) {
        while head < column.count, column.instant(head) < horizon { head += 1 }
        // Compact once more than half is forgotten: each row and figure is moved at most once on average.
        if head > 0, head * 2 >= column.count {
            column.removeFirst(head)
            head = 0
        }
    }

    /// The `index`-th snapshot held, oldest first.
    subscript(index: Int) -> MeterSnapshot { column.snapshot(head + index, listing: listing) }

    /// The snapshots taken in `[from, to]`, oldest first.
    func snapshots(from: SimInstant, to: SimInstant) -> [MeterSnapshot] {
        var result: [MeterSnapshot] = []
        var index = max(head, column.firstIndex(notBefore: from))
        while index < column.count, column.instant(index) <= to {
            result.append(column.snapshot(index, listing: listing))
            index += 1
        }
        return result
    }
}
