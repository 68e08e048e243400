/// How an openHAB client performs a REST request: in-process to an ``OpenHABRouter`` (which
/// conforms) or, later, over HTTP to a real openHAB or to the twin behind a server.
public protocol OpenHABTransport: Sendable {
    /// Performs `request` and returns openHAB's answer, whatever its status.
    /// - Throws: ``SmartHomeError`` `openhab.unreachable` when no HTTP answer arrives.
    func send(_ request: OpenHABRequest) async throws(SmartHomeError) -> OpenHABResponse
}
