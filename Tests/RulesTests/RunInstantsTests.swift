import Simulation
import Testing
@testable import Rules

/// A rule's counted runs are kept as runs of equal steps (issue 26: memory must not grow with rule runs);
/// counts in any window equal those of the plain list.
@Suite("Run instants")
struct RunInstantsTests {
    @Test func countsMatchThePlainListInEveryWindow() {
        var generator = SplitMix64(seed: 7)
        var plain: [SimInstant] = []
        var compact = RunInstants()
        var t: Int64 = 1_000_000
        for _ in 0..<2_000 {
            // Mostly regular (a cron), sometimes a burst at one instant, sometimes a jump.
            switch generator.next() % 10 {
            case 0: t += 0
            case 1: t += Int64(generator.next() % 100_000)
            default: t += 1_000
            }
            plain.append(SimInstant(unixMilliseconds: t))
            compact.append(SimInstant(unixMilliseconds: t))
        }
        #expect(compact.count == plain.count)
        for _ in 0..<300 {
            let a = 900_000 + Int64(generator.next() % UInt64(t - 800_000)), b = 900_000 + Int64(generator.next() % UInt64(t - 800_000))
            let from = SimInstant(unixMilliseconds: min(a, b)), to = SimInstant(unixMilliseconds: max(a, b))
            #expect(compact.count(from: from, to: to) == plain.filter { $0 >= from && $0 < to }.count)
            #expect(compact.count(from: from, to: nil) == plain.filter { $0 >= from }.count)
            #expect(compact.count(from: nil, to: to) == plain.filter { $0 < to }.count)
        }
    }
}
