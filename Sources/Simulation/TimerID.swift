/// Identifies a scheduled one-shot or recurring event; pass it to ``SimulationKernel/cancel(_:)``.
public struct TimerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The kernel-assigned number, unique within one kernel.
    public let rawValue: UInt64

    init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: TimerID, rhs: TimerID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "timer#\(rawValue)" }
    /// The bucket word for hashed collections: the number and the seed through one 64-bit
    /// finaliser (MurmurHash3's `fmix64`), instead of a full `Hasher` round per look-up.
    public func _rawHashValue(seed: Int) -> Int {
        var x = rawValue ^ UInt64(bitPattern: Int64(seed))
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return Int(truncatingIfNeeded: x)
    }
}
