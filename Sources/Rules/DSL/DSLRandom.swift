import Synchronization

/// A `java.util.Random`: Java's 48-bit linear congruential generator, so `new Random(42).nextInt(10)` gives what
/// Java gives (`java.util.Random`'s documented algorithm).
final class DSLRandom: Sendable {
    private struct State {
        var seed: Int64
    }
    private let state: Mutex<State>
    private static let multiplier: Int64 = 0x5_DEEC_E66D
    private static let mask: Int64 = (1 << 48) - 1

    init(seed: Int64) { state = Mutex(State(seed: (seed ^ Self.multiplier) & Self.mask)) }

    func setSeed(_ seed: Int64) { state.withLock { $0 = State(seed: (seed ^ Self.multiplier) & Self.mask) } }

    /// `next(bits)`.
    func next(_ bits: Int) -> Int32 {
        state.withLock { s in
            s.seed = (s.seed &* Self.multiplier &+ 0xB) & Self.mask
            return Int32(truncatingIfNeeded: s.seed >> (48 - bits))
        }
    }

    func nextInt() -> Int32 { next(32) }

    func nextInt(bound: Int32) -> Int32 {
        var r = next(31)
        let m = bound &- 1
        if bound & m == 0 { return Int32(truncatingIfNeeded: (Int64(bound) &* Int64(r)) >> 31) }
        var u = r
        while true {
            r = u % bound
            if u &- r &+ m >= 0 { return r }
            u = next(31)
        }
    }

    /// Java 17's `nextInt(origin, bound)` (`RandomSupport.boundedNextInt`).
    func nextInt(origin: Int32, bound: Int32) -> Int32 {
        var r = nextInt()
        let n = bound &- origin, m = n &- 1
        if n & m == 0 { return (r & m) &+ origin }
        if n > 0 {
            var u = Int32(bitPattern: UInt32(bitPattern: r) >> 1)
            while true {
                r = u % n
                if u &+ m &- r >= 0 { return r &+ origin }
                u = Int32(bitPattern: UInt32(bitPattern: nextInt()) >> 1)
            }
        }
        while r < origin || r >= bound { r = nextInt() }
        return r
    }

    func nextLong() -> Int64 { (Int64(next(32)) << 32) &+ Int64(next(32)) }
    func nextBoolean() -> Bool { next(1) != 0 }
    func nextDouble() -> Double { Double((Int64(next(26)) << 27) + Int64(next(27))) * 0x1.0p-53 }
}
