#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Thin wrappers over the POSIX socket calls the server uses; every platform difference lives here.
enum Socket {
    /// What ``waitReadable(_:stop:wake:timeout:)`` saw.
    enum Readiness {
        /// The socket has bytes (or an end of stream, or an error) to read.
        case readable
        /// The stop pipe became readable: the server is shutting down.
        case stopping
        /// The wake pipe became readable: there is other work (executor jobs) to do.
        case woken
        /// The timeout passed first.
        case timedOut
    }

    #if canImport(Darwin)
    private static let sendFlags: Int32 = 0
    private static let streamType = SOCK_STREAM
    #else
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #endif

    /// Opens a listening IPv4 TCP socket on `host:port` (`port` 0 picks a free port).
    /// - Returns: the descriptor and the port actually bound.
    static func listen(host: String, port: Int, backlog: Int32 = 512) throws(HTTPServerError) -> (fd: Int32, port: Int) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        let numeric = host == "localhost" ? "127.0.0.1" : host
        guard (0...65535).contains(port), inet_pton(AF_INET, numeric, &address.sin_addr) == 1 else {
            throw HTTPServerError(.invalidHost, "Cannot listen on \(host):\(port): give an IPv4 address such as 127.0.0.1 (or localhost) and a port from 0 to 65535.")
        }
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw HTTPServerError(.bindFailed, "Cannot create a socket: \(errorText()).") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, systemListen(fd, backlog) == 0 else {
            let reason = errorText()
            close(fd)
            throw HTTPServerError(.bindFailed, "Cannot listen on \(host):\(port): \(reason). Pick another port (or 0 for any free one).")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// Accepts one connection and sets its options (no SIGPIPE, no Nagle delay, a send timeout).
    /// - Returns: the descriptor, or `nil` when `accept` failed (after a short pause on descriptor exhaustion).
    static func accept(_ listener: Int32, sendTimeout: Duration) -> Int32? {
        let fd = systemAccept(listener)
        guard fd >= 0 else {
            if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { usleep(10_000) }
            return nil
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let (seconds, attoseconds) = sendTimeout.components
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: .init(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Sends all of `bytes`; `false` when the peer is gone or the send timed out.
    static func send(_ fd: Int32, _ bytes: [UInt8], dontWait: Bool = false) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                guard let base = raw.baseAddress else { return false }
                #if canImport(Darwin)
                let flags = sendFlags | (dontWait ? MSG_DONTWAIT : 0)
                #else
                let flags = sendFlags | (dontWait ? Int32(MSG_DONTWAIT) : 0)
                #endif
                let sent = systemSend(fd, base + offset, raw.count - offset, flags)
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// Reads up to `buffer.count` bytes; 0 at end of stream, negative on error.
    static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Waits until `fd`, `stop` or `wake` (if given) is readable, or `timeout` passes (`nil`: no timeout).
    static func waitReadable(_ fd: Int32, stop: Int32, wake: Int32 = -1, timeout: Duration?) -> Readiness {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]  // a negative descriptor is ignored by poll
        let milliseconds = timeout.map { Int32(clamping: max(0, $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000 + 1)) } ?? -1
        while true {
            let ready = poll(&fds, nfds_t(fds.count), milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return .timedOut }
            if fds[1].revents != 0 { return .stopping }
            if fds[0].revents != 0 { return .readable }
            return .woken
        }
    }

    /// Whether the peer has closed its side (or the socket failed), without consuming any byte.
    static func peerHasClosed(_ fd: Int32) -> Bool {
        var probe = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&probe, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        #if canImport(Darwin)
        let peeked = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT)
        #else
        let peeked = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        #endif
        return peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Sends our FIN, then reads and drops what the client still sends (up to 0.5 s or 256 KiB)
    /// so that closing does not reset the connection before the client reads our answer.
    static func lingeringShutdown(_ fd: Int32, stop: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var drained = 0
        let deadline = ContinuousClock.now + .milliseconds(500)  // wall-clock: how long a closing socket lingers, not simulation time
        while drained < 256 * 1024 {
            let left = deadline - ContinuousClock.now  // wall-clock: time left of the linger
            guard left > .zero, waitReadable(fd, stop: stop, timeout: left) == .readable else { return }
            let count = receive(fd, into: &scratch)
            guard count > 0 else { return }
            drained += count
        }
    }

    /// Shuts both directions down, waking any thread blocked on `fd`.
    static func shutdownBoth(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Closes a descriptor.
    static func close(_ fd: Int32) {
        _ = systemClose(fd)
    }

    /// A pipe, for the stop signal and executor wake-ups; with `nonBlocking`, both ends never block.
    static func makePipe(nonBlocking: Bool = false) -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        if nonBlocking {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }
        return (fds[0], fds[1])
    }

    /// Reads and drops whatever a non-blocking pipe holds.
    static func drain(_ fd: Int32) {
        var scratch = [UInt8](repeating: 0, count: 64)
        while scratch.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Writes one byte to a pipe.
    static func signal(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    /// `strerror(errno)` as text.
    static func errorText() -> String {
        String(cString: strerror(errno))
    }
}

// The module-level C functions shadowed by the methods above.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
private func systemAccept(_ fd: Int32) -> Int32 { accept(fd, nil, nil) }
private func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int { send(fd, pointer, count, flags) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
