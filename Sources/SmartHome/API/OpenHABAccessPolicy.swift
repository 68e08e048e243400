/// Who may call what: API tokens and their roles, as openHAB's authentication filter.
public struct OpenHABAccessPolicy: Sendable, Hashable {
    /// openHAB's roles.
    public enum Role: String, Sendable, Hashable {
        /// May read Items and send commands and states.
        case user
        /// May also read Things and change Items and links.
        case administrator
    }

    /// Known API tokens and their roles.
    public var tokens: [String: Role]
    /// Whether anonymous callers get the user role (openHAB's default).
    public var implicitUserRole: Bool

    /// Creates a policy.
    public init(tokens: [String: Role] = [:], implicitUserRole: Bool = true) {
        self.tokens = tokens
        self.implicitUserRole = implicitUserRole
    }
}

/// The credentials a caller presents, as the two headers openHAB reads.
public struct OpenHABCredentials: Sendable, Hashable {
    /// `X-OPENHAB-TOKEN`, checked first.
    public var openHABToken: String?
    /// `Authorization: Bearer …`, used when there is no `X-OPENHAB-TOKEN`.
    public var bearerToken: String?

    /// Creates credentials.
    public init(openHABToken: String? = nil, bearerToken: String? = nil) {
        self.openHABToken = openHABToken
        self.bearerToken = bearerToken
    }

    /// No credentials.
    public static let anonymous = OpenHABCredentials()
}

extension OpenHABAccessPolicy {
    /// The role of a caller, or the error openHAB answers with.
    /// - Throws: ``SmartHomeError`` `auth.invalid` (401) for an unknown token or an anonymous
    ///   caller without the implicit role; `auth.forbidden` (403) for a user on an admin call.
    public func authorize(_ credentials: OpenHABCredentials, needs required: Role) throws(SmartHomeError) {
        let role: Role
        if let token = credentials.openHABToken ?? credentials.bearerToken {
            guard let known = tokens[token] else { throw SmartHomeError(.unauthorized, "Invalid credentials") }
            role = known
        } else if implicitUserRole, required == .user {
            role = .user
        } else {
            throw SmartHomeError(.unauthorized, "Authentication required")
        }
        if required == .administrator, role != .administrator {
            throw SmartHomeError(.forbidden, "Access denied")
        }
    }
}
