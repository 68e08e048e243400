/// One numeric term of a cron field: a value, a range `a-b` or a step `a/n`, `a-b/n`, `*/n`.
///
/// Follows openHAB's CronAdjuster: a step with a single start (`5/15`) runs to the field's
/// maximum, and a range whose start is above its end wraps (`50-10` in minutes is 50–59 and
/// 0–10; `14-02/2` in seconds is 14, 16, …, 58, 0, 2).
struct CronRange: Hashable, Sendable {
    /// The first value.
    var start: Int
    /// The last value (below ``start`` for a wrapping range).
    var end: Int
    /// The step, or `nil` for every value.
    var step: Int?

    /// Whether `value` is in the term.
    func contains(_ value: Int) -> Bool {
        let inside = start <= end ? (value >= start && value <= end) : (value >= start || value <= end)
        guard inside else { return false }
        guard let step else { return true }
        return (value - start) % step == 0
    }
}

extension CronRange {
    /// The smallest value `>= value` in the term, or `nil` if there is none (used to jump years).
    func first(atOrAfter value: Int) -> Int? {
        let stride = Swift.max(1, abs(step ?? 1))
        func aligned(_ from: Int) -> Int {
            let r = ((from - start) % stride + stride) % stride
            return r == 0 ? from : from + stride - r
        }
        if start <= end {
            let n = aligned(Swift.max(value, start))
            return n <= end ? n : nil
        }
        if value <= end {
            let n = aligned(value)
            if n <= end { return n }
        }
        return aligned(Swift.max(value, start))
    }
}
