import Foundation
import HTTPServer
import ScenarioFormat
import Scenarios
import Serve
import Simulation
import SocketTestSupport
import Twin

/// The admin token of every test server.
let adminToken = "test-admin-token"

/// An example scenario of the repository.
func exampleScenario(_ name: String) throws -> Scenario {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try ScenarioDecoder.load(path: root.appendingPathComponent("Scenarios/\(name)").path)
}

/// Serves `file` on a free loopback port, runs `body`, then stops the server and returns its result.
/// WebSockets idle out after 120 s here, not openHAB's 10 s: the whole test suite runs in parallel on two
/// cores, and a test waiting on a starved simulation must not be closed for silence (the idle tests set their own).
@discardableResult
func withTwin(_ file: String = "07-device-offline-mid-stay.json", clock: SimulationKernel.LiveMode = .manual,
              limits: HTTPServerLimits = .defaults, eventBufferLimit: Int = 1_024, webSocketLimits: WebSocketLimits = WebSocketLimits(idleTimeout: .seconds(120)),
              _ body: @escaping @Sendable (TwinServer) async throws -> Void) async throws -> LiveScenarioResult {
    let server = try await TwinServer(scenario: try exampleScenario(file), configuration: TwinServer.Configuration(
        host: "127.0.0.1", port: 0, clock: clock, adminToken: adminToken, limits: limits, eventBufferLimit: eventBufferLimit,
        webSocketLimits: webSocketLimits))
    try server.start()
    return try await server.serving { try await body(server) }.result
}

/// A keep-alive client speaking to a twin server.
final class TwinClient {
    let raw: RawClient
    let port: Int

    init(port: Int) throws {
        self.port = port
        raw = try RawClient(port: port)
    }

    /// Sends one request and reads its response.
    func send(_ method: String, _ target: String, headers: [String: String] = [:], body: String = "") throws -> RawResponse {
        try raw.send(Self.request(method, target, port: port, headers: headers, body: body))
        guard let response = try raw.readResponse(head: method == "HEAD") else { throw ClientError(description: "\(method) \(target): connection closed") }
        return response
    }

    /// The bytes of a request.
    static func request(_ method: String, _ target: String, port: Int, headers: [String: String] = [:], body: String = "") -> String {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || ["POST", "PUT"].contains(method) { text += "Content-Length: \(body.utf8.count)\r\n" }
        return text + "\r\n" + body
    }
}

/// The admin token header.
let admin = ["X-OPENHAB-TOKEN": adminToken]

/// The JSON object of a response body.
func jsonObject(_ response: RawResponse) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
}
