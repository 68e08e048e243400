import Reports
import ScenarioFormat
import Simulation

/// One listing's timeseries-tick snapshots not yet forgotten, oldest first: what a stay booked
/// after its own check-in moment still needs (its window's snapshots since that moment), kept out
/// of the ledger, which holds only the snapshots the reports ask about at the end.
///
/// A ring: appending and forgetting the oldest cost O(1), whatever the run's length.
struct RecentTicks: Sendable {
    private var slots: [MeterSnapshot?] = []
    /// Each slot's instant, apart: ``forget(before:)`` reads it without copying a snapshot out of its slot.
    private var instants: [SimInstant] = []
    private var head = 0
    private(set) var count = 0

    /// Appends `snapshot`, later than every snapshot held.
    mutating func append(_ snapshot: MeterSnapshot) {
        if count == slots.count {
            // Full: the same snapshots in order, with room for as many again.
            var grown: [MeterSnapshot?] = (0..<count).map { self[$0] }
            grown.append(contentsOf: repeatElement(nil, count: max(count, 8)))
            instants = grown.map { $0?.at ?? .epoch }
            slots = grown
            head = 0
        }
        let slot = (head + count) % slots.count
        instants[slot] = snapshot.at
        slots[slot] = snapshot
        count += 1
    }

    /// Drops the snapshots taken before `horizon`.
    mutating func forget(before horizon: SimInstant) {
        while count > 0, instants[head] < horizon {
            slots[head] = nil
            head = (head + 1) % slots.count
            count -= 1
        }
    }

    /// The `index`-th snapshot held, oldest first.
    subscript(index: Int) -> MeterSnapshot { slots[(head + index) % slots.count]! }

    /// The snapshots taken in `[from, to]`, oldest first.
    func snapshots(from: SimInstant, to: SimInstant) -> [MeterSnapshot] {
        var result: [MeterSnapshot] = []
        var index = firstIndex(notBefore: from)
        while index < count, self[index].at <= to {
            result.append(self[index])
            index += 1
        }
        return result
    }

    /// The index of the first snapshot taken at or after `instant` (binary search).
    private func firstIndex(notBefore instant: SimInstant) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if self[mid].at < instant { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
