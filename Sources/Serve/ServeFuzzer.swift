import Foundation
import Simulation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Throws mutated HTTP requests and WebSocket frames at a running `serve` on loopback and checks,
/// after each, that the server still answers (issue 26: one request must not kill `serve`).
///
/// Each input starts from a valid one — openHAB REST calls, chunked and length-framed
/// `/twin/advance` bodies, a WebSocket handshake followed by frames — and gets one to four
/// mutations: bytes flipped, inserted, deleted or duplicated, or a token (a sign, `0x`, a huge
/// number, CR or LF, a NUL, a long run) put in. The input is written, the write side shut, and
/// whatever comes back read until the server closes. A finding is an input after which the
/// connection is neither answered nor closed within ``Options/answerTimeout``, or after which
/// `GET /twin/clock` no longer answers `200`. Deterministic for a seed: the same inputs in the same order.
public enum ServeFuzzer {
    /// How to fuzz.
    public struct Options: Sendable {
        /// The loopback port `serve` listens on.
        public var port: Int
        /// The seed of the mutations.
        public var seed: UInt64
        /// How many inputs.
        public var count: Int
        /// Wall time an input may take to be answered or closed (wall-clock: a hang guard, not simulation time).
        public var answerTimeout: Duration
        /// Wall time after which no further input is sent (`fuzz --seconds`), or `nil` for all ``count`` inputs
        /// (wall-clock: a budget that stops the campaign, not simulation time).
        public var stopAfter: Duration?

        /// Creates options; 5 s per input by default.
        public init(port: Int, seed: UInt64, count: Int, answerTimeout: Duration = .seconds(5), stopAfter: Duration? = nil) {
            self.port = port
            self.seed = seed
            self.count = count
            self.answerTimeout = answerTimeout
            self.stopAfter = stopAfter
        }
    }

    /// One input that broke the server.
    public struct Finding: Sendable, Equatable {
        /// Its number in the run (0-based).
        public var index: Int
        /// The bytes sent.
        public var input: [UInt8]
        /// What went wrong.
        public var problem: String
    }

    /// What a run did.
    public struct Report: Sendable {
        /// Inputs sent.
        public var inputs = 0
        /// Inputs answered with an HTTP status, by status.
        public var statuses: [Int: Int] = [:]
        /// Inputs the server closed without an HTTP answer (after a WebSocket close frame, or silently).
        public var closedWithoutStatus = 0
        /// Inputs that broke the server.
        public var findings: [Finding] = []
    }

