import Foundation
import Synchronization

/// The bounds on one WebSocket connection, and what a client meets when it crosses one.
///
/// | limit | close code |
/// |---|---|
/// | ``maxMessageBytes`` (one frame or a whole fragmented message) | 1009 message too big |
/// | ``maxFragments`` in one message (a fragment storm) | 1008 policy violation |
/// | ``outboxLimit`` messages waiting for a client that does not read | 1008 policy violation; the sender never waits |
/// | ``idleTimeout`` with no frame either way | 1001 going away |
public struct WebSocketLimits: Sendable, Equatable {
    /// The largest message a client may send, in bytes (Jetty's default for text: 64 KiB).
    public var maxMessageBytes: Int
    /// The most frames one fragmented message may have.
    public var maxFragments: Int
    /// The most messages waiting to be written before the client is dropped as a slow reader.
    public var outboxLimit: Int
    /// Wall time without a frame in either direction before the server closes (openHAB: 10 s).
    public var idleTimeout: Duration

    /// Creates limits; defaults 64 KiB, 1,024 fragments, 1,024 waiting messages, 10 s idle.
    public init(maxMessageBytes: Int = 64 * 1024, maxFragments: Int = 1_024, outboxLimit: Int = 1_024, idleTimeout: Duration = .seconds(10)) {
        self.maxMessageBytes = maxMessageBytes
        self.maxFragments = maxFragments
        self.outboxLimit = outboxLimit
        self.idleTimeout = idleTimeout
    }
}

/// What the application wants written to one WebSocket client: text messages and, at most once, a close.
///
/// ``send(_:)`` never blocks: the messages wait in a bounded queue the connection's thread writes
/// from. A client that lets ``WebSocketLimits/outboxLimit`` messages pile up is dropped (close 1008),
/// so whoever sends — the simulation's event bus — never waits for a socket.
public final class WebSocketOutbox: Sendable {
    private struct State {
        var messages: [String] = []
        var close: (code: UInt16, reason: String)?
        var ended = false
        var slowReader = false
        var waker: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    private let limit: Int

    /// An outbox holding at most `limit` waiting messages.
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Queues a text message. - Returns: `false` when the connection is closing or ended, or the
    /// client reads too slowly (the outbox then closes with 1008).
    @discardableResult
    public func send(_ text: String) -> Bool {
        let (accepted, waker) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard state.close == nil, !state.ended else { return (false, nil) }
            if state.messages.count >= limit {
                state.close = (1008, "the client reads too slowly; \(limit) messages were waiting")
                state.slowReader = true
                return (false, state.waker)
            }
            // Only the first waiting message wakes the connection: it takes everything that waits at once.
            let wasEmpty = state.messages.isEmpty
            state.messages.append(text)
            return (true, wasEmpty ? state.waker : nil)
        }
        waker?()
        return accepted
    }

    /// Asks the connection to close with `code` after the messages already queued (the first close wins).
    public func close(code: UInt16 = 1000, reason: String = "") {
        let waker = state.withLock { state -> (@Sendable () -> Void)? in
            if state.close == nil && !state.ended { state.close = (code, reason) }
            return state.waker
        }
        waker?()
    }

    /// Whether the connection has ended (the client left or a close completed).
    public var hasEnded: Bool { state.withLock { $0.ended } }

    /// Whether the client was dropped for reading too slowly: ``WebSocketLimits/outboxLimit`` messages
    /// waited, or a write to it timed out (`HTTPServerLimits/writeTimeout`). Whichever came first, once.
    public var droppedAsSlowReader: Bool { state.withLock { $0.slowReader } }

    /// How many messages wait to be written.
    public var waitingCount: Int { state.withLock { $0.messages.count } }

    /// Whether messages or a close wait for the connection's thread.
    var hasPending: Bool { state.withLock { !$0.messages.isEmpty || $0.close != nil } }

    // MARK: The connection's side

    func setWaker(_ waker: @escaping @Sendable () -> Void) {
        state.withLock { $0.waker = waker }
    }

