@testable import JavaScript
import Testing

extension JavaScriptSuite {
    /// The twin's adaptive spin before it sleeps for a child's answer: spins go on while they pay, stop after
    /// failures, and one wait in 32 probes again.
    @Suite struct NodeChildSpinTests {
        @Test func spinsWhileAnswersComeWithinTheSpin() {
            var policy = NodeChild.SpinPolicy()
            for _ in 0..<1_000 {
                let spins = policy.shouldSpin()
                #expect(spins)
                policy.record(answered: true)
            }
            #expect(policy.credit == NodeChild.SpinPolicy.maxCredit)
        }

        @Test func stopsAfterFailuresAndProbesOneWaitIn32() {
            var policy = NodeChild.SpinPolicy()
            var spins = 0
            // Every spin finds nothing: full credit lasts two failures, then only the probes spin.
            for _ in 0..<(2 + 32 * 10) where policy.shouldSpin() {
                spins += 1
                policy.record(answered: false)
            }
            #expect(spins == 2 + 10)
            #expect(policy.credit == 0)
        }

        @Test func aProbeThatPaysStartsSpinningAgain() {
            var policy = NodeChild.SpinPolicy()
            policy.record(answered: false)
            policy.record(answered: false)
            var waits = 0
            while !policy.shouldSpin() { waits += 1 }
            #expect(waits == NodeChild.SpinPolicy.probeEvery - 1)
            policy.record(answered: true)
            let first = policy.shouldSpin(), second = policy.shouldSpin()
            #expect(first && second)
        }

        @Test func oneFailureInFiveStillSpins() {
            var policy = NodeChild.SpinPolicy()
            for wait in 0..<1_000 {
                let spins = policy.shouldSpin()
                #expect(spins, "wait \(wait)")
                policy.record(answered: wait % 5 != 4)
            }
        }
    }
}
