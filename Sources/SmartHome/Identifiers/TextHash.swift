import Simulation

/// A 64-bit FNV-1a hash of a text's UTF-8 bytes, worked out once when an identifier is made.
///
/// ``ItemName`` and ``ChannelUID`` are dictionary keys on every state report; hashing their
/// stored word instead of their text (tens of bytes through SipHash) makes each look-up cheaper.
/// Equal texts have equal hashes, so equality and hashing stay consistent; the value is only
/// ever fed to a `Hasher`, never shown or stored.
struct TextHash: Hashable, Sendable {
    let value: UInt64

    init(_ text: String) { value = StableHash.fnv1a64(text) }

    /// The word a `Set` or `Dictionary` with per-instance `seed` files the text under
    /// (``StableHash/bucket(_:seed:)``). Equal texts still land in equal buckets.
    func bucketHash(seed: Int) -> Int { StableHash.bucket(value, seed: seed) }
}
