/// A successful answer of the openHAB API: the status openHAB would send and the decoded body.
public struct RESTResponse<Body: Sendable>: Sendable {
    /// 200, 201 or 202.
    public let status: HTTPStatus
    /// The body (``NoContent`` for empty answers).
    public let body: Body

    /// Creates a response.
    public init(_ status: HTTPStatus, _ body: Body) {
        self.status = status
        self.body = body
    }
}

extension RESTResponse: Equatable where Body: Equatable {}

/// The body of an answer that has none.
public struct NoContent: Sendable, Hashable {
    /// The empty body.
    public init() {}
}
