import SocketTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPServer
import Testing

@Suite("HTTP/1.1 over loopback: requests, keep-alive, pipelining")
struct HTTPServerTests {
    @Test("a GET with a query: raw path, decoded query values, Content-Length set")
    func getWithQuery() async throws {
        try await withServer { server in
            let port = server.port
            let response = try await blocking {
                let client = try RawClient(port: port)
                try client.send("GET /rest/items/a%20b?name=J%C3%BCrgen+M&x=1&x=2&flag HTTP/1.1\r\nHost: twin\r\n\r\n")
                return try client.readResponse()
            }
            let answer = try #require(response)
            #expect(answer.status == 200)
            #expect(answer.headers["Content-Length"] == String(answer.body.count))
            #expect(answer.headers["Content-Type"] == "text/plain; charset=utf-8")
            #expect(answer.text.contains("path: /rest/items/a%20b\n"))
            #expect(answer.text.contains("query: flag=;name=Jürgen M;x=1\n"))
            #expect(answer.text.contains("host: twin\n"))
        }
    }

    @Test("a POST with a Content-Length body, sent in pieces")
    func postWithLength() async throws {
        try await withServer { server in
            let port = server.port
            let response = try await blocking {
                let client = try RawClient(port: port)
                try client.send("POST /rest/items/Lamp HTTP/1.1\r\nHost: twin\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello")
                Thread.sleep(forTimeInterval: 0.05)
                try client.send(" world")
                return try client.readResponse()
            }
            let answer = try #require(response)
            #expect(answer.status == 200)
            #expect(answer.text.contains("method: POST\n"))
            #expect(answer.text.hasSuffix("body: hello world"))
        }
    }

    @Test("a chunked request body is decoded, extensions and trailers ignored")
    func chunkedBody() async throws {
        try await withServer { server in
            let port = server.port
            let response = try await blocking {
                let client = try RawClient(port: port)
                try client.send("PUT /x HTTP/1.1\r\nHost: twin\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n")
                Thread.sleep(forTimeInterval: 0.05)
                try client.send("5;name=value\r\npedia\r\n0\r\nX-Checksum: abc\r\n\r\n")
                return try client.readResponse()
            }
            let answer = try #require(response)
            #expect(answer.status == 200)
            #expect(answer.text.hasSuffix("body: Wikipedia"))
        }
    }

    @Test("HEAD gets the head with the GET's Content-Length and no body; the connection stays usable")
    func head() async throws {
        try await withServer { server in
            let port = server.port
            let (head, get) = try await blocking {
                let client = try RawClient(port: port)
                try client.send("HEAD /h HTTP/1.1\r\nHost: twin\r\n\r\n")
                let head = try client.readResponse(head: true)
                try client.send("GET /h HTTP/1.1\r\nHost: twin\r\n\r\n")
                return (head, try client.readResponse())
            }
            let headAnswer = try #require(head)
            let getAnswer = try #require(get)
            #expect(headAnswer.status == 200)
            #expect(getAnswer.text.contains("method: GET"))
            // HEAD describes the body GET would send: same length, minus the method name's difference.
            #expect(Int(headAnswer.headers["Content-Length"] ?? "") == getAnswer.body.count + 1)
        }
    }

    @Test("keep-alive: two requests on one connection")
    func keepAlive() async throws {
        try await withServer { server in
            let port = server.port
            let paths = try await blocking {
                let client = try RawClient(port: port)
                var paths: [String] = []
                for path in ["/one", "/two"] {
                    try client.send("GET \(path) HTTP/1.1\r\nHost: twin\r\n\r\n")
                    let answer = try client.readResponse()
                    paths.append(answer?.headers["X-Path"] ?? "none")
                    if answer?.headers["Connection"] != nil { paths.append("Connection header") }
                }
                return paths
            }
            #expect(paths == ["/one", "/two"])
        }
    }

    @Test("pipelined requests in one write are answered in order")
    func pipelined() async throws {
        let handler: HTTPServer.Handler = { request in
            // The first request is the slowest, so answering out of order would show.
            if request.path == "/1" { usleep(50_000) }  // blocks only this connection's thread
            return await echo(request)
        }
        try await withServer(handler: handler) { server in
            let port = server.port
            let paths = try await blocking {
                let client = try RawClient(port: port)
                try client.send((1...4).map { "GET /\($0) HTTP/1.1\r\nHost: twin\r\n\r\n" }.joined())
                return try (1...4).map { _ in try client.readResponse()?.headers["X-Path"] ?? "none" }
            }
            #expect(paths == ["/1", "/2", "/3", "/4"])
        }
    }

    @Test("Connection: close is honoured; HTTP/1.0 closes unless keep-alive")
    func connectionClose() async throws {
        try await withServer { server in
            let port = server.port
            let results = try await blocking {
                var results: [String] = []
                for request in ["GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", "GET / HTTP/1.0\r\n\r\n",
                                "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"] {
                    let client = try RawClient(port: port)
                    try client.send(request)
                    let answer = try client.readResponse()
                    results.append("\(answer?.status ?? 0) \(answer?.headers["Connection"] ?? "-")")
                    if request.contains("keep-alive") {
                        try client.send("GET / HTTP/1.0\r\n\r\n")
                        results.append("again \(try client.readResponse()?.status ?? 0)")
                    }
                    results.append(try client.isClosedByServer() ? "closed" : "open")
                }
                return results
            }
            #expect(results == ["200 close", "closed", "200 close", "closed", "200 keep-alive", "again 200", "closed"])
        }
    }

    @Test("an absolute-form target (proxy clients) gives the path and the absolute host")
    func absoluteForm() async throws {
        try await withServer { server in
            let port = server.port
            let response = try await blocking {
                let client = try RawClient(port: port)
                try client.send("GET http://api.openweathermap.org/data/2.5/weather?q=Paris&appid=k HTTP/1.1\r\nHost: api.openweathermap.org\r\n\r\n")
                return try client.readResponse()
            }
            let text = try #require(response).text
            #expect(text.contains("path: /data/2.5/weather\n"))
            #expect(text.contains("query: appid=k;q=Paris\n"))
            #expect(text.contains("absoluteHost: api.openweathermap.org\n"))
        }
    }

    @Test("URLSession (a client no one here wrote) gets the answer")
    func urlSession() async throws {
        try await withServer { server in
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/data/2.5/weather?q=Nice"))
            let (data, response) = try await URLSession.shared.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self).contains("query: q=Nice"))
        }
    }
}
