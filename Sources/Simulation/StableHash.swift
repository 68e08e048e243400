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

    /// ``fnv1a64(_:)`` of a text made of the text `prefixHash` is the hash of and then the decimal digits of
    /// `number` (with `-` in front when negative, as `String(number)` writes it): the same value, without
    /// making the text — for a name like `weather/<city>/<hour>` hashed once per hour.
    @inlinable
    public static func fnv1a64(_ prefixHash: UInt64, appendingDecimal number: Int64) -> UInt64 {
        var hash = prefixHash
        if number < 0 {
            hash ^= UInt64(UInt8(ascii: "-"))
            hash &*= 0x0000_0100_0000_01B3
        }
        let magnitude = number.magnitude
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        repeat {
            hash ^= UInt64(UInt8(ascii: "0")) + magnitude / divisor % 10
            hash &*= 0x0000_0100_0000_01B3
            divisor /= 10
        } while divisor > 0
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

    /// A 64-bit hash of a byte stream for integrity checks (partition manifests): four lanes that each
    /// take a 64-bit little-endian word per round as FNV-1a takes a byte (`lane = (lane ^ word) * prime`,
    /// 32 bytes a round, so the lanes' multiplies overlap), the last 0–31 bytes one at a time as FNV-1a, then the
    /// lanes and the byte count folded through ``bucket(_:seed:)``'s finaliser. Xor and a multiply by an
    /// odd prime are both one-to-one, so any one changed word changes the hash. The same bytes give the same
    /// hash however they are cut into ``add(_:)`` calls.
    public struct Stream: Sendable {
        private var lanes: (UInt64, UInt64, UInt64, UInt64) = (0xCBF2_9CE4_8422_2325, 0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9)
        /// Bytes not yet in a whole round (at most 31), and how many bytes came in all.
        private var pending: [UInt8] = []
        private var count: UInt64 = 0
        private static let prime: UInt64 = 0x0000_0100_0000_01B3

        public init() {}

        /// Adds `bytes` to the stream.
        public mutating func add(_ bytes: UnsafeRawBufferPointer) {
            count &+= UInt64(bytes.count)
            var rest = bytes[...]
            if !pending.isEmpty {
                let take = min(32 - pending.count, rest.count)
                pending += rest.prefix(take)
                rest = rest.dropFirst(take)
                guard pending.count == 32 else { return }
                pending.withUnsafeBytes { rounds($0) }
                pending.removeAll(keepingCapacity: true)
            }
            let whole = rest.count / 32 * 32
            rounds(UnsafeRawBufferPointer(rebasing: rest.prefix(whole)))
            pending += rest.dropFirst(whole)
        }

        /// Adds `bytes` to the stream.
        public mutating func add(_ bytes: some Collection<UInt8>) {
            if bytes.withContiguousStorageIfAvailable({ add(UnsafeRawBufferPointer($0)) }) == nil {
                Array(bytes).withUnsafeBytes { add($0) }
            }
        }

        private mutating func rounds(_ bytes: UnsafeRawBufferPointer) {
            var (a, b, c, d) = lanes
            var offset = 0
            while offset < bytes.count {
                a = (a ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) &* Self.prime
                b = (b ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))) &* Self.prime
                c = (c ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))) &* Self.prime
                d = (d ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))) &* Self.prime
                offset += 32
            }
            lanes = (a, b, c, d)
        }

        /// The hash of every byte added so far.
        public var value: UInt64 {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in pending { hash = (hash ^ UInt64(byte)) &* Self.prime }
            for lane in [lanes.0, lanes.1, lanes.2, lanes.3, count] {
                hash = UInt64(bitPattern: Int64(bucket(hash ^ lane, seed: 0))) &* Self.prime
            }
            return hash
        }
    }
}
