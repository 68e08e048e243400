@testable import HTTPServer
import Testing

@Suite("The request parser as a pure state machine")
struct HTTPRequestParserTests {
    static let wire = Array("POST /a%2Fb?x=%41+b HTTP/1.1\r\nHost: t\r\nX-Dup: 1\r\nx-dup: 2\r\nContent-Length: 3\r\n\r\nabcGET /next HTTP/1.1\r\nHost: t\r\n\r\n".utf8)

    @Test("bytes fed one at a time give the same two requests as one write")
    func incremental() throws {
        var whole = HTTPRequestParser(limits: .defaults)
        whole.append(Self.wire[...])
        var trickle = HTTPRequestParser(limits: .defaults)
        var trickled: [HTTPRequest] = []
        for byte in Self.wire {
            trickle.append([byte][...])
            while case .request(let request) = trickle.next() { trickled.append(request) }
        }
        var batched: [HTTPRequest] = []
        while case .request(let request) = whole.next() { batched.append(request) }
        #expect(batched.map(\.target) == ["/a%2Fb?x=%41+b", "/next"])
        #expect(trickled.map(\.target) == batched.map(\.target))
        #expect(trickled.map(\.body) == [Array("abc".utf8), []])
        let first = try #require(trickled.first)
        #expect(first.path == "/a%2Fb")
        #expect(first.query == ["x": "A b"])
        #expect(first.headers.values(for: "X-DUP") == ["1", "2"])
        #expect(first.headers["x-dup"] == "1")
        #expect(trickle.phase == .idle)
    }

    @Test("the phase follows the request: idle, head, body, idle")
    func phases() {
        var parser = HTTPRequestParser(limits: .defaults)
        #expect(parser.phase == .idle)
        parser.append(Array("PUT / HTTP/1.1\r\nHost: t\r\n".utf8)[...])
        _ = parser.next()
        #expect(parser.phase == .head)
        parser.append(Array("Content-Length: 2\r\n\r\na".utf8)[...])
        _ = parser.next()
        #expect(parser.phase == .body)
        parser.append(Array("b".utf8)[...])
        guard case .request = parser.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(parser.phase == .idle)
    }

    @Test("query decoding", arguments: [
        ("a=1&b=x+y&c=%C3%A9", ["a": "1", "b": "x y", "c": "é"]),
        ("a=1&a=2&&flag", ["a": "1", "flag": ""]),
        ("bad=%zz%4", ["bad": "%zz%4"]),
    ])
    func query(text: String, expected: [String: String]) {
        #expect(HTTPRequest.parseQuery(text) == expected)
    }
}
