import SocketTestSupport
import Foundation
@testable import HTTPServer
import Synchronization
import Testing

/// A handler still working when its client leaves, or when the server stops, has its task
/// cancelled (issue 26 item 4: a long `/twin/advance` must not outlive its client or a SIGTERM).
@Suite("Handlers are cancelled when their client leaves or the server stops")
struct HTTPHandlerCancellationTests {
    /// A handler that announces it started, then waits until its task is cancelled and says so.
    static func waitingHandler(started: AsyncStream<String>.Continuation, cancelled: AsyncStream<String>.Continuation) -> HTTPServer.Handler {
        { request in
            guard request.path == "/long" else { return await echo(request) }
            let (wake, wakeUp) = AsyncStream.makeStream(of: Void.self)
            await withTaskCancellationHandler {
                started.yield(request.path)
                for await _ in wake { break }
            } onCancel: {
                wakeUp.finish()
            }
            cancelled.yield(request.path)
            return HTTPResponse(status: 503, text: "interrupted")
        }
    }

    @Test("a client that disconnects mid-handler cancels it; the server serves the next client")
    func disconnectCancels() async throws {
        let (starts, started) = AsyncStream.makeStream(of: String.self)
        let (cancels, cancelled) = AsyncStream.makeStream(of: String.self)
        try await withServer(handler: Self.waitingHandler(started: started, cancelled: cancelled)) { server in
            let port = server.port
            try await blocking {
                let client = try RawClient(port: port)
                try client.send("POST /long HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
            }  // the client closes its socket here, right after its request
            #expect(await first(of: starts) == "/long")
            #expect(await first(of: cancels) == "/long")
            let next = try await blocking {
                let again = try RawClient(port: port)
                try again.send("GET /next HTTP/1.1\r\nHost: t\r\n\r\n")
                return try again.readResponse()?.headers["X-Path"]
            }
            #expect(next == "/next")
        }
    }

    @Test("stopping the server cancels a running handler; stop() returns and the client gets the handler's answer")
    func stopCancels() async throws {
        let (starts, started) = AsyncStream.makeStream(of: String.self)
        let (cancels, cancelled) = AsyncStream.makeStream(of: String.self)
        let server = HTTPServer(port: 0, handler: Self.waitingHandler(started: started, cancelled: cancelled))
        try server.start()
        let port = server.port
        async let answer = blocking {
            let client = try RawClient(port: port)
            try client.send("POST /long HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
            return try client.readResponse()
        }
        #expect(await first(of: starts) == "/long")
        await server.stop()
        #expect(await first(of: cancels) == "/long")
        let response = try await answer
        #expect(response?.status == 503)
        #expect(response?.headers["Connection"] == "close")
    }
}
