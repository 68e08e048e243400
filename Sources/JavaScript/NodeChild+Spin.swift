#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension NodeChild {
    /// Whether the twin reads its pipe without sleeping before it sleeps in `poll` ("spin while spins pay", as
    /// an adaptive mutex does): a pure state machine, one per child, fed with how each spin ended.
    ///
    /// On an idle machine a sleeping reader costs a wake-up of an idle core per hand-over; a short spin finds
    /// the answer awake. Under load a spin takes a core the child (or another job) needs, and answers come late:
    /// then spins fail, and after a few failures the twin sleeps at once, trying one spin in ``probeEvery`` waits
    /// to see whether the machine has gone quiet.
    struct SpinPolicy: Sendable, Equatable {
        /// How long one spin reads before the twin sleeps, ns (the hard bound of a wait's spin).
        static let limitNanos: Int64 = 50_000
        /// The most credit a run of answered spins earns.
        static let maxCredit = 8
        /// What a spin that found nothing costs.
        static let failureCost = 4
        /// Without credit, one wait in this many spins anyway (a probe).
        static let probeEvery = 32

        /// Spins are tried while this is above 0; an answered spin adds 1 (up to ``maxCredit``), one that found
        /// nothing takes ``failureCost``: spinning goes on while fewer than one spin in five fails.
        private(set) var credit = maxCredit
        private var waitsWithoutSpin = 0

        /// Whether this wait spins (counts the waits without credit towards the next probe).
        mutating func shouldSpin() -> Bool {
            if credit > 0 { return true }
            waitsWithoutSpin += 1
            guard waitsWithoutSpin >= Self.probeEvery else { return false }
            waitsWithoutSpin = 0
            return true
        }

        /// Records how a spin ended: with the answer read, or with nothing after ``limitNanos``.
        mutating func record(answered: Bool) {
            credit = answered ? min(credit + 1, Self.maxCredit) : max(credit - Self.failureCost, 0)
        }
    }

    /// The monotonic clock in nanoseconds.
    static func monotonicNanos() -> Int64 {  // wall-clock: bounds a spin, never drives the simulation
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
