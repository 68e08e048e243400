/// A tiny, fast, seedable random number generator (Steele, Lea & Flood's SplitMix64).
///
/// Every source of randomness in a simulation is a `SplitMix64` derived from the scenario's
/// seed, so a run repeats exactly. Independent entities get independent streams through
/// ``stream(named:)``, keyed by a stable string hash — never `hashValue`, which Swift
/// randomises per process.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's whole state.
    public private(set) var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A uniformly distributed real number in `[0, 1)` with 53 random bits.
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A standard normal variate (mean 0, standard deviation 1), by the Box–Muller transform.
    public mutating func nextGaussian() -> Double {
        let u1 = 1.0 - nextUnit()  // (0, 1]: log is finite
        let u2 = nextUnit()
        return (-2.0 * log(u1)).squareRoot() * cos(2.0 * Double.pi * u2)
    }

    /// An independent generator for the entity `name` (a device, a city), derived from the seed
    /// this generator started with, not from how far it has advanced.
    public static func stream(seed: UInt64, named name: String) -> SplitMix64 {
        SplitMix64(seed: mix(seed ^ mix(StableHash.fnv1a64(name))))
    }

    /// ``stream(seed:named:)`` for the name whose ``StableHash/fnv1a64(_:)`` is `nameHash`.
    public static func stream(seed: UInt64, nameHash: UInt64) -> SplitMix64 {
        SplitMix64(seed: mix(seed ^ mix(nameHash)))
    }

    /// SplitMix64's finaliser: a bijective avalanche of 64 bits.
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
