@testable import HTTPServer
import Testing

/// RFC 6455 framing against the RFC's own examples (§1.3, §5.7) and its rules for what may follow what.
@Suite("WebSocket framing (RFC 6455)")
struct WebSocketFramingTests {
    typealias Frame = WebSocketFrame.Frame

    static func decodeAll(_ bytes: [UInt8], requireMask: Bool, maxPayload: Int = 1 << 20) throws -> [Frame] {
        var frames: [Frame] = []
        var cursor = 0
        while let (frame, next) = try WebSocketFrame.decode(bytes, from: cursor, requireMask: requireMask, maxPayload: maxPayload) {
            frames.append(frame)
            cursor = next
        }
        #expect(cursor == bytes.count)
        return frames
    }

    @Test("§1.3: the accept value of the sample nonce")
    func acceptKey() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("SHA-1 of FIPS 180's examples")
    func sha1() {
        let hex = { (bytes: [UInt8]) in bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test("§5.7: a single-frame unmasked text message, as the server writes it")
    func unmaskedText() throws {
        let wire: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        #expect(WebSocketFrame.encode(.text, Array("Hello".utf8)) == wire)
        #expect(try Self.decodeAll(wire, requireMask: false) == [Frame(fin: true, opcode: .text, payload: Array("Hello".utf8))])
    }

    @Test("§5.7: a single-frame masked text message, as a client sends it")
    func maskedText() throws {
        let wire: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(try Self.decodeAll(wire, requireMask: true) == [Frame(fin: true, opcode: .text, payload: Array("Hello".utf8))])
        // Byte by byte, a frame is incomplete until its last byte.
        for end in 0..<wire.count { #expect(try WebSocketFrame.decode(Array(wire[..<end]), from: 0, requireMask: true, maxPayload: 100) == nil) }
    }

    @Test("§5.7: a fragmented unmasked text message reassembles to Hello")
    func fragmented() throws {
        let wire: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]
        var assembler = WebSocketMessageAssembler(maxMessageBytes: 100, maxFragments: 10)
        let events = try Self.decodeAll(wire, requireMask: false).map { try assembler.add($0) }
        #expect(events == [nil, .text("Hello")])
    }

    @Test("§5.7: an unmasked ping and a masked pong, each with Hello")
    func pingPong() throws {
        let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
        #expect(WebSocketFrame.encode(.ping, Array("Hello".utf8)) == ping)
        let pong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(try Self.decodeAll(pong, requireMask: true) == [Frame(fin: true, opcode: .pong, payload: Array("Hello".utf8))])
    }

    @Test("§5.7: 256 bytes and 64 KiB in one unmasked binary frame use the 16- and 64-bit lengths")
    func lengths() throws {
        let small = WebSocketFrame.encode(.binary, [UInt8](repeating: 7, count: 256))
        #expect(Array(small.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        let large = WebSocketFrame.encode(.binary, [UInt8](repeating: 7, count: 65_536))
        #expect(Array(large.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
        #expect(try Self.decodeAll(large, requireMask: false, maxPayload: 65_536).first?.payload.count == 65_536)
    }

    static let violating: [([UInt8], UInt16)] = [
        ([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], 1002),   // unmasked client frame
        ([0xC1, 0x80, 0, 0, 0, 0], 1002),                      // RSV1 without an extension
        ([0x83, 0x80, 0, 0, 0, 0], 1002),                      // reserved opcode 3
        ([0x09, 0x80, 0, 0, 0, 0], 1002),                      // a fragmented ping
        ([0x89, 0xFE, 0x00, 0x7E, 0, 0, 0, 0], 1002),          // a 126-byte ping
        ([0x81, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0], 1002),       // a length with its top bit set
        ([0x81, 0xFE, 0x10, 0x00], 1009),                      // 4096 bytes announced, limit 1000
    ]

    @Test("frames that break the rules are violations with their close code", arguments: 0..<violating.count)
    func violations(index: Int) {
        let (wire, code) = Self.violating[index]
        #expect(throws: WebSocketFrame.Violation.self) { _ = try WebSocketFrame.decode(wire, from: 0, requireMask: true, maxPayload: 1000) }
        do { _ = try WebSocketFrame.decode(wire, from: 0, requireMask: true, maxPayload: 1000) } catch { #expect(error.code == code) }
    }

    @Test("message rules: order of fragments, UTF-8, size, fragment count, close payloads")
    func messageRules() throws {
        func code(_ frames: [Frame], maxBytes: Int = 100, maxFragments: Int = 4) -> UInt16? {
            var assembler = WebSocketMessageAssembler(maxMessageBytes: maxBytes, maxFragments: maxFragments)
            do {
                for frame in frames { _ = try assembler.add(frame) }
                return nil
            } catch {
                return error.code
            }
        }
        let part = { (opcode: WebSocketFrame.Opcode, fin: Bool, text: String) in Frame(fin: fin, opcode: opcode, payload: Array(text.utf8)) }
        #expect(code([part(.continuation, true, "x")]) == 1002)                                  // continuation first
        #expect(code([part(.text, false, "a"), part(.text, true, "b")]) == 1002)                 // new message mid-fragment
        #expect(code([Frame(fin: true, opcode: .text, payload: [0xC3, 0x28])]) == 1007)           // bad UTF-8
        #expect(code([Frame(fin: false, opcode: .text, payload: [0xE2, 0x82]), Frame(fin: true, opcode: .continuation, payload: [0xAC])]) == nil)  // € split
        #expect(code([part(.text, false, String(repeating: "a", count: 60)), part(.continuation, true, String(repeating: "a", count: 60))]) == 1009)
        #expect(code([part(.text, false, "a")] + Array(repeating: part(.continuation, false, ""), count: 4)) == 1008)  // fragment storm
        #expect(code([part(.binary, true, "a")]) == 1003)
        #expect(code([Frame(fin: true, opcode: .close, payload: [3])]) == 1002)                   // one-byte close payload
        #expect(code([Frame(fin: true, opcode: .close, payload: [0x03, 0xED])]) == 1002)          // 1005 may not be sent
        #expect(code([Frame(fin: true, opcode: .close, payload: [0x03, 0xE8, 0xFF])]) == 1007)    // reason not UTF-8
        #expect(code([part(.ping, true, "p"), part(.text, false, "a"), part(.ping, true, "q"), part(.continuation, true, "b")]) == nil)
    }
}
