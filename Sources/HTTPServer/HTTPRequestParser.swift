/// Why a request cannot be served: the status to answer before closing, and a sentence for the client.
struct HTTPParseFailure: Error, Sendable, Equatable {
    /// 400, 413, 414, 431, 501 or 505.
    var status: Int
    /// What was wrong, sent as the plain-text body.
    var message: String
}

/// An incremental HTTP/1.x request parser: a pure state machine over a byte buffer, no I/O.
///
/// Feed bytes with ``append(_:)`` and pull requests with ``next()`` until it says
/// ``Event/needMore``; several pipelined requests in one read come out one by one. After a
/// ``Event/failure(_:)`` the parser stays failed (the connection must be closed).
struct HTTPRequestParser {
    /// What ``next()`` found.
    enum Event {
        /// No complete request yet; read more bytes.
        case needMore
        /// A complete request.
        case request(HTTPRequest)
        /// The bytes cannot be a valid request within the limits.
        case failure(HTTPParseFailure)
    }

    /// Where the parser is, to pick the right timeout.
    enum Phase: Equatable {
        /// Between requests, no byte of the next one received (blank lines do not count).
        case idle
        /// Inside a request line or header section.
        case head
        /// Inside a body (or chunked trailers).
        case body
    }

    private enum State {
        case requestLine, headers, fixedBody(remaining: Int), chunkSize, chunkData(remaining: Int), chunkEnd, trailers, failed
    }

    private enum Line {
        case line(ArraySlice<UInt8>), incomplete, tooLong
    }

    private let limits: HTTPServerLimits
    private var buffer: [UInt8] = []
    private var cursor = 0
    private var state = State.requestLine
    private var method = "", target = "", version = HTTPVersion.http11
    private var headers = HTTPHeaders()
    private var headerBytes = 0
    private var body: [UInt8] = []
    private var continuePending = false

    /// Creates a parser that enforces `limits`.
    init(limits: HTTPServerLimits) {
        self.limits = limits
    }

    /// Where the parser is; see ``Phase``.
    var phase: Phase {
        switch state {
        case .requestLine: cursor == buffer.count ? .idle : .head
        case .headers: .head
        case .failed: .idle
        default: .body
        }
    }

