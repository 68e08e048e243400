@testable import HTTPServer
import Simulation
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

@Suite("The parser never traps on hostile bytes")
struct HTTPRequestParserFuzzTests {
    @Test("mutated requests, split at random points, give requests or failures, never a crash", arguments: [1, 2, 3, 4])
    func mutations(seed: UInt64) {
        var random = SplitMix64(seed: seed)  // Simulation's: every run feeds the same bytes
        let seeds = [
            "POST /a?b=%zz HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            "GET http://h:1/p HTTP/1.0\r\nContent-Length: 3\r\n\r\nabc",
            "PUT / HTTP/1.1\r\nHost: t\r\nContent-Length: 00002\r\n\r\nok",
        ].map { Array($0.utf8) }
        let alphabet = Array("\r\n :;%0123456789abcdefHTTP/1.x\t\u{0}\u{7f}".utf8) + [0xFF, 0xC3]
        var outcomes = (requests: 0, failures: 0)
        for round in 0..<400 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let position = Int(random.next() % UInt64(bytes.count))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: bytes.remove(at: position)
                }
            }
            var parser = HTTPRequestParser(limits: HTTPServerLimits(maxRequestLineBytes: 64, maxHeaderBytes: 128, maxBodyBytes: 64))
            var offset = 0
            feeding: while offset < bytes.count {
                let step = 1 + Int(random.next() % 16)
                parser.append(bytes[offset..<min(bytes.count, offset + step)])
                offset += step
                while true {
                    switch parser.next() {
                    case .needMore: continue feeding
                    case .request: outcomes.requests += 1
                    case .failure: outcomes.failures += 1; break feeding
                    }
                }
            }
        }
        // Both kinds occur: the mutations neither all pass nor all fail.
        #expect(outcomes.requests > 0)
        #expect(outcomes.failures > 0)
    }
}
