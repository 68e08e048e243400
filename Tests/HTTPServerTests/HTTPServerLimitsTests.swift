import SocketTestSupport
import Foundation
import HTTPServer
import Testing

@Suite("Limits: each is answered with its status, then the connection closes")
struct HTTPServerLimitsTests {
    static let small = HTTPServerLimits(
        maxRequestLineBytes: 100, maxHeaderBytes: 300, maxHeaderCount: 10, maxBodyBytes: 1000,
        headerReadTimeout: .milliseconds(300), bodyReadTimeout: .milliseconds(300), idleTimeout: .milliseconds(300)
    )

    @Test("refused requests", arguments: [
        ("GARBAGE\r\n\r\n", 400),
        ("GET /a b HTTP/1.1\r\nHost: t\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n\r\n", 400),  // no Host
        ("GET / HTTP/1.1\r\nHost: t\r\nBad Name: x\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5x\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("GET /\(String(repeating: "a", count: 200)) HTTP/1.1\r\nHost: t\r\n\r\n", 414),
        ("GET /\(String(repeating: "a", count: 200))", 414),  // too long before its end even arrives
        ("GET / HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 400))\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\nHost: t\r\n" + String(repeating: "X-A: 1\r\n", count: 11) + "\r\n", 431),
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10000000\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n7D0\r\n", 413),
        ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("GET / HTTP/2.0\r\nHost: t\r\n\r\n", 505),
        ("CONNECT api.openweathermap.org:443 HTTP/1.1\r\nHost: t\r\n\r\n", 501),
    ])
    func refused(request: String, status: Int) async throws {
        try await withServer(limits: Self.small) { server in
            let port = server.port
            let (answer, closed) = try await blocking {
                let client = try RawClient(port: port)
                try client.send(request)
                let answer = try client.readResponse()
                return (answer, try client.isClosedByServer())
            }
            #expect(answer?.status == status)
            #expect(answer?.headers["Connection"] == "close")
            #expect(closed)
        }
    }

    @Test("a body within the limit is served")
    func bodyAtLimit() async throws {
        try await withServer(limits: Self.small) { server in
            let port = server.port
            let answer = try await blocking {
                let client = try RawClient(port: port)
                try client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n" + String(repeating: "z", count: 1000))
                return try client.readResponse()
            }
            #expect(answer?.status == 200)
        }
    }

    @Test("Expect: 100-continue gets an interim 100 before the body is sent")
    func expectContinue() async throws {
        try await withServer { server in
            let port = server.port
            let (interim, final) = try await blocking {
                let client = try RawClient(port: port)
                try client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
                let interim = try client.readResponse()
                try client.send("ok")
                return (interim?.status, try client.readResponse())
            }
            #expect(interim == 100)
            #expect(final?.text.hasSuffix("body: ok") == true)
        }
    }

    @Test("slowloris: half a request line gets 408 and a close, while another client is served")
    func slowloris() async throws {
        try await withServer(limits: Self.small) { server in
            let port = server.port
            let (other, status, closed) = try await blocking {
                let slow = try RawClient(port: port)
                try slow.send("GET /slo")
                let other = try RawClient(port: port)
                try other.send("GET /fast HTTP/1.1\r\nHost: t\r\n\r\n")
                let otherStatus = try other.readResponse()?.status
                return (otherStatus, try slow.readResponse()?.status, try slow.isClosedByServer())
            }
            #expect(other == 200)
            #expect(status == 408)
            #expect(closed)
        }
    }

    @Test("a stalled body gets 408; an idle connection is closed without a word")
    func stalledBodyAndIdle() async throws {
        try await withServer(limits: Self.small) { server in
            let port = server.port
            let (bodyStatus, idleAnswer) = try await blocking {
                let stalled = try RawClient(port: port)
                try stalled.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc")
                let idle = try RawClient(port: port)
                return (try stalled.readResponse()?.status, try idle.readResponse())
            }
            #expect(bodyStatus == 408)
            #expect(idleAnswer == nil)
        }
    }

    @Test("connection cap: the 5th of 4 allowed gets 503; after one closes, a new one is served")
    func connectionCap() async throws {
        try await withServer(limits: HTTPServerLimits(maxConnections: 4)) { server in
            let port = server.port
            let (extra, countWhileFull, served) = try await blocking {
                var held: [RawClient] = []
                for _ in 0..<4 {
                    let client = try RawClient(port: port)
                    try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                    _ = try client.readResponse()  // answered, so surely counted
                    held.append(client)
                }
                let extra = try RawClient(port: port).readResponse()?.status
                let countWhileFull = server.connectionCount
                held.removeFirst()  // closes it
                // The server notices the close on its own thread; retry until it has (a 20 s guard, not a speed check).
                let deadline = Date().addingTimeInterval(20)
                while Date() < deadline {
                    let client = try RawClient(port: port)
                    try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                    if let answer = try client.readResponse(), answer.status == 200 { return (extra, countWhileFull, true) }
                    Thread.sleep(forTimeInterval: 0.02)
                }
                return (extra, countWhileFull, false)
            }
            #expect(extra == 503)
            #expect(countWhileFull == 4)
            #expect(served)
        }
    }
}
