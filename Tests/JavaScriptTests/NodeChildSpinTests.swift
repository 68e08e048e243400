@testable import JavaScript
import Testing

extension JavaScriptSuite {
    /// The twin's adaptive spin before it sleeps for a child's answer: spins go on while they pay, stop after
    /// failures, and the answer to every 32nd message probes again (where the child's probes fall too).
    @Suite struct NodeChildSpinTests {
        @Test func spinsWhileAnswersComeWithinTheSpin() {
            var policy = NodeChild.SpinPolicy()
            for message in 1...1_000 {
                #expect(policy.shouldSpin(message: message))
                policy.record(answered: true)
            }
            #expect(policy.credit == NodeChild.SpinPolicy.maxCredit)
        }

        @Test func stopsAfterFailuresAndProbesEvery32ndMessage() {
            var policy = NodeChild.SpinPolicy()
            var spun: [Int] = []
            // Every spin finds nothing: full credit lasts two failures, then only the probes spin.
            for message in 1...(32 * 10 + 5) where policy.shouldSpin(message: message) {
                spun.append(message)
                policy.record(answered: false)
            }
            #expect(spun == [1, 2] + (1...10).map { $0 * 32 })
            #expect(policy.credit == 0)
        }

        @Test func aProbeThatPaysStartsSpinningAgain() {
            var policy = NodeChild.SpinPolicy()
            policy.record(answered: false)
            policy.record(answered: false)
            #expect(!policy.shouldSpin(message: 33))
            #expect(policy.shouldSpin(message: 64))
            policy.record(answered: true)
            #expect(policy.shouldSpin(message: 65) && policy.shouldSpin(message: 66))
        }

        @Test func oneFailureInFiveStillSpins() {
            var policy = NodeChild.SpinPolicy()
            for message in 1...1_000 {
                #expect(policy.shouldSpin(message: message), "message \(message)")
                policy.record(answered: message % 5 != 0)
            }
        }
    }
}
