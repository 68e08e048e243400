extension HTTPResponse {
    /// How the server frames a response on the wire.
    enum Framing {
        /// `Content-Length: n`; the body follows unless the request was `HEAD`.
        case length(Int)
        /// `Transfer-Encoding: chunked` (streams to HTTP/1.1 clients).
        case chunked
        /// No length; the end of the body is the end of the connection (streams to HTTP/1.0 clients).
        case untilClose
        /// `Connection: Upgrade` and no body: the connection switches protocols (a WebSocket).
        case upgrade
    }

    /// The status line and header section, ending with the blank line.
    ///
    /// Framing and `Connection` fields given by the handler are replaced; CR and LF inside
    /// names or values become spaces so a handler cannot split the header section.
    func head(framing: Framing, keepAlive: Bool, requestVersion: HTTPVersion) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for field in headers where !Self.framingNames.contains(where: { HTTPHeaders.sameName($0, field.name) }) {
            text += "\(Self.clean(field.name)): \(Self.clean(field.value))\r\n"
        }
        switch framing {
        case .length(let count):
            if status != 204 && status != 304 && !(100..<200).contains(status) { text += "Content-Length: \(count)\r\n" }
        case .chunked: text += "Transfer-Encoding: chunked\r\n"
        case .untilClose: break
        case .upgrade:
            return Array((text + "Connection: Upgrade\r\n\r\n").utf8)
        }
        if !keepAlive {
            text += "Connection: close\r\n"
        } else if requestVersion < .http11 {
            text += "Connection: keep-alive\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// Whether a body may follow the head for this status (not 1xx, 204, 304).
    var allowsBody: Bool { status >= 200 && status != 204 && status != 304 }

    /// A plain-text response the server sends on its own (errors, timeouts).
    static func serverError(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, text: message + "\n")
    }

    private static let framingNames = ["Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive"]

    private static func clean(_ text: String) -> String {
        text.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" })
            ? String(text.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 })
            : text
    }
}
