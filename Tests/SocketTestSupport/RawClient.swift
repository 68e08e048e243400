import Foundation
import HTTPServer
import Synchronization
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A failure of the test client, with what it was doing.
public struct ClientError: Error, CustomStringConvertible {
    public var description: String
    /// An error with this text.
    public init(description: String) { self.description = description }
}

/// Runs blocking socket code on a thread of its own — never on the cooperative pool, where the
/// simulation runs — while staying a child of the calling task, so the `#expect`s inside are
/// recorded for the running test.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    let executor = ThreadExecutor(name: "test client")
    defer { executor.shutdown() }
    return try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask(executorPreference: executor) { try body() }
        guard let value = try await group.next() else { throw ClientError(description: "the client task gave no result") }
        return value
    }
}

/// A response as the raw client read it.
public struct RawResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking loopback TCP client that writes bytes as given and reads HTTP/1.1 responses.
/// Every read gives up after 30 s, so a broken server fails a test instead of hanging it.
public final class RawClient {
    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`.
    public init(port: Int) throws {
        #if canImport(Darwin)
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw ClientError(description: "socket() failed") }
        // Long enough for an answer delayed by a busy machine (the whole test suite runs in parallel on two
        // cores); a server that never answers still fails the test, only later.
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            // Not closed here: the object is whole, so throwing runs `deinit`, which closes it. Closing it here too
            // closed the descriptor twice, and a test running beside it could lose a socket that had just been
            // given the same number (a stalled-body test once read another client's socket until its 120 s timeout).
            throw ClientError(description: "connect() failed: errno \(errno)")
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Sends text as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let sent = bytes[offset...].withUnsafeBytes { Darwin.send(fd, $0.baseAddress, $0.count, 0) }
            #else
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #endif
            guard sent > 0 else { throw ClientError(description: "send() failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends our FIN (the server may still answer).
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes into the buffer. - Returns: false at end of stream or on reset.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer += chunk[0..<count]
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw ClientError(description: "recv() failed or timed out: errno \(errno)")
    }

    private func readLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = buffer[..<newline].last == 13 ? buffer[..<(newline - 1)] : buffer[..<newline]
                defer { buffer.removeFirst(newline + 1) }
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { return nil }
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw ClientError(description: "connection closed inside a body") }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Reads one response; `nil` when the server closed the connection before sending anything.
    /// - Parameter head: whether it answers a `HEAD` request (no body follows).
    public func readResponse(head: Bool = false) throws -> RawResponse? {
        guard let statusLine = try readLine() else { return nil }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
            throw ClientError(description: "bad status line \(statusLine)")
        }
        var headers = HTTPHeaders()
        while let line = try readLine(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw ClientError(description: "bad header \(line)") }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        if head || status == 204 || status == 304 || status < 200 { return RawResponse(status: status, headers: headers, body: []) }
        if let length = headers["Content-Length"].flatMap(Int.init) {
            return RawResponse(status: status, headers: headers, body: try readBytes(length))
        }
        if headers["Transfer-Encoding"] == "chunked" {
            var body: [UInt8] = []
            while true {
                guard let sizeLine = try readLine(), let size = Int(sizeLine, radix: 16) else {
                    throw ClientError(description: "bad chunk size")
                }
                if size == 0 {
                    _ = try readLine()
                    return RawResponse(status: status, headers: headers, body: body)
                }
                body += try readBytes(size)
                _ = try readLine()
            }
        }
        while try fill() {}
        defer { buffer.removeAll() }
        return RawResponse(status: status, headers: headers, body: buffer)
    }

    /// Reads one chunk of a chunked body whose head was already read with ``readHead()``.
    public func readChunk() throws -> [UInt8]? {
        guard let sizeLine = try readLine(), let size = Int(sizeLine, radix: 16) else { throw ClientError(description: "bad chunk size") }
        if size == 0 {
            _ = try readLine()  // the blank line after the last chunk (no trailers are sent)
            return nil
        }
        defer { _ = try? readLine() }
        return try readBytes(size)
    }

    /// Reads a status line and headers only.
    public func readHead() throws -> RawResponse? {
        try readResponse(head: true)
    }

    /// Whether the server has closed the connection (end of stream or reset) with nothing more to read.
    public func isClosedByServer() throws -> Bool {
        if !buffer.isEmpty { return false }
        return try !fill()
    }
}
