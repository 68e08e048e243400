#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The WebSocket half of a connection: after the `101` head, this thread reads and answers
/// RFC 6455 frames and writes what the session's outbox holds, until a close, a limit, the
/// client leaving, or the server stopping.
extension HTTPConnection {
    /// Serves `session` on this connection; `received` holds bytes that came after the handshake.
    func serveWebSocket(_ session: WebSocketSession, received: [UInt8]) {
        let executor = executor
        session.outbox.setWaker { executor.wake() }
        let limits = session.limits
        let clock = ContinuousClock()  // wall-clock: the WebSocket's idle timeout, not simulation time
        var assembler = WebSocketMessageAssembler(maxMessageBytes: limits.maxMessageBytes, maxFragments: limits.maxFragments)
        var buffer = received
        var cursor = 0
        var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
        var lastActivity = clock.now
        var closeCode: UInt16 = 1006
        defer {
            session.outbox.markEnded()
            session.onClose(closeCode)
        }
        while true {
            // Write what waits, then a requested close.
            let (messages, close) = session.outbox.take()
            if !messages.isEmpty {
                // One write for everything waiting: a burst of events costs one system call, not one per event.
                var wire: [UInt8] = []
                for message in messages { wire += WebSocketFrame.encode(.text, Array(message.utf8)) }
                guard Socket.send(fd, wire) else {
                    if errno == EAGAIN || errno == EWOULDBLOCK { session.outbox.markSlowReader() }  // the send timed out
                    return
                }
                lastActivity = clock.now
            }
            if let close {
                closeCode = close.code
                closeConnection(close.code, close.reason)
                return
            }
            // Answer every complete frame received.
            do throws(WebSocketFrame.Violation) {
                while let (frame, next) = try WebSocketFrame.decode(buffer, from: cursor, requireMask: true, maxPayload: limits.maxMessageBytes) {
                    cursor = next
                    lastActivity = clock.now
                    switch try assembler.add(frame) {
                    case nil:
                        break
                    case .ping(let payload):
                        guard Socket.send(fd, WebSocketFrame.encode(.pong, payload)) else { return }
                    case .close(let code, _):
                        // §5.5.1: echo the code (none received: a close without one, recorded as 1005).
                        closeCode = code ?? 1005
                        closeConnection(code, "")
                        return
                    case .text(let text):
                        guard deliver(text, to: session) else { return }
                        // Time the server spent on the message is not the client's silence: on a busy machine a
                        // command can wait seconds for the simulation, and the idle timeout must not close on it.
                        lastActivity = clock.now
                    }
                }
            } catch {
                closeCode = error.code
                closeConnection(error.code, error.reason)
                return
            }
            if cursor > 0 {
                buffer.removeFirst(cursor)
                cursor = 0
            }
            if server.isStopping {
                closeCode = 1001
                closeConnection(1001, "the server is stopping")
                return
            }
            let left = lastActivity + limits.idleTimeout - clock.now
            guard left > .zero else {
                closeCode = 1001
                closeConnection(1001, "idle for \(limits.idleTimeout)")
                return
            }
            // A wake the outbox gave while this thread ran a handler (`deliver`) was taken by that run's own
            // waits: look at the outbox again before sleeping, or its messages would wait for the next frame
            // or the idle timeout (a reply and its event, seen on a busy machine).
            if session.outbox.hasPending { continue }
            switch executor.wait(for: fd, stop: stopSignal, timeout: left) {
            case .readable:
                let count = Socket.receive(fd, into: &readBuffer)
                guard count > 0 else { return }  // gone without a close frame: 1006
                buffer += readBuffer[0..<count]
            case .woken, .timedOut, .stopping:
                continue
            }
        }
    }

    /// Runs the session's text handler on this thread's executor until it returns. - Returns: `false` on a forced shutdown.
    private func deliver(_ text: String, to session: WebSocketSession) -> Bool {
        let done = ThreadHandoff<Bool>()
        let onText = session.onText
        let task = Task(executorPreference: executor) {
            await onText(text)
            done.push(true)
        }
        while !executor.run(until: { done.isReady }, timeout: .milliseconds(100)) {
            if server.isForcedDown {
                task.cancel()
                return false
            }
        }
        return true
    }

    /// Sends a close frame (without waiting on a client that does not read), then our FIN, and
    /// drains what the client still sends (its own close) so the close frame is not lost to a reset.
    private func closeConnection(_ code: UInt16?, _ reason: String) {
        let payload = code.map { WebSocketFrame.closePayload($0, reason) } ?? []
        _ = Socket.send(fd, WebSocketFrame.encode(.close, payload), dontWait: true)
        Socket.lingeringShutdown(fd, stop: stopSignal)
    }
}
