import SocketTestSupport
import Foundation
import HTTPServer
import Testing

/// A load measurement, not a test of speed: it runs only with `HTTP_BENCH=1` and prints figures.
///
/// `HTTP_BENCH=1 swift test --filter HTTPServerBenchmark` — 50 keep-alive clients, each on its
/// own thread, send 1000 requests one after another to a trivial handler; every answer must come.
@Suite("HTTP server load (HTTP_BENCH=1)", .enabled(if: ProcessInfo.processInfo.environment["HTTP_BENCH"] != nil))
struct HTTPServerBenchmark {
    @Test("50 keep-alive clients × 1000 requests")
    func load() async throws {
        let clients = 50, requestsPerClient = 1000
        let handler: HTTPServer.Handler = { _ in HTTPResponse(status: 200, text: "ok") }
        try await withServer(handler: handler) { server in
            let port = server.port
            let clock = ContinuousClock()
            let start = clock.now
            let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
                for _ in 0..<clients {
                    group.addTask {
                        try await blocking {
                            let connection = try RawClient(port: port)
                            var latencies: [Duration] = []
                            latencies.reserveCapacity(requestsPerClient)
                            for _ in 0..<requestsPerClient {
                                let sent = clock.now
                                try connection.send("GET /rest/items HTTP/1.1\r\nHost: twin\r\n\r\n")
                                guard try connection.readResponse()?.status == 200 else { break }
                                latencies.append(clock.now - sent)
                            }
                            return latencies
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }.sorted()
            }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let percentile = { (p: Double) in latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
            print("""
                HTTP load: \(latencies.count) of \(clients * requestsPerClient) answered in \(String(format: "%.2f", seconds)) s, \
                \(Int(Double(latencies.count) / seconds)) requests/s, latency p50 \(percentile(0.5)), p99 \(percentile(0.99)), max \(latencies.last ?? .zero)
                """)
            #expect(latencies.count == clients * requestsPerClient)
        }
    }
}
