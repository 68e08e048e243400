/// A 64-bit FNV-1a hash of a text's UTF-8 bytes, worked out once when an identifier is made.
///
/// ``ItemName`` and ``ChannelUID`` are dictionary keys on every state report; hashing their
/// stored word instead of their text (tens of bytes through SipHash) makes each look-up cheaper.
/// Equal texts have equal hashes, so equality and hashing stay consistent; the value is only
/// ever fed to a `Hasher`, never shown or stored.
struct TextHash: Hashable, Sendable {
    let value: UInt64

    init(_ text: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        value = hash
    }

    /// The word a `Set` or `Dictionary` with per-instance `seed` files the text under: the
    /// stored hash and the seed through one 64-bit finaliser (MurmurHash3's `fmix64`),
    /// instead of a full `Hasher` round per look-up. Equal texts still land in equal buckets.
    func bucketHash(seed: Int) -> Int {
        var x = value ^ UInt64(bitPattern: Int64(seed))
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return Int(truncatingIfNeeded: x)
    }
}
