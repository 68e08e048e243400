import Testing
@testable import Simulation

/// ``StableHash/Stream``: the same bytes give the same hash however they are cut, and a change anywhere changes it.
@Suite struct StableHashStreamTests {
    /// The hash written out plainly from its definition: four lanes over 32-byte rounds of little-endian
    /// words, the tail byte by byte as FNV-1a, then the lanes and the count folded.
    static func reference(_ bytes: [UInt8]) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var lanes: [UInt64] = [0xCBF2_9CE4_8422_2325, 0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9]
        let whole = bytes.count / 32 * 32
        for round in stride(from: 0, to: whole, by: 32) {
            for lane in 0..<4 {
                var word: UInt64 = 0
                for k in 0..<8 { word |= UInt64(bytes[round + lane * 8 + k]) << (8 * UInt64(k)) }
                lanes[lane] = (lanes[lane] ^ word) &* prime
            }
        }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes[whole...] { hash = (hash ^ UInt64(byte)) &* prime }
        for lane in lanes + [UInt64(bytes.count)] {
            var x = hash ^ lane
            x ^= x >> 33; x &*= 0xff51_afd7_ed55_8ccd; x ^= x >> 33; x &*= 0xc4ce_b9fe_1a85_ec53; x ^= x >> 33
            hash = x &* prime
        }
        return hash
    }

    @Test func matchesItsDefinitionForEveryCut() {
        var random = SplitMix64(seed: 7)
        for length in [0, 1, 7, 31, 32, 33, 63, 64, 65, 100, 257] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let expected = Self.reference(bytes)
            var whole = StableHash.Stream()
            whole.add(bytes)
            #expect(whole.value == expected, "length \(length)")
            for _ in 0..<5 {
                var cuts = (0..<3).map { _ in length == 0 ? 0 : Int(random.next() % UInt64(length + 1)) }.sorted()
                cuts = [0] + cuts + [length]
                var pieces = StableHash.Stream()
                for (from, to) in zip(cuts, cuts.dropFirst()) { pieces.add(bytes[from..<to]) }
                #expect(pieces.value == expected, "length \(length) cut at \(cuts)")
            }
        }
    }

    @Test func anyChangedOrMissingByteChangesTheHash() {
        let bytes = Array("2026-01-01T00:00,flat-0,19.0,0,0.000\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 70)
        let original = StableHash.Stream.of(bytes)
        for index in bytes.indices {
            var edited = bytes
            edited[index] ^= 1
            #expect(StableHash.Stream.of(edited) != original, "byte \(index)")
        }
        #expect(StableHash.Stream.of(bytes.dropLast()) != original)
        #expect(StableHash.Stream.of(bytes + [0]) != original)
    }
}

extension StableHash.Stream {
    static func of(_ bytes: some Collection<UInt8>) -> UInt64 {
        var stream = StableHash.Stream()
        stream.add(bytes)
        return stream.value
    }
}
