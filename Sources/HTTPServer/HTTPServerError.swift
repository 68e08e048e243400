import Foundation

/// What can go wrong when starting the server (clients' mistakes are answered, never thrown).
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The stable codes of ``HTTPServerError``.
    public enum Code: String, Sendable {
        /// The host is not an IPv4 address (or `localhost`).
        case invalidHost = "http.invalidHost"
        /// The socket could not be created, bound or put to listen.
        case bindFailed = "http.bindFailed"
        /// `start()` was called on a server that was already started or stopped.
        case alreadyStarted = "http.alreadyStarted"
    }

    /// What went wrong, as a stable code.
    public var code: Code
    /// What went wrong, where, and what to do.
    public var message: String

    /// Creates an error from its code and message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`, e.g. `http.bindFailed: Cannot listen on 127.0.0.1:80 …`.
    public var description: String { "\(code.rawValue): \(message)" }

    /// The message, for `LocalizedError` users.
    public var errorDescription: String? { message }
}
