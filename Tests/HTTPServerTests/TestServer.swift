import HTTPServer

/// Describes a request as text so tests can see what the server parsed.
@Sendable func echo(_ request: HTTPRequest) async -> HTTPResponse {
    let query = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
    let lines = [
        "method: \(request.method)",
        "path: \(request.path)",
        "query: \(query)",
        "absoluteHost: \(request.absoluteHost ?? "-")",
        "host: \(request.host ?? "-")",
        "body: \(request.bodyText)",
    ]
    return HTTPResponse(status: 200, headers: ["X-Path": request.path], text: lines.joined(separator: "\n"))
}

/// Starts a server on a free loopback port, runs `body`, and stops the server whatever happens.
func withServer(
    limits: HTTPServerLimits = .defaults,
    handler: @escaping HTTPServer.Handler = echo,
    _ body: (HTTPServer) async throws -> Void
) async throws {
    let server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits, handler: handler)
    try server.start()
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

/// The first value of `stream`, or `nil` if none arrives within `seconds` (a guard against hangs, not a speed check;
/// generous because other suites running in parallel can keep the cooperative pool busy for long).
func first<T: Sendable>(of stream: AsyncStream<T>, within seconds: Double = 60) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask {
            for await value in stream { return value }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let result = await group.next() ?? nil
        group.cancelAll()
        return result
    }
}
