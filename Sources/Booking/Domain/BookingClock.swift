import Simulation

/// Where the services read "now": the simulation kernel's virtual clock, never the wall clock.
public struct BookingClock: Sendable {
    private let read: @Sendable () -> SimInstant

    /// A clock that reads `read` (tests may pass a fixed instant).
    public init(_ read: @escaping @Sendable () -> SimInstant) { self.read = read }

    /// The kernel's clock.
    public init(kernel: SimulationKernel) { self.read = { kernel.now } }

    /// The current simulated instant.
    public var now: SimInstant { read() }
}
