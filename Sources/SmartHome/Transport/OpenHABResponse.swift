import Foundation

/// One HTTP response of openHAB's REST API, as bytes: status, headers, body.
public struct OpenHABResponse: Sendable, Hashable {
    /// The HTTP status code (200, 201, 202, 400, 401, 403, 404, 405, …).
    public var status: Int
    /// Header fields (`Content-Type`, and on the twin's errors ``errorCodeHeader`` and ``errorMessageHeader``).
    public var headers: [String: String]
    /// The body (empty for none).
    public var body: Data

    /// The twin's extra header on an error: the ``SmartHomeError`` code, e.g. `command.invalid`.
    ///
    /// openHAB itself answers some errors with an empty body (a command that does not parse);
    /// the twin's router also names the error here so that its own client can rebuild the exact
    /// error. A client of a real openHAB, which sends no such header, infers it from the status.
    public static let errorCodeHeader = "X-Twin-Error-Code"
    /// The twin's extra header on an error: the ``SmartHomeError`` message, percent-encoded.
    public static let errorMessageHeader = "X-Twin-Error-Message"

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

extension OpenHABResponse {
    /// The value of header `name`, compared ignoring ASCII case.
    public func header(_ name: String) -> String? {
        if let exact = headers[name] { return exact }
        return headers.first { OpenHABPath.equalIgnoringASCIICase($0.key, name) }?.value
    }
}