    /// The valid inputs mutations start from (`{port}` is replaced).
    static let seeds: [String] = [
        "GET /rest/items/kiez_heating_setpoint/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n",
        "POST /rest/items/kiez_heating_setpoint HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\n22.5",
        "POST /twin/advance HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nPT1M\r\n0\r\nX-Trailer: y\r\n\r\n",
        "POST /twin/advance HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n\r\n{\"to\":\"2026-11-20T00:05\"}",
        "PUT /rest/items/kiez_heating_setpoint/metadata/x HTTP/1.1\r\nHost: x\r\nContent-Length: 13\r\n\r\n{\"value\":\"1\"}",
        "GET /rest/events?topics=openhab/items/*/statechanged HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    ]

    /// Tokens a mutation may insert.
    static let tokens: [[UInt8]] = ["-1", "+5", "0x", "ffffffffffffffffffff", "99999999999999999999", "\r\n", "\n", "\r", "\0", " ", ";", ":",
                                    "%", "%00", "\u{FF}", "Transfer-Encoding: chunked\r\n", "Content-Length: 5\r\n", "\r\n\r\n",
                                    String(repeating: "A", count: 9_000)].map { Array($0.utf8) }

    /// The inputs a run with `seed` sends, in order (what ``run(_:)`` sends, without sending it).
    public static func inputs(seed: UInt64, count: Int, port: Int) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in makeInput(&random, port: port) }
    }

    /// Runs the inputs one after another against the server on `options.port`.
    public static func run(_ options: Options) -> Report {
        var random = SplitMix64(seed: options.seed)
        var report = Report()
        let began = ContinuousClock.now  // wall-clock: the campaign's budget (`stopAfter`)
        for index in 0..<options.count {
            if let stopAfter = options.stopAfter, began.duration(to: .now) >= stopAfter { break }  // wall-clock: the budget
            let input = makeInput(&random, port: options.port)
            report.inputs += 1
            switch exchange(input, port: options.port, timeout: options.answerTimeout) {
            case .status(let status): report.statuses[status, default: 0] += 1
            case .closed: report.closedWithoutStatus += 1
            case .hung: report.findings.append(Finding(index: index, input: input, problem: "neither answered nor closed within \(options.answerTimeout)"))
            case .refused: report.findings.append(Finding(index: index, input: input, problem: "the connection was refused"))
            }
            // The server must still answer. A busy machine can delay one answer past the timeout, so a probe that
            // fails is tried twice more, with twice and four times the time, before the input counts as a finding.
            let probe = Array("GET /twin/clock HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
            var outcomes: [Outcome] = []
            for factor in [1, 2, 4] {
                let outcome = exchange(probe, port: options.port, timeout: options.answerTimeout * factor)
                outcomes.append(outcome)
                if case .status(200) = outcome { break }
            }
            if case .status(200)? = outcomes.last { continue }
            report.findings.append(Finding(index: index, input: input,
                                           problem: "GET /twin/clock no longer answers 200 after this input (probes: \(outcomes.map { "\($0)" }.joined(separator: ", ")))"))
            break  // the server is down: later inputs say nothing
        }
        return report
    }

    /// One mutated input: a seed, then 1–4 mutations; WebSocket seeds get frames (mutated too).
    static func makeInput(_ random: inout SplitMix64, port: Int) -> [UInt8] {
        let seed = seeds[Int(random.next() % UInt64(seeds.count))].replacingOccurrences(of: "{port}", with: String(port))
        var bytes = Array(seed.utf8)
        let isWebSocket = seed.contains("Upgrade: websocket")
        if isWebSocket {
            var frames: [UInt8] = []
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let payload = Array(#"{"type":"WebSocketEvent","topic":"openhab/websocket/heartbeat","payload":"PING"}"#.utf8)
                frames += [UInt8(0x81), UInt8(0x80 | 126), UInt8(payload.count >> 8), UInt8(payload.count & 0xFF), 1, 2, 3, 4]
                frames += payload.enumerated().map { $0.element ^ [1, 2, 3, 4][$0.offset & 3] }
            }
            mutate(&frames, &random, times: 1 + Int(random.next() % 4))
            if random.next() % 4 != 0 { bytes += frames } else { mutate(&bytes, &random, times: 1); bytes += frames }
        } else {
            mutate(&bytes, &random, times: 1 + Int(random.next() % 4))
        }
        return bytes
    }

    static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64, times: Int) {
        for _ in 0..<times {
            let at = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
            switch random.next() % 6 {
            case 0 where !bytes.isEmpty: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
            case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
            case 2 where !bytes.isEmpty: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 8)))
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, at + 1 + Int(random.next() % 32))
                bytes.insert(contentsOf: bytes[at..<end], at: end)
            default: bytes.insert(contentsOf: tokens[Int(random.next() % UInt64(tokens.count))], at: at)
            }
        }
    }

    enum Outcome { case status(Int), closed, hung, refused }

    /// Sends `input`, shuts the write side, and reads until the server closes or `timeout` passes.
    static func exchange(_ input: [UInt8], port: Int, timeout: Duration) -> Outcome {
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { return .refused }
        defer { close(fd) }
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        let sendFlags: Int32 = 0
        #else
        let sendFlags = Int32(MSG_NOSIGNAL)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return .refused }
        var offset = 0
        while offset < input.count {
            let sent = input[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, sendFlags) }
            if sent <= 0 { break }  // the server may close before reading everything
            offset += sent
        }
        shutdown(fd, Int32(SHUT_WR))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let deadline = ContinuousClock.now + timeout  // wall-clock: the hang guard of one input
        while true {
            let left = deadline - ContinuousClock.now  // wall-clock: time left of that guard
            guard left > .zero else { return .hung }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&poller, 1, milliseconds) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            if received.count < 64 { received += chunk[0..<count] }
        }
        let head = String(decoding: received.prefix(12), as: UTF8.self)
        if head.hasPrefix("HTTP/1.1 "), let status = Int(head.dropFirst(9).prefix(3)) { return .status(status) }
        return .closed
    }
}
