import Foundation
import Synchronization

/// A small HTTP/1.1 server on POSIX sockets, with no package dependencies.
///
/// **Threads and tasks.** One accept thread waits in `poll` on the listening socket and a stop
/// pipe. Each accepted connection gets its own thread (``HTTPConnection``) doing blocking reads
/// bounded by `poll` timeouts, so a slow client holds only its own thread. For each request the
/// thread starts the async ``Handler`` as a task that prefers the connection's own task executor
/// (``ConnectionExecutor``) and runs its jobs until the response is there: serving needs no
/// thread of the cooperative pool, so a pool kept busy elsewhere cannot stall the server. A
/// streamed body (Server-Sent Events) is iterated the same way and written as it comes; every
/// 100 ms without a chunk the thread checks whether the client left, and then cancels the
/// iterating task — so the stream's `onTermination` runs with `.cancelled`.
///
/// **WebSockets.** A handler that answers ``WebSocketHandshake/response(to:session:)`` turns the
/// connection into an RFC 6455 WebSocket after the `101` head: the connection's thread then reads
/// frames (answering pings and closes, enforcing ``WebSocketLimits``), hands text messages to the
/// session and writes what its ``WebSocketOutbox`` holds, until a close, the client leaving or
/// ``stop()`` (close 1001). A WebSocket counts against ``HTTPServerLimits/maxConnections`` like any connection.
///
/// **Wire.** Keep-alive by default for HTTP/1.1 (`Connection: close` honoured), HTTP/1.0 only
/// with `Connection: keep-alive`; pipelined requests are answered in order. `Content-Length`
/// is always set by the server; `HEAD` gets the head only. Streams go out chunked to HTTP/1.1
/// clients (the connection stays usable after the stream ends) and close-delimited to HTTP/1.0
/// clients. No `Date` header, so responses are byte-for-byte repeatable.
///
/// **Limits** (``HTTPServerLimits``): oversize request line `414`, header section `431`, body
/// `413`, malformed `400`, HTTP/2+ `505`, other transfer codings and `CONNECT` `501` — each then
/// closes. Slow heads or bodies get `408` and a close; idle keep-alive connections are closed
/// silently. Beyond ``HTTPServerLimits/maxConnections`` the accept thread answers `503` at once
/// (best effort, without reading the request) and closes. `SIGPIPE` is avoided per send
/// (`MSG_NOSIGNAL`; `SO_NOSIGPIPE` on Darwin).
///
/// **Lifecycle.** ``start()`` binds and returns once listening (``port`` is then known);
/// ``run()`` starts and suspends until the server is stopped (cancelling it stops the server).
/// ``stop()`` closes the listening socket (new connections are refused), closes idle connections,
/// lets in-flight responses finish (they go out with `Connection: close`; event streams are ended)
/// for up to ``HTTPServerLimits/shutdownGracePeriod``, then shuts the remaining sockets down.
public final class HTTPServer: Sendable {
    /// The request handler: any request in, a response out.
    ///
    /// It runs on the connection's thread (as a task preferring that thread's executor); it may
    /// await actors and other tasks freely, but blocking it holds only its own connection.
    public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    /// The lifecycle, owned by ``state``: idle → running → stopping → stopped.
    private enum Lifecycle {
        case idle, running, stopping, stopped
    }

    private struct State {
        var lifecycle = Lifecycle.idle
        var port = 0
        var stopPipe: (read: Int32, write: Int32)?
        var acceptorRunning = false
        var connections: [UInt64: Int32] = [:]
        var nextConnectionID: UInt64 = 0
        var stopRequestWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The limits every connection is held to.
    public let limits: HTTPServerLimits
    /// The host given at creation (an IPv4 address or `localhost`).
    public let host: String
    let handler: Handler
    private let requestedPort: Int
    private let state = Mutex(State())
    private let stopping = Atomic(false)
    private let forcedDown = Atomic(false)

    /// Creates a server; nothing is bound until ``start()``.
    /// - Parameters:
    ///   - host: an IPv4 address to listen on, or `localhost`; `127.0.0.1` by default.
    ///   - port: the TCP port, or 0 to let the system pick a free one (read it from ``port``).
    ///   - limits: sizes, counts and timeouts; ``HTTPServerLimits/defaults`` by default.
    ///   - handler: answers every request that passes the limits.
    public init(host: String = "127.0.0.1", port: Int = 0, limits: HTTPServerLimits = .defaults, handler: @escaping Handler) {
        self.host = host
        self.requestedPort = port
        self.limits = limits
        self.handler = handler
    }

    deinit {
        state.withLock { state in
            if let pipe = state.stopPipe {
                Socket.close(pipe.read)
                Socket.close(pipe.write)
            }
        }
    }

    /// The bound TCP port once started (the system's pick when created with port 0); 0 before.
    public var port: Int { state.withLock { $0.port } }

    /// The number of connections being served now.
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Whether ``stop()`` has begun.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Whether the grace period ran out and the remaining connections are being torn down.
    var isForcedDown: Bool { forcedDown.load(ordering: .acquiring) }

