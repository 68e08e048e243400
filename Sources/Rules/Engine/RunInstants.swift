import Simulation

/// The instants of a rule's counted runs, in order, as runs of equal steps: a cron every second for a year
/// is one segment, not 31 million instants (memory must not grow with rule runs).
struct RunInstants: Sendable {
    private struct Segment {
        var start: SimInstant
        var step: Int64
        var count: Int
        var last: SimInstant { SimInstant(unixMilliseconds: start.unixMilliseconds + step * Int64(count - 1)) }
    }
    private var segments: [Segment] = []

    /// All instants kept.
    var count: Int { segments.reduce(0) { $0 + $1.count } }

    mutating func append(_ t: SimInstant) {
        if var last = segments.popLast() {
            let gap = t.unixMilliseconds - last.last.unixMilliseconds
            if last.count == 1, gap >= 0 {
                last.step = gap
                last.count = 2
                segments.append(last)
                return
            }
            if gap == last.step {
                last.count += 1
                segments.append(last)
                return
            }
            segments.append(last)
        }
        segments.append(Segment(start: t, step: 0, count: 1))
    }

    /// How many instants lie in `[from, to)` (either end open when `nil`).
    func count(from: SimInstant?, to: SimInstant?) -> Int {
        var total = 0
        for s in segments {
            // Indices k in 0..<count with from <= start + k·step < to.
            var low = 0, high = s.count
            if s.step == 0 {
                let inside = (from.map { s.start >= $0 } ?? true) && (to.map { s.start < $0 } ?? true)
                total += inside ? s.count : 0
                continue
            }
            if let from {
                let d = from.unixMilliseconds - s.start.unixMilliseconds
                if d > 0 { low = Int(min(Int64(s.count), (d + s.step - 1) / s.step)) }
            }
            if let to {
                let d = to.unixMilliseconds - s.start.unixMilliseconds
                high = d <= 0 ? 0 : Int(min(Int64(s.count), (d + s.step - 1) / s.step))
            }
            total += max(0, high - low)
        }
        return total
    }
}
