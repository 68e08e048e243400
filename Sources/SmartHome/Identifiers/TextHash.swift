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
}