    /// The read end of the stop pipe: readable for good once stopping begins.
    var stopSignal: Int32 { state.withLock { $0.stopPipe?.read ?? -1 } }

    /// Binds, listens and starts accepting; returns once connections can be made.
    /// - Throws: ``HTTPServerError`` when the host is invalid, the port is taken, or the server was already started.
    public func start() throws(HTTPServerError) {
        let listener = try state.withLock { state throws(HTTPServerError) -> (fd: Int32, port: Int) in
            guard case .idle = state.lifecycle else {
                throw HTTPServerError(.alreadyStarted, "This server was already started; create a new HTTPServer to serve again.")
            }
            guard let pipe = Socket.makePipe() else {
                throw HTTPServerError(.bindFailed, "Cannot create the server's stop pipe: \(Socket.errorText()).")
            }
            let listener: (fd: Int32, port: Int)
            do throws(HTTPServerError) {
                listener = try Socket.listen(host: host, port: requestedPort)
            } catch {
                Socket.close(pipe.read)
                Socket.close(pipe.write)
                throw error
            }
            state.stopPipe = pipe
            state.port = listener.port
            state.lifecycle = .running
            state.acceptorRunning = true
            return listener
        }
        let thread = Thread { [self] in acceptLoop(listener: listener.fd) }
        thread.name = "http-accept"
        thread.start()
    }

    /// Starts (unless already started) and suspends until the server has stopped.
    ///
    /// Cancelling the calling task stops the server as ``stop()`` does.
    public func run() async throws(HTTPServerError) {
        if state.withLock({ $0.lifecycle == .idle }) { try start() }
        await withTaskCancellationHandler {
            await waitForStopRequest()
        } onCancel: {
            beginStop()
        }
        await finishStop()
    }

    /// Stops accepting, lets in-flight responses finish within the grace period, then closes everything.
    ///
    /// Safe to call more than once and from several tasks; every call returns once the server has stopped.
    public func stop() async {
        beginStop()
        await finishStop()
    }

    // MARK: - Accepting

    private func acceptLoop(listener: Int32) {
        let stop = stopSignal
        while Socket.waitReadable(listener, stop: stop, timeout: nil) == .readable {
            guard let fd = Socket.accept(listener, sendTimeout: limits.writeTimeout) else { continue }
            let id = state.withLock { state -> UInt64? in
                guard state.connections.count < limits.maxConnections else { return nil }
                state.nextConnectionID += 1
                state.connections[state.nextConnectionID] = fd
                return state.nextConnectionID
            }
            guard let id else {
                let busy = HTTPResponse.serverError(503, "The server is serving its maximum of \(limits.maxConnections) connections; try again shortly.")
                if case .bytes(let body) = busy.body {
                    _ = Socket.send(fd, busy.head(framing: .length(body.count), keepAlive: false, requestVersion: .http11) + body, dontWait: true)
                }
                Socket.close(fd)
                continue
            }
            let thread = Thread { [self] in
                var connection = HTTPConnection(fd: fd, server: self)
                connection?.run()
                state.withLock { _ = $0.connections.removeValue(forKey: id) }
                Socket.close(fd)
            }
            thread.name = "http-connection"
            thread.stackSize = 1024 * 1024  // handlers run on this thread too (see ConnectionExecutor)
            thread.start()
        }
        Socket.close(listener)
        state.withLock { $0.acceptorRunning = false }
    }

    // MARK: - Stopping

    /// Marks the server stopping and wakes the accept thread and idle connections (idempotent, synchronous).
    private func beginStop() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            switch state.lifecycle {
            case .idle:
                state.lifecycle = .stopped
            case .running:
                state.lifecycle = .stopping
                stopping.store(true, ordering: .releasing)
                if let pipe = state.stopPipe { Socket.signal(pipe.write) }
            case .stopping, .stopped:
                break
            }
            defer { state.stopRequestWaiters.removeAll() }
            return state.stopRequestWaiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Waits for connections to finish within the grace period, then forces the rest and marks the server stopped.
    private func finishStop() async {
        let clock = ContinuousClock()  // wall-clock: the shutdown grace period, not simulation time
        let deadline = clock.now + limits.shutdownGracePeriod
        var forced = false
        while true {
            let finished = state.withLock { state in
                if !state.acceptorRunning && state.connections.isEmpty { state.lifecycle = .stopped }
                return state.lifecycle == .stopped
            }
            if finished { return }
            if !forced && clock.now >= deadline {
                forced = true
                forcedDown.store(true, ordering: .releasing)
                state.withLock { $0.connections.values.forEach(Socket.shutdownBoth) }
            }
            // Polls every 5 ms, not cancellably: a cancelled run() still grants the grace period.
            await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { continuation.resume() }
            }
        }
    }

    private func waitForStopRequest() async {
        await withCheckedContinuation { continuation in
            let requested = state.withLock { state in
                if state.lifecycle != .running { return true }
                state.stopRequestWaiters.append(continuation)
                return false
            }
            if requested { continuation.resume() }
        }
    }
}
