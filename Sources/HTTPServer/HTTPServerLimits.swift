/// The bounds the server puts on every client: sizes, counts and wall-clock timeouts.
///
/// Every limit has a default fit for a loopback twin and can be overridden at `init`.
/// What a client meets when it crosses one:
///
/// | limit | answer |
/// |---|---|
/// | ``maxRequestLineBytes`` | `414 URI Too Long`, then close |
/// | ``maxHeaderBytes``, ``maxHeaderCount`` | `431 Request Header Fields Too Large`, then close |
/// | ``maxBodyBytes`` | `413 Content Too Large`, then close (checked before the body is read) |
/// | ``headerReadTimeout``, ``bodyReadTimeout`` | `408 Request Timeout`, then close |
/// | ``idleTimeout`` | the connection is closed silently (no request was under way) |
/// | ``maxConnections`` | further connections are accepted, answered `503` and closed |
/// | ``writeTimeout`` | a client that stops reading is dropped |
/// | ``shutdownGracePeriod`` | after it, `stop()` shuts the remaining sockets down |
public struct HTTPServerLimits: Sendable, Equatable {
    /// The longest request line (`GET /path?query HTTP/1.1`) in bytes, without its CRLF.
    public var maxRequestLineBytes: Int
    /// The most bytes of header fields (and of chunked trailers) in one request.
    public var maxHeaderBytes: Int
    /// The most header fields in one request.
    public var maxHeaderCount: Int
    /// The largest request body in bytes, after chunked decoding.
    public var maxBodyBytes: Int
    /// The most connections served at once; the accept loop answers further ones `503`.
    public var maxConnections: Int
    /// Wall time from the first byte of a request to the end of its header section.
    public var headerReadTimeout: Duration
    /// Wall time from the end of the header section to the end of the body.
    public var bodyReadTimeout: Duration
    /// Wall time a connection may sit between requests (or before the first) with nothing sent.
    public var idleTimeout: Duration
    /// Wall time one `send` may block on a client that does not read.
    public var writeTimeout: Duration
    /// Wall time `stop()` lets in-flight responses finish before shutting sockets down.
    public var shutdownGracePeriod: Duration

    /// The default limits: 8 KiB request line, 32 KiB / 100 header fields, 1 MiB body,
    /// 512 connections, 10 s header, 30 s body, 30 s idle, 30 s write, 5 s shutdown grace.
    public static let defaults = HTTPServerLimits()

    /// Creates limits; every parameter defaults to the value in ``defaults``.
    public init(
        maxRequestLineBytes: Int = 8 * 1024,
        maxHeaderBytes: Int = 32 * 1024,
        maxHeaderCount: Int = 100,
        maxBodyBytes: Int = 1024 * 1024,
        maxConnections: Int = 512,
        headerReadTimeout: Duration = .seconds(10),
        bodyReadTimeout: Duration = .seconds(30),
        idleTimeout: Duration = .seconds(30),
        writeTimeout: Duration = .seconds(30),
        shutdownGracePeriod: Duration = .seconds(5)
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections
        self.headerReadTimeout = headerReadTimeout
        self.bodyReadTimeout = bodyReadTimeout
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
        self.shutdownGracePeriod = shutdownGracePeriod
    }
}
