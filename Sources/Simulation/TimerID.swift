/// Identifies a scheduled one-shot or recurring event; pass it to ``SimulationKernel/cancel(_:)``.
public struct TimerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The kernel-assigned number, unique within one kernel.
    public let rawValue: UInt64

    init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: TimerID, rhs: TimerID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "timer#\(rawValue)" }
}