    /// Takes the waiting messages and the requested close, if any.
    func take() -> (messages: [String], close: (code: UInt16, reason: String)?) {
        state.withLock { state in
            defer { state.messages.removeAll(keepingCapacity: true) }
            return (state.messages, state.close)
        }
    }

    /// A write to the client timed out: it does not read.
    func markSlowReader() {
        state.withLock { $0.slowReader = true }
    }

    func markEnded() {
        state.withLock { state in
            state.ended = true
            state.messages.removeAll()
            state.waker = nil
        }
    }
}

/// A WebSocket the handler accepts: what to write (``outbox``), what to do with each text message
/// the client sends, and what to do once the connection has ended.
public struct WebSocketSession: Sendable {
    /// The subprotocol to name in `Sec-WebSocket-Protocol`, if the client offered any.
    public var subprotocol: String?
    /// What to write.
    public var outbox: WebSocketOutbox
    /// Called for each complete, valid UTF-8 text message, one at a time in arrival order (the
    /// next frame is read once it returns).
    public var onText: @Sendable (String) async -> Void
    /// Called once when the connection has ended, with the close code sent or received (1006 when none was).
    public var onClose: @Sendable (UInt16) -> Void
    /// The connection's bounds.
    public var limits: WebSocketLimits

    /// Creates a session.
    public init(subprotocol: String? = nil, outbox: WebSocketOutbox, limits: WebSocketLimits = WebSocketLimits(),
                onText: @escaping @Sendable (String) async -> Void, onClose: @escaping @Sendable (UInt16) -> Void = { _ in }) {
        self.subprotocol = subprotocol
        self.outbox = outbox
        self.limits = limits
        self.onText = onText
        self.onClose = onClose
    }
}

/// The RFC 6455 §4.2 opening handshake, server side.
public enum WebSocketHandshake {
    /// The GUID of RFC 6455 §1.3.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`: base64(SHA-1(key + GUID)).
    public static func acceptValue(forKey key: String) -> String {
        Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString()
    }

    /// Whether `request` asks to open a WebSocket (`Upgrade: websocket`), valid or not.
    public static func isUpgrade(_ request: HTTPRequest) -> Bool {
        request.headers.contains(token: "websocket", in: "Upgrade")
    }

    /// The `101` response that opens `session`, or the refusal of a handshake that breaks RFC 6455:
    /// `405` for a method other than GET, `400` for missing or malformed fields, `426` with
    /// `Sec-WebSocket-Version: 13` for another protocol version.
    public static func response(to request: HTTPRequest, session: WebSocketSession) -> HTTPResponse {
        guard request.method == "GET" else {
            return HTTPResponse(status: 405, headers: ["Allow": "GET"], text: "A WebSocket opens with GET.\n")
        }
        guard request.version >= .http11, isUpgrade(request), request.headers.contains(token: "upgrade", in: "Connection") else {
            return HTTPResponse(status: 400, text: "A WebSocket handshake needs HTTP/1.1, Upgrade: websocket and Connection: Upgrade.\n")
        }
        guard request.headers["Sec-WebSocket-Version"]?.trimmingCharacters(in: .whitespaces) == "13" else {
            return HTTPResponse(status: 426, headers: ["Sec-WebSocket-Version": "13"], text: "Only WebSocket version 13 (RFC 6455) is served.\n")
        }
        guard let key = request.headers["Sec-WebSocket-Key"]?.trimmingCharacters(in: .whitespaces),
              let nonce = Data(base64Encoded: key), nonce.count == 16 else {
            return HTTPResponse(status: 400, text: "Sec-WebSocket-Key must be 16 bytes in base64.\n")
        }
        var headers: HTTPHeaders = ["Upgrade": "websocket", "Sec-WebSocket-Accept": acceptValue(forKey: key)]
        if let subprotocol = session.subprotocol { headers.add("Sec-WebSocket-Protocol", subprotocol) }
        var response = HTTPResponse(status: 101, headers: headers)
        response.body = .webSocket(session)
        return response
    }
}
