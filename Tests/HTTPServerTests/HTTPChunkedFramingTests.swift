import SocketTestSupport
import Foundation
@testable import HTTPServer
import Testing

/// Issue 26 item 1: every malformed chunked or length framing is a `400` (or `413`) on that
/// connection; the server goes on serving the next one.
@Suite("Hostile chunked and Content-Length framing")
struct HTTPChunkedFramingTests {
    static let head = "POST /twin/advance HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test("malformed framing is refused on its connection and the server keeps serving", arguments: [
        (head + "-5\r\nhello\r\n0\r\n\r\n", 400),                            // the crash of issue 26: a negative size
        (head + "+5\r\nhello\r\n0\r\n\r\n", 400),                            // a sign
        (head + "0x5\r\nhello\r\n0\r\n\r\n", 400),                           // a C prefix
        (head + " 5\r\nhello\r\n0\r\n\r\n", 400),                            // a blank before the digits
        (head + "5 \r\nhello\r\n0\r\n\r\n", 400),                            // a blank and no extension
        (head + "5 x\r\nhello\r\n0\r\n\r\n", 400),                           // junk after the size
        (head + "\r\nhello\r\n0\r\n\r\n", 400),                              // no size at all
        (head + "5;a=\u{1}\r\nhello\r\n0\r\n\r\n", 400),                     // a control character in an extension
        (head + "FFFFFFFFFFFFFFFFFFFF\r\nhello\r\n", 413),                   // would overflow Int
        (head + "7FFFFFFFFFFFFFFF\r\nhello\r\n", 413),                       // Int.max
        (head + "1000001\r\nhello\r\n", 413),                                // beyond the body limit
        (head + "5\r\nhelloXY\r\n0\r\n\r\n", 400),                           // data longer than its size
        (head + "5\r\nhello5\r\nhello\r\n0\r\n\r\n", 400),                  // no CRLF after the data
        (head + "5\r\nhello\r\n0\r\nBad Trailer: x\r\n\r\n", 400),           // a trailer that is not a field
        (head + "5\r\nhello\r\n0\r\nX-T: a\u{7F}b\r\n\r\n", 400),            // a control character in a trailer
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: -5\r\n\r\nhello", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: +5\r\n\r\nhello", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 0x5\r\n\r\nhello", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5, 6\r\n\r\nhello", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999\r\n\r\nhello", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", 501),
        ("POST / HTTP/1.1\r\nHost: t\r\n Folded: x\r\n\r\n", 400),            // obsolete line folding
    ])
    func refused(request: String, status: Int) async throws {
        try await withServer { server in
            let port = server.port
            let (answer, closed, next) = try await blocking {
                let client = try RawClient(port: port)
                try client.send(request)
                let answer = try client.readResponse()
                let closed = try client.isClosedByServer()
                let again = try RawClient(port: port)
                try again.send("GET /still HTTP/1.1\r\nHost: t\r\n\r\n")
                return (answer, closed, try again.readResponse())
            }
            #expect(answer?.status == status)
            #expect(answer?.headers["Connection"] == "close")
            #expect(closed)
            #expect(next?.status == 200)
            #expect(next?.headers["X-Path"] == "/still")
        }
    }

    @Test("well-formed chunked bodies: extensions, upper- and lower-case hex, leading zeros, trailers", arguments: [
        ("5;name=value\r\nhello\r\n0\r\n\r\n", "hello"),
        ("5 ; ext\r\nhello\r\n0\r\n\r\n", "hello"),
        ("a\r\n0123456789\r\n0\r\n\r\n", "0123456789"),
        ("A\r\n0123456789\r\n0\r\n\r\n", "0123456789"),
        ("00000000000000000000005\r\nhello\r\n0\r\n\r\n", "hello"),
        ("2\r\nhe\r\n3\r\nllo\r\n0\r\nX-Checksum: 1\r\n\r\n", "hello"),
        ("5\nhello\n0\n\n", "hello"),
    ])
    func accepted(chunks: String, body: String) async throws {
        try await withServer { server in
            let port = server.port
            let answer = try await blocking {
                let client = try RawClient(port: port)
                try client.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)
                return try client.readResponse()
            }
            #expect(answer?.status == 200)
            #expect(answer?.text.contains("body: \(body)") == true)
        }
    }

    @Test("chunk-size lines parse as RFC 9112 says", arguments: [
        ("5", 5), ("ff", 255), ("FF", 255), ("000", 0), ("10;x=y", 16), ("1 ;x", 1),
    ])
    func sizes(line: String, size: Int) throws {
        #expect(try HTTPRequestParser.chunkSize(Array(line.utf8)[...]).get() == size)
    }

    @Test("bad chunk-size lines are failures, never traps", arguments: ["-5", "+5", "0x5", " 5", "5 ", "", ";x", "g", "-0", "5\t", "FFFFFFFFFFFFFFFF"])
    func badSizes(line: String) {
        #expect(throws: HTTPParseFailure.self) { try HTTPRequestParser.chunkSize(Array(line.utf8)[...]).get() }
    }
}