    /// Appends received bytes.
    mutating func append(_ bytes: ArraySlice<UInt8>) {
        if cursor > 0 && (cursor == buffer.count || cursor > 64 * 1024) {
            buffer.removeFirst(cursor)
            cursor = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Takes the bytes received after the last complete request (a WebSocket's first frames may
    /// arrive with its handshake); the parser is failed afterwards and must not be used again.
    mutating func takeRemainingBytes() -> [UInt8] {
        defer {
            buffer = []
            cursor = 0
            state = .failed
        }
        return Array(buffer[cursor...])
    }

    /// Whether the client asked for `100 Continue` and has not been answered; reading clears it.
    mutating func takeContinueRequest() -> Bool {
        defer { continuePending = false }
        return continuePending
    }

    /// The next complete request, a failure, or ``Event/needMore``.
    mutating func next() -> Event {
        while true {
            switch state {
            case .failed:
                return .needMore
            case .requestLine:
                switch nextLine(limit: limits.maxRequestLineBytes) {
                case .incomplete: return .needMore
                case .tooLong: return fail(414, "The request line is longer than \(limits.maxRequestLineBytes) bytes.")
                case .line(let line):
                    if line.isEmpty { continue }  // RFC 9112 §2.2: ignore blank lines before a request
                    if let failure = parseRequestLine(line) { return .failure(failure) }
                    state = .headers
                }
            case .headers, .trailers:
                let isTrailer: Bool = if case .trailers = state { true } else { false }
                let budget = max(0, limits.maxHeaderBytes - headerBytes)
                switch nextLine(limit: budget) {
                case .incomplete: return .needMore
                case .tooLong: return fail(431, "The header section is larger than \(limits.maxHeaderBytes) bytes.")
                case .line(let line):
                    headerBytes += line.count + 2
                    if line.isEmpty {
                        if isTrailer { return complete() }
                        if let event = finishHead() { return event }
                        continue
                    }
                    if isTrailer {  // trailers are checked as fields, then dropped
                        guard Self.isField(line) else { return fail(400, "A chunked trailer line is not `Name: value`.") }
                        continue
                    }
                    if headers.fields.count >= limits.maxHeaderCount {
                        return fail(431, "The request has more than \(limits.maxHeaderCount) header fields.")
                    }
                    if let failure = parseField(line) { return .failure(failure) }
                }
            case .fixedBody(let remaining), .chunkData(let remaining):
                let take = min(remaining, buffer.count - cursor)
                body.append(contentsOf: buffer[cursor..<(cursor + take)])
                cursor += take
                if take < remaining {
                    if case .fixedBody = state { state = .fixedBody(remaining: remaining - take) } else { state = .chunkData(remaining: remaining - take) }
                    return .needMore
                }
                if case .fixedBody = state { return complete() }
                state = .chunkEnd
            case .chunkSize:
                switch nextLine(limit: 1024) {
                case .incomplete: return .needMore
                case .tooLong: return fail(400, "A chunk-size line is longer than 1024 bytes.")
                case .line(let line):
                    let size: Int
                    switch Self.chunkSize(line) {
                    case .success(let value): size = value
                    case .failure(let failure): return fail(failure.status, failure.message)
                    }
                    if size == 0 {
                        state = .trailers
                    } else if body.count + size > limits.maxBodyBytes {
                        return fail(413, "The chunked body is larger than \(limits.maxBodyBytes) bytes.")
                    } else {
                        state = .chunkData(remaining: size)
                    }
                }
            case .chunkEnd:
                switch nextLine(limit: 0) {
                case .incomplete: return .needMore
                case .tooLong: return fail(400, "A chunk's data is longer than its size says.")
                case .line: state = .chunkSize
                }
            }
        }
    }

    // MARK: - Pieces

    private mutating func fail(_ status: Int, _ message: String) -> Event {
        state = .failed
        return .failure(HTTPParseFailure(status: status, message: message))
    }

    /// The next line without its CRLF (a bare LF is accepted), if it fits in `limit` bytes.
    private mutating func nextLine(limit: Int) -> Line {
        let available = buffer.count - cursor
        let end = limit >= available ? buffer.count : min(buffer.count, cursor + limit + 2)
        guard let newline = buffer[cursor..<end].firstIndex(of: 10) else {
            return available - 1 > limit ? .tooLong : .incomplete
        }
        var line = buffer[cursor..<newline]
        if line.last == 13 { line = line.dropLast() }
        if line.count > limit { return .tooLong }
        cursor = newline + 1
        return .line(line)
    }

    private mutating func parseRequestLine(_ line: ArraySlice<UInt8>) -> HTTPParseFailure? {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenByte),
              !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 32 && $0 != 127 }) else {
            return fail400("The request line is not `METHOD target HTTP/1.1`.")
        }
        let versionText = Array(parts[2])
        let digit = { (byte: UInt8) in byte >= 48 && byte <= 57 }
        guard versionText.count == 8, versionText.starts(with: Array("HTTP/".utf8)), digit(versionText[5]),
              versionText[6] == UInt8(ascii: "."), digit(versionText[7]) else {
            return fail400("The request line's version is not `HTTP/1.1` or `HTTP/1.0`.")
        }
        version = HTTPVersion(major: Int(versionText[5] - 48), minor: Int(versionText[7] - 48))
        guard version.major == 1 else {
            state = .failed
            return HTTPParseFailure(status: 505, message: "Only HTTP/1.0 and HTTP/1.1 are served, not \(version).")
        }
        method = String(decoding: parts[0], as: UTF8.self)
        target = String(decoding: parts[1], as: UTF8.self)
        if method == "CONNECT" {
            state = .failed
            return HTTPParseFailure(status: 501, message: "CONNECT tunnels are not supported; send absolute-form requests instead.")
        }
        let first = parts[1].first
        let isAbsolute = target.lowercased().hasPrefix("http://") || target.lowercased().hasPrefix("https://")
        guard first == UInt8(ascii: "/") || isAbsolute || (target == "*" && method == "OPTIONS") else {
            return fail400("The request target must be a path (`/…`) or an absolute `http://` URL.")
        }
        return nil
    }

