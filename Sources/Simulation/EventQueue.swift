/// A min-heap of pending events ordered by (time, insertion sequence).
///
/// Equal times pop in the order they were pushed, which is what makes a simulation with many
/// simultaneous events deterministic.
struct EventQueue: Sendable {
    /// One pending firing: when, its tie-breaking sequence number, and which timer it belongs to.
    struct Entry: Sendable {
        var time: SimInstant
        var sequence: UInt64
        var timer: TimerID

        func precedes(_ other: Entry) -> Bool {
            time != other.time ? time < other.time : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []

    /// The number of entries, stale ones (of cancelled timers) included.
    var count: Int { heap.count }

    /// The earliest entry, if any.
    var first: Entry? { heap.first }

    /// Adds an entry. - Complexity: O(log n).
    mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry. - Complexity: O(log n).
    mutating func popFirst() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let result = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return result
    }
}
