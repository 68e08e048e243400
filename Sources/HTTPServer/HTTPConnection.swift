/// One client connection, served on its own thread with blocking reads bounded by `poll` timeouts.
///
/// The loop: answer every complete request already buffered (pipelining, in order), else wait
/// for bytes with the timeout of the parser's phase — idle (close silently), head or body
/// (answer `408` and close). The handler runs as a task on this thread's ``ConnectionExecutor``,
/// driven here until its response is there; a streamed body is iterated the same way and written here.
struct HTTPConnection {
    let fd: Int32
    let server: HTTPServer
    private let limits: HTTPServerLimits
    let stopSignal: Int32
    let executor: ConnectionExecutor
    private var parser: HTTPRequestParser
    private let clock = ContinuousClock()  // wall-clock: the connection's timeouts, not simulation time

    /// Creates the connection state for an accepted socket; `nil` when no descriptor is left for its executor.
    init?(fd: Int32, server: HTTPServer) {
        guard let executor = ConnectionExecutor() else { return nil }
        self.fd = fd
        self.server = server
        self.limits = server.limits
        self.stopSignal = server.stopSignal
        self.executor = executor
        self.parser = HTTPRequestParser(limits: server.limits)
    }

    /// Serves requests until the client leaves, a limit is hit, or the server stops. Does not close `fd`.
    mutating func run() {
        defer { executor.close() }
        var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
        var phase = parser.phase
        var phaseStart = clock.now
        while true {
            switch parser.next() {
            case .request(let request):
                guard respond(to: request) else { return }
                phase = parser.phase
                phaseStart = clock.now
                continue
            case .failure(let failure):
                refuse(failure.status, failure.message)
                return
            case .needMore:
                break
            }
            if parser.takeContinueRequest() {
                guard Socket.send(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
            }
            if parser.phase != phase {
                phase = parser.phase
                phaseStart = clock.now
            }
            let timeout = switch phase {
            case .idle: limits.idleTimeout
            case .head: limits.headerReadTimeout
            case .body: limits.bodyReadTimeout
            }
            let left = phaseStart + timeout - clock.now
            guard left > .zero else {
                if phase != .idle { refuse(408, "The request was not received in time.") }
                return
            }
            switch executor.wait(for: fd, stop: stopSignal, timeout: left) {
            case .timedOut, .woken:
                continue
            case .stopping:
                return
            case .readable:
                let count = Socket.receive(fd, into: &readBuffer)
                guard count > 0 else { return }
                parser.append(readBuffer[0..<count])
            }
        }
    }

    /// Answers one request. - Returns: whether the connection stays open.
    private mutating func respond(to request: HTTPRequest) -> Bool {
        guard let response = callHandler(request) else { return false }
        let keepAlive = request.keepAlive && !server.isStopping
        let sendsBody = request.method != "HEAD" && response.allowsBody
        switch response.body {
        case .bytes(let bytes):
            var wire = response.head(framing: .length(bytes.count), keepAlive: keepAlive, requestVersion: request.version)
            if sendsBody { wire += bytes }
            return Socket.send(fd, wire) && keepAlive
        case .stream(let stream):
            let chunked = request.version >= .http11
            guard sendsBody else {
                abandon(stream)
                let head = response.head(framing: chunked ? .chunked : .untilClose, keepAlive: keepAlive, requestVersion: request.version)
                return Socket.send(fd, head) && keepAlive
            }
            let head = response.head(framing: chunked ? .chunked : .untilClose, keepAlive: keepAlive && chunked, requestVersion: request.version)
            guard Socket.send(fd, head) else {
                abandon(stream)
                return false
            }
            return write(stream, chunked: chunked) && keepAlive && chunked
        case .webSocket(let session):
            guard Socket.send(fd, response.head(framing: .upgrade, keepAlive: false, requestVersion: request.version)) else {
                session.outbox.markEnded()
                session.onClose(1006)
                return false
            }
            serveWebSocket(session, received: parser.takeRemainingBytes())
            return false
        }
    }

    /// Runs the handler as a task on this thread's executor; `nil` when a forced shutdown gives up on it.
    ///
    /// Every 100 ms without a response it looks whether the client left (its end of stream or a
    /// reset, seen without consuming bytes — so a client that half-closes after its request is
    /// taken as gone too) or the server stops, and then cancels the handler's task once: a long
    /// handler that checks cancellation (the twin's `/twin/advance`) ends early, others finish as usual.
    private func callHandler(_ request: HTTPRequest) -> HTTPResponse? {
        let response = ThreadHandoff<HTTPResponse>()
        let handler = server.handler
        let task = Task(executorPreference: executor) {
            response.push(await handler(request))
        }
        var cancelled = false
        while !executor.run(until: { response.isReady }, timeout: .milliseconds(100)) {
            if server.isForcedDown {
                task.cancel()
                return nil
            }
            if !cancelled && (server.isStopping || Socket.peerHasClosed(fd)) {
                cancelled = true
                task.cancel()
            }
        }
        return response.take().values.first
    }

    /// Writes a stream's chunks as they come. - Returns: whether it ended normally (not client gone, not stopping).
    private func write(_ stream: AsyncStream<[UInt8]>, chunked: Bool) -> Bool {
        let chunks = ThreadHandoff<[UInt8]>()
        let task = Task(executorPreference: executor) {
            for await chunk in stream { chunks.push(chunk) }
            chunks.finish()
        }
        let end = Array("0\r\n\r\n".utf8)
        while true {
            // Every 100 ms without a chunk, look whether the client left or the server stops.
            _ = executor.run(until: { chunks.isReady }, timeout: .milliseconds(100))
            let (values, finished) = chunks.take()
            for chunk in values where !chunk.isEmpty {
                let framed = chunked ? Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10] : chunk
                guard Socket.send(fd, framed) else {
                    task.cancel()
                    return false
                }
            }
            if finished { return !chunked || Socket.send(fd, end) }
            if server.isStopping || Socket.peerHasClosed(fd) {
                task.cancel()  // the stream's onTermination runs with .cancelled
                if chunked && !Socket.peerHasClosed(fd) { _ = Socket.send(fd, end) }
                return false
            }
        }
    }

    /// Tells the producer of a stream nobody will read it: iterating in a cancelled task terminates it.
    private func abandon(_ stream: AsyncStream<[UInt8]>) {
        let task = Task(executorPreference: executor) {
            for await _ in stream {}
        }
        task.cancel()
        _ = executor.run(until: { false }, timeout: .zero)
    }

    /// Answers a request the server will not serve, then closes gracefully.
    private func refuse(_ status: Int, _ message: String) {
        let response = HTTPResponse.serverError(status, message)
        guard case .bytes(let body) = response.body else { return }
        _ = Socket.send(fd, response.head(framing: .length(body.count), keepAlive: false, requestVersion: .http11) + body)
        Socket.lingeringShutdown(fd, stop: stopSignal)
    }
}
