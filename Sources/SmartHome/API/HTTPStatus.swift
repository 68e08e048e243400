/// The HTTP status codes the openHAB REST API answers with.
public enum HTTPStatus: Int, Sendable, Hashable, CustomStringConvertible {
    case ok = 200
    case created = 201
    case accepted = 202
    case badRequest = 400
    case unauthorized = 401
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case conflict = 409
    case internalServerError = 500
    case badGateway = 502

    /// The number and reason phrase, e.g. `404 Not Found`.
    public var description: String {
        let reason: String
        switch self {
        case .ok: reason = "OK"
        case .created: reason = "Created"
        case .accepted: reason = "Accepted"
        case .badRequest: reason = "Bad Request"
        case .unauthorized: reason = "Unauthorized"
        case .forbidden: reason = "Forbidden"
        case .notFound: reason = "Not Found"
        case .methodNotAllowed: reason = "Method Not Allowed"
        case .conflict: reason = "Conflict"
        case .internalServerError: reason = "Internal Server Error"
        case .badGateway: reason = "Bad Gateway"
        }
        return "\(rawValue) \(reason)"
    }
}
