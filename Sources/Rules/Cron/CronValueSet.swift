/// A set of small field values (0–63) as a bit mask: the seconds, minutes, hours, days of the
/// month, months or ISO weekdays a cron field accepts.
struct CronValueSet: Hashable, Sendable {
    /// Bit `n` set ⇔ value `n` is in the set.
    private(set) var bits: UInt64 = 0

    /// The empty set.
    init() {}

    /// Every value in `range` for which `accepts` is true.
    init(_ range: ClosedRange<Int>, where accepts: (Int) -> Bool) {
        for n in range where accepts(n) { bits |= 1 << UInt64(n) }
    }

    /// Whether `value` is in the set.
    func contains(_ value: Int) -> Bool {
        (0..<64).contains(value) && bits & (1 << UInt64(value)) != 0
    }

    /// Whether no value is in the set.
    var isEmpty: Bool { bits == 0 }

    /// Adds every value of `other`.
    mutating func formUnion(_ other: CronValueSet) { bits |= other.bits }

    /// The smallest value `>= value` in the set, or `nil` if there is none.
    /// - Complexity: O(1).
    func first(atOrAfter value: Int) -> Int? {
        guard value < 64 else { return nil }
        let from = max(0, value)
        let rest = bits >> UInt64(from)
        return rest == 0 ? nil : from + rest.trailingZeroBitCount
    }
}
