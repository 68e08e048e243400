import Foundation
import Simulation

/// The one error type of the `SmartHome` module: a stable code, a sentence for people, and
/// the HTTP status openHAB's REST API answers with for the same mistake.
public struct SmartHomeError: CodedError, Equatable {
    /// Stable, machine-readable codes (scenario files match `expectError` against these).
    public enum Code: String, Sendable, CaseIterable {
        /// A Thing, Thing type, channel or channel type UID is malformed.
        case invalidUID = "uid.invalid"
        /// An Item name does not match `[a-zA-Z_][a-zA-Z0-9_]*`.
        case invalidItemName = "item.nameInvalid"
        /// An Item type is not one the twin knows.
        case unknownItemType = "item.typeUnknown"
        /// No Item with that name exists.
        case itemNotFound = "item.notFound"
        /// The Item was not created through the API and cannot be changed through it.
        case itemNotManaged = "item.notManaged"
        /// `DELETE /rest/items/{name}` of an Item that does not exist or is not managed (404, empty body).
        case itemNotRemovable = "item.notRemovable"
        /// A metadata call for an Item or namespace that does not exist (404, empty body).
        case metadataNotFound = "metadata.notFound"
        /// A request that needs a body came without one.
        case missingBody = "request.bodyMissing"
        /// The name in the body differs from the name in the path.
        case nameMismatch = "request.nameMismatch"
        /// A command text is not valid for the Item's type.
        case invalidCommand = "command.invalid"
        /// A state text is not valid for the Item's type.
        case invalidState = "state.invalid"
        /// No Thing with that UID exists.
        case thingNotFound = "thing.notFound"
        /// A Thing with that UID already exists.
        case duplicateThing = "thing.duplicate"
        /// The Thing is not ONLINE.
        case thingOffline = "thing.offline"
        /// The Thing has no channel with that UID.
        case channelNotFound = "channel.notFound"
        /// No link between that Item and channel exists.
        case linkNotFound = "link.notFound"
        /// A link cannot be made (unknown Item or channel, mismatched body, trigger channel).
        case invalidLink = "link.invalid"
        /// The credentials are missing or not known.
        case unauthorized = "auth.invalid"
        /// The credentials are valid but lack the administrator role.
        case forbidden = "auth.forbidden"
        /// No REST resource has that path.
        case pathNotFound = "request.pathNotFound"
        /// The REST resource exists but does not answer that method.
        case methodNotAllowed = "request.methodNotAllowed"
        /// A request body is not the JSON the resource reads.
        case invalidBody = "request.bodyInvalid"
        /// The server could not write its answer.
        case serverFailed = "server.failed"
        /// No HTTP answer arrived (connection refused, timeout, …).
        case unreachable = "openhab.unreachable"
        /// An answer arrived but is not what openHAB sends (an unexpected status or body).
        case invalidResponse = "openhab.responseInvalid"
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// What went wrong, where, and what to do.
    public let message: String

    /// Creates an error with a code and a full-sentence message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The status openHAB's REST API answers with.
    public var httpStatus: HTTPStatus {
        switch code {
        case .invalidUID, .invalidItemName, .unknownItemType, .missingBody, .nameMismatch, .invalidCommand,
             .invalidState, .channelNotFound, .thingOffline, .invalidLink, .invalidBody:
            return .badRequest
        case .itemNotFound, .thingNotFound, .linkNotFound, .pathNotFound, .itemNotRemovable, .metadataNotFound: return .notFound
        case .itemNotManaged, .methodNotAllowed: return .methodNotAllowed
        case .serverFailed: return .internalServerError
        case .unreachable, .invalidResponse: return .badGateway
        case .duplicateThing: return .conflict
        case .unauthorized: return .unauthorized
        case .forbidden: return .forbidden
        }
    }

    /// The JSON body openHAB sends with this status — `{"error":{"message":…,"http-code":…}}` —
    /// or `nil` where openHAB answers with an empty body (a command that does not parse, every 400
    /// of `PUT /rest/items/{name}` and of the link resource, a DELETE of an Item it cannot remove,
    /// metadata calls that find nothing, an unknown path or method).
    public var responseBody: String? {
        switch code {
        case .invalidCommand, .missingBody, .nameMismatch, .invalidItemName, .unknownItemType, .invalidLink,
             .itemNotRemovable, .metadataNotFound, .pathNotFound, .methodNotAllowed:
            return nil
        default:
            return "{\"error\":{\"message\":\(JSONString.quoted(message)),\"http-code\":\(httpStatus.rawValue)}}"
        }
    }
}
