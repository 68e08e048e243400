import Foundation
import HTTPServer
import Simulation

/// What `serve` refuses: a bad start, or a request to the twin's own endpoints it cannot honour.
///
/// Each code maps to the HTTP status the client gets (``httpStatus``); the body is
/// `{"error":{"code":…,"message":…,"http-code":…}}`, openHAB's error shape plus the code.
public struct ServeError: CodedError, Equatable {
    /// Stable codes.
    public enum Code: String, Sendable {
        /// The server could not listen (address taken, bad host).
        case bindFailed = "serve.bindFailed"
        /// The live run could not start (a bad speed, the kernel busy).
        case runFailed = "serve.runFailed"
        /// A request body or query the twin cannot read (400).
        case badRequest = "serve.badRequest"
        /// No such resource (404).
        case notFound = "serve.notFound"
        /// The resource exists but not for this method (405).
        case methodNotAllowed = "serve.methodNotAllowed"
        /// The clock cannot be moved that way: a paced run, or a time already past (409).
        case clockConflict = "serve.clockConflict"
        /// A fault the world refused: no such device or city (422).
        case faultRefused = "serve.faultRefused"
        /// An advance past the scenario's end plus ``ServeRouter/advanceMargin`` (422).
        case advanceTooFar = "serve.advanceTooFar"
        /// An advance stopped early: its client left or the server is stopping (503).
        case advanceInterrupted = "serve.advanceInterrupted"
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// What went wrong, where, and what to do.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The HTTP status a client gets for this error.
    public var httpStatus: Int {
        switch code {
        case .bindFailed, .runFailed: 500
        case .badRequest: 400
        case .notFound: 404
        case .methodNotAllowed: 405
        case .clockConflict: 409
        case .faultRefused, .advanceTooFar: 422
        case .advanceInterrupted: 503
        }
    }

    /// `{"error":{"code":…,"message":…,"http-code":…}}`.
    public var responseBody: String { Self.body(code: code.rawValue, message: message, status: httpStatus) }

    /// The error body of every `serve` error, the twin's own and the booking services' alike.
    static func body(code: String, message: String, status: Int) -> String {
        "{\"error\":{\"code\":\(JSONString.quoted(code)),\"message\":\(JSONString.quoted(message)),\"http-code\":\(status)}}"
    }
}

/// The HTTP server's start-up errors are coded errors too. `HTTPServer` depends on nothing, so it cannot
/// see ``CodedError``; its error already has the shape (stable `code`, `message`, the same `description`),
/// and the conformance is declared here, in the one module that starts the server.
extension HTTPServerError: CodedError {}
