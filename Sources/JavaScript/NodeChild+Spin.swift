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
    /// then spins fail, and after a few failures the twin sleeps at once, trying a spin on every
    /// ``probeEvery``-th message to see whether the machine has gone quiet.
    ///
    /// The probes of both sides fall on the same messages (the child's, in `host.js`, on the message the twin
    /// probes with and the next one): a probe pays only when the other side is awake too, so probes at
    /// independent moments would keep two sides that stopped spinning asleep for good.
    struct SpinPolicy: Sendable, Equatable {
        /// How long one spin reads before the twin sleeps, ns (the hard bound of a wait's spin).
        static let limitNanos: Int64 = 50_000
        /// The most credit a run of answered spins earns.
        static let maxCredit = 8
        /// What a spin that found nothing costs.
        static let failureCost = 4
        /// Without credit, the wait for the answer to every message whose number (from 1, the twin's writes to
        /// the child) is a multiple of this spins anyway (a probe).
        static let probeEvery = 32

        /// Spins are tried while this is above 0; an answered spin adds 1 (up to ``maxCredit``), one that found
        /// nothing takes ``failureCost``: spinning goes on while fewer than one spin in five fails.
        private(set) var credit = maxCredit

        /// Whether the wait for the answer to the twin's `message`-th message (from 1) spins.
        func shouldSpin(message: Int) -> Bool {
            credit > 0 || message % Self.probeEvery == 0
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
