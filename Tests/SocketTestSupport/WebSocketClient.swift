import Foundation
import HTTPServer

/// A blocking WebSocket client for tests: it writes frames byte for byte as told (masked or not,
/// fragmented or not) and reads the server's frames.
public final class WebSocketTestClient {
    public let raw: RawClient
    private var buffer: [UInt8] = []
    /// The handshake's response.
    public private(set) var handshake: RawResponse?

    /// Connects and sends the opening handshake for `path`; check ``handshake`` for the answer.
    public init(port: Int, path: String, headers: [String: String] = [:]) throws {
        raw = try RawClient(port: port)
        var text = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        try raw.send(text + "\r\n")
        handshake = try raw.readHead()
    }

    /// One frame's bytes: FIN as given, the opcode, masked with a fixed key unless `masked` is false.
    public static func frame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: payload.count >> shift)) }
        }
        guard masked else { return bytes + payload }
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
    }

    /// Sends a masked text message in one frame.
    public func sendText(_ text: String) throws { try raw.send(Self.frame(opcode: 1, Array(text.utf8))) }

    /// Sends raw bytes.
    public func send(_ bytes: [UInt8]) throws { try raw.send(bytes) }

    /// Reads one frame: its opcode and payload; `nil` when the server closed the connection.
    public func readFrame() throws -> (opcode: UInt8, payload: [UInt8])? {
        func need(_ count: Int) throws -> Bool {
            while buffer.count < count {
                var chunk = [UInt8](repeating: 0, count: 16 * 1024)
                let got = chunk.withUnsafeMutableBytes { recv(raw.fd, $0.baseAddress, $0.count, 0) }
                if got <= 0 { return false }
                buffer += chunk[0..<got]
            }
            return true
        }
        guard try need(2) else { return nil }
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard try need(4) else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard try need(10) else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
            offset = 10
        }
        guard try need(offset + length) else { return nil }
        let frame = (buffer[0] & 0x0F, Array(buffer[offset..<(offset + length)]))
        buffer.removeFirst(offset + length)
        return frame
    }

    /// Reads frames until a text frame; `nil` when a close frame or the end comes first.
    public func readText() throws -> String? {
        while let frame = try readFrame() {
            if frame.opcode == 1 { return String(decoding: frame.payload, as: UTF8.self) }
            if frame.opcode == 8 { return nil }
        }
        return nil
    }

    /// Reads frames until the server's close frame: its code (`nil` if the connection ended without one).
    public func readCloseCode() throws -> UInt16? {
        while let frame = try readFrame() {
            if frame.opcode == 8 { return frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : 1005 }
        }
        return nil
    }
}