    /// RFC 9112 §7.1: `chunk-size [ chunk-ext ]`, where chunk-size is `1*HEXDIG` — no sign, no
    /// `0x`, no blank before the digits — and chunk-ext is `*( BWS ";" BWS name [ BWS "=" BWS value ] )`.
    /// Sizes beyond the body limit's reach (more than 15 significant hex digits) are refused
    /// before any arithmetic, so no size can overflow.
    static func chunkSize(_ line: ArraySlice<UInt8>) -> Result<Int, HTTPParseFailure> {
        let digits = line.prefix(while: isHexDigit)
        guard !digits.isEmpty else {
            return .failure(HTTPParseFailure(status: 400, message: "A chunk-size line must start with hexadecimal digits (no sign, blank or 0x)."))
        }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 15 else {
            return .failure(HTTPParseFailure(status: 413, message: "A chunk size of \(digits.count) hexadecimal digits is beyond any body this server takes."))
        }
        var size = 0
        for byte in significant { size = size * 16 + hexValue(byte) }
        let rest = line[digits.endIndex...]
        let extensions = rest.drop { $0 == 32 || $0 == 9 }
        guard rest.isEmpty || extensions.first == UInt8(ascii: ";") else {
            return .failure(HTTPParseFailure(status: 400, message: "A chunk size is followed by something other than a `;` chunk extension."))
        }
        guard extensions.allSatisfy({ $0 >= 32 && $0 != 127 || $0 == 9 }) else {
            return .failure(HTTPParseFailure(status: 400, message: "A chunk extension contains a control character."))
        }
        return .success(size)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...70, 97...102: true
        default: false
        }
    }

    private static func hexValue(_ byte: UInt8) -> Int {
        switch byte {
        case 48...57: Int(byte - 48)
        case 65...70: Int(byte - 55)
        default: Int(byte - 87)
        }
    }

    /// Whether `line` is `token ":" value` with no control character in the value.
    private static func isField(_ line: ArraySlice<UInt8>) -> Bool {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
              line[line.startIndex..<colon].allSatisfy(isTokenByte) else { return false }
        return line[(colon + 1)...].allSatisfy { $0 >= 32 && $0 != 127 || $0 == 9 }
    }

    private mutating func parseField(_ line: ArraySlice<UInt8>) -> HTTPParseFailure? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
              line[line.startIndex..<colon].allSatisfy(Self.isTokenByte) else {
            return fail400("A header line is not `Name: value`.")
        }
        let value = line[(colon + 1)...].trimmingBlanks
        guard value.allSatisfy({ $0 >= 32 && $0 != 127 || $0 == 9 }) else {
            return fail400("A header value contains a control character.")
        }
        headers.add(String(decoding: line[line.startIndex..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self))
        return nil
    }

    /// Decides how the body is framed once the blank line ends the header section.
    private mutating func finishHead() -> Event? {
        if version >= .http11 && headers["Host"] == nil {
            return fail(400, "An HTTP/1.1 request needs a Host header.")
        }
        let transferEncodings = headers.values(for: "Transfer-Encoding")
        let lengths = headers.values(for: "Content-Length").flatMap { $0.split(separator: ",").map { String($0.trimmingSpaces) } }
        if !transferEncodings.isEmpty {
            if !lengths.isEmpty { return fail(400, "A request may not have both Content-Length and Transfer-Encoding.") }
            let codings = transferEncodings.flatMap { $0.split(separator: ",").map { $0.trimmingSpaces.lowercased() } }
            guard codings == ["chunked"] else { return fail(501, "Only the chunked transfer coding is supported.") }
            state = .chunkSize
        } else if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18, first.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                  let length = Int(first) else {
                return fail(400, "The Content-Length header is not one whole number.")
            }
            if length > limits.maxBodyBytes { return fail(413, "The body is larger than \(limits.maxBodyBytes) bytes.") }
            if length == 0 { return complete() }
            state = .fixedBody(remaining: length)
        } else {
            return complete()
        }
        if version >= .http11, let expect = headers["Expect"], HTTPHeaders.sameName(expect, "100-continue") {
            continuePending = cursor == buffer.count
        }
        return nil
    }

    private mutating func complete() -> Event {
        let request = HTTPRequest(method: method, target: target, version: version, headers: headers, body: body)
        state = .requestLine
        headers = HTTPHeaders()
        headerBytes = 0
        body = []
        continuePending = false
        return .request(request)
    }

    private mutating func fail400(_ message: String) -> HTTPParseFailure {
        state = .failed
        return HTTPParseFailure(status: 400, message: message)
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension ArraySlice<UInt8> {
    /// The bytes without leading and trailing spaces and tabs.
    var trimmingBlanks: ArraySlice<UInt8> {
        let blank = { (byte: UInt8) in byte == 32 || byte == 9 }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return [] }
        return self[first...last]
    }
}
