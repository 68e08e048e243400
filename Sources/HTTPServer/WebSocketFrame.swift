/// RFC 6455 §5 framing: a frame decoder over received bytes (a pure state machine, no I/O) and
/// the encoder of the server's frames (never masked, §5.1).
enum WebSocketFrame {
    /// Opcodes (§5.2).
    enum Opcode: UInt8 {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// One decoded frame.
    struct Frame: Equatable {
        var fin: Bool
        var opcode: Opcode
        /// The payload, unmasked.
        var payload: [UInt8]
    }

    /// Why a frame is refused: the close code to send (§7.4.1) and the reason.
    struct Violation: Error, Equatable {
        var code: UInt16
        var reason: String
    }

    /// The first frame in `buffer[start...]`, and where the next begins; `nil` when more bytes are needed.
    /// - Parameters:
    ///   - requireMask: a server requires masked client frames (§5.1: else close 1002).
    ///   - maxPayload: the largest data-frame payload accepted (else close 1009, refused from the header alone).
    static func decode(_ buffer: [UInt8], from start: Int, requireMask: Bool, maxPayload: Int) throws(Violation) -> (Frame, next: Int)? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start], second = buffer[start + 1]
        guard first & 0x70 == 0 else { throw Violation(code: 1002, reason: "reserved bits set without an extension") }
        guard let opcode = Opcode(rawValue: first & 0x0F) else { throw Violation(code: 1002, reason: "unknown opcode \(first & 0x0F)") }
        let fin = first & 0x80 != 0
        let masked = second & 0x80 != 0
        if requireMask && !masked { throw Violation(code: 1002, reason: "a client frame must be masked") }
        var length = UInt64(second & 0x7F)
        var offset = 2
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            offset = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for i in 0..<8 { length = length << 8 | UInt64(buffer[start + 2 + i]) }
            guard length >> 63 == 0 else { throw Violation(code: 1002, reason: "a 64-bit length with its top bit set") }
            offset = 10
        }
        if opcode.isControl {
            guard fin else { throw Violation(code: 1002, reason: "a fragmented control frame") }
            guard length <= 125 else { throw Violation(code: 1002, reason: "a control frame longer than 125 bytes") }
        } else if length > UInt64(maxPayload) {
            throw Violation(code: 1009, reason: "a frame of \(length) bytes exceeds the limit of \(maxPayload)")
        }
        let maskOffset = offset
        if masked { offset += 4 }
        let count = Int(length)
        guard available >= offset + count else { return nil }
        var payload = Array(buffer[(start + offset)..<(start + offset + count)])
        if masked {
            let key = buffer[(start + maskOffset)..<(start + maskOffset + 4)].map { $0 }
            for i in payload.indices { payload[i] ^= key[i & 3] }
        }
        return (Frame(fin: fin, opcode: opcode, payload: payload), start + offset + count)
    }

    /// A final, unmasked server frame.
    static func encode(_ opcode: Opcode, _ payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0x80 | opcode.rawValue]
        frame.reserveCapacity(payload.count + 10)
        if payload.count < 126 {
            frame.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8(truncatingIfNeeded: payload.count >> shift)) }
        }
        return frame + payload
    }

    /// A close frame's payload: the code, then the reason (cut to fit 125 bytes at a character boundary).
    static func closePayload(_ code: UInt16, _ reason: String) -> [UInt8] {
        var text = Array(reason.utf8)
        if text.count > 123 {
            var cut = String(decoding: text.prefix(123), as: UTF8.self)
            while cut.utf8.count > 123 || cut.hasSuffix("\u{FFFD}") { cut.removeLast() }
            text = Array(cut.utf8)
        }
        return [UInt8(code >> 8), UInt8(code & 0xFF)] + text
    }

    /// Whether a peer may send `code` in a close frame (§7.4: 1000–1003, 1007–1011, 3000–4999).
    static func isValidCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1011, 3000...4999: true
        default: false
        }
    }
}

/// Reassembles fragmented messages (§5.4) and checks what frames may follow each other.
struct WebSocketMessageAssembler {
    /// What a frame amounts to.
    enum Event: Equatable {
        /// A complete text message, valid UTF-8.
        case text(String)
        /// A ping to answer with this payload.
        case ping([UInt8])
        /// The peer's close: its code (none when the frame had no payload) and reason.
        case close(UInt16?, String)
    }

    private let maxMessageBytes: Int
    private let maxFragments: Int
    private var current: WebSocketFrame.Opcode?
    private var parts: [UInt8] = []
    private var fragments = 0

    init(maxMessageBytes: Int, maxFragments: Int) {
        self.maxMessageBytes = maxMessageBytes
        self.maxFragments = maxFragments
    }

    /// Takes one frame. - Returns: the event it completes, if any.
    mutating func add(_ frame: WebSocketFrame.Frame) throws(WebSocketFrame.Violation) -> Event? {
        typealias Violation = WebSocketFrame.Violation
        switch frame.opcode {
        case .ping:
            return .ping(frame.payload)
        case .pong:
            return nil
        case .close:
            guard !frame.payload.isEmpty else { return .close(nil, "") }
            guard frame.payload.count >= 2 else { throw Violation(code: 1002, reason: "a close frame with a one-byte payload") }
            let code = UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
            guard WebSocketFrame.isValidCloseCode(code) else { throw Violation(code: 1002, reason: "close code \(code) may not be sent") }
            guard let reason = String(validating: frame.payload.dropFirst(2), as: UTF8.self) else {
                throw Violation(code: 1007, reason: "a close reason that is not UTF-8")
            }
            return .close(code, reason)
        case .continuation:
            guard current != nil else { throw Violation(code: 1002, reason: "a continuation frame outside a fragmented message") }
            fragments += 1
            guard fragments <= maxFragments else { throw Violation(code: 1008, reason: "more than \(maxFragments) fragments in one message") }
            guard parts.count + frame.payload.count <= maxMessageBytes else {
                throw Violation(code: 1009, reason: "a message beyond \(maxMessageBytes) bytes")
            }
            parts += frame.payload
            return frame.fin ? try finish() : nil
        case .text, .binary:
            guard current == nil else { throw Violation(code: 1002, reason: "a new message inside a fragmented one") }
            current = frame.opcode
            parts = frame.payload
            fragments = 1
            return frame.fin ? try finish() : nil
        }
    }

    private mutating func finish() throws(WebSocketFrame.Violation) -> Event? {
        defer {
            current = nil
            parts = []
            fragments = 0
        }
        // openHAB's EventWebSocket takes text only (no binary handler): 1003 unsupported data.
        guard current == .text else { throw WebSocketFrame.Violation(code: 1003, reason: "binary messages are not accepted") }
        guard let text = String(validating: parts, as: UTF8.self) else {
            throw WebSocketFrame.Violation(code: 1007, reason: "a text message that is not valid UTF-8")
        }
        return .text(text)
    }
}
