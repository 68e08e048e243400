/// Hashes that are the same in every process, on every machine, in every Swift version.
public enum StableHash {
    /// 64-bit FNV-1a of the string's UTF-8 bytes.
    @inlinable
    public static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The bucket word a `Set` or `Dictionary` with per-instance `seed` files a precomputed
    /// 64-bit `value` under: `value ^ seed` through MurmurHash3's 64-bit finaliser (`fmix64`),
    /// one step instead of a full `Hasher` round. For identifiers' `_rawHashValue(seed:)`.
    @inlinable
    public static func bucket(_ value: UInt64, seed: Int) -> Int {
        var x = value ^ UInt64(bitPattern: Int64(seed))
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return Int(truncatingIfNeeded: x)
    }
}
