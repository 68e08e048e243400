/// Identifies a scheduled one-shot or recurring event; pass it to ``SimulationKernel/cancel(_:)``.
public struct TimerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The kernel-assigned number, unique within one kernel.
    public let rawValue: UInt64

    init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: TimerID, rhs: TimerID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "timer#\(rawValue)" }
    /// The bucket word for hashed collections (``StableHash/bucket(_:seed:)``), one mixing step
    /// instead of a full `Hasher` round per look-up.
    public func _rawHashValue(seed: Int) -> Int { StableHash.bucket(rawValue, seed: seed) }
}
