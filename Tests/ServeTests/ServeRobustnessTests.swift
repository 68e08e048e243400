import SocketTestSupport
import Foundation
import HTTPServer
import Serve
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("serve: determinism and hostile input")
struct ServeRobustnessTests {
    /// One fixed sequence of requests with an SSE listener; every response and the event log, the port written as PORT.
    static func session() async throws -> [String] {
        let log = LogBox()
        try await withTwin { server in
            let port = server.port
            let lines = try await blocking { () -> [String] in
                let events = try EventClient(port: port, topics: "openhab/items/*/statechanged,openhab/things/*")
                _ = try events.head()
                let c = try TwinClient(port: port)
                var lines: [String] = []
                let requests: [(String, String, String)] = [
                    ("POST", "/rest/items/kiez_heating_setpoint", "23"), ("POST", "/twin/advance", "PT2H"),
                    ("GET", "/rest/items/kiez_heating_temperature", ""), ("POST", "/twin/faults", #"{"thing":{"thing":"kiez/heating","status":"OFFLINE"}}"#),
                    ("POST", "/twin/advance", "PT3H"), ("GET", "/data/2.5/weather?q=Berlin&appid=rental-twin-key", ""),
                    ("POST", "/twin/faults", #"{"thing":{"thing":"kiez/heating","status":"ONLINE"}}"#), ("POST", "/twin/advance", "P1D"),
                    ("GET", "/rest/items", ""), ("GET", "/twin/result", ""),
                ]
                for (method, target, body) in requests {
                    let r = try c.send(method, target, body: body)
                    lines.append("\(r.status) \(r.text)".replacingOccurrences(of: "127.0.0.1:\(port)", with: "PORT"))
                }
                // The last change the requests caused, then read the stream up to it.
                _ = try c.send("POST", "/rest/items/kiez_heating_setpoint", body: "20.5")
                _ = try c.send("POST", "/twin/advance", body: "PT1M")
                while let message = try events.nextMessage() {
                    lines.append(message.data)
                    if message.data.contains(#"kiez_heating_setpoint/statechanged"#) && message.data.contains(#"20.5 °C"#) { break }
                }
                return lines
            }
            log.lines = lines
        }
        return log.lines
    }

    @Test func aManualRunDrivenByTheSameRequestsAnswersTheSame() async throws {
        let first = try await Self.session()
        let second = try await Self.session()
        #expect(first.count > 20)
        #expect(first == second)
    }

    @Test func hostileClientsGetAnAnswerOrAreClosedAndTheSimulationGoesOn() async throws {
        let limits = HTTPServerLimits(maxBodyBytes: 64 * 1024, headerReadTimeout: .milliseconds(300), idleTimeout: .seconds(2))
        try await withTwin(limits: limits) { server in
            let port = server.port
            try await blocking {
                // Oversized header, oversized body, malformed request line.
                let big = try RawClient(port: port)
                try big.send("GET /rest/items HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 40_000))\r\n\r\n")
                #expect(try big.readResponse()?.status == 431)
                let body = try RawClient(port: port)
                try body.send("POST /rest/items/kiez_heating_setpoint HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
                #expect(try body.readResponse()?.status == 413)
                let garbage = try RawClient(port: port)
                try garbage.send("HELLO\r\n\r\n")
                #expect(try garbage.readResponse()?.status == 400)
                // Slowloris: half a head, then nothing.
                let slow = try RawClient(port: port)
                try slow.send("GET /rest/items HTTP/1.1\r\nHost: x\r\n")
                #expect(try slow.readResponse()?.status == 408)
                // Half-closed: the request, then our FIN; the answer still comes.
                let half = try RawClient(port: port)
                try half.send(TwinClient.request("GET", "/twin/clock", port: port))
                half.shutdownWrite()
                #expect(try half.readResponse()?.status == 200)
            }
            // 500 connections at once, each with a request: each is answered or closed.
            let outcomes = try await blocking { () -> [Int] in
                let group = DispatchGroup()
                let results = ResultBox(count: 500)
                for i in 0..<500 {
                    group.enter()
                    Thread {
                        defer { group.leave() }
                        do {
                            let c = try RawClient(port: port)
                            try c.send(TwinClient.request("GET", "/rest/items/kiez_heating_setpoint/state", port: port))
                            results.set(i, try c.readResponse()?.status ?? 0)
                        } catch {
                            results.set(i, 0)  // closed or refused
                        }
                    }.start()
                }
                group.wait()
                return results.values
            }
            #expect(outcomes.allSatisfy { [0, 200, 503].contains($0) })
            #expect(outcomes.filter { $0 == 200 }.count > 0)
            // The simulation goes on.
            try await blocking {
                let c = try TwinClient(port: port)
                #expect(try c.send("POST", "/twin/advance", body: "PT1H").status == 200)
                #expect(try c.send("GET", "/twin/clock").text.contains(#""local":"2026-11-20T01:00""#))
            }
        }
    }
}

/// Lines handed out of a `@Sendable` body.
final class LogBox: Sendable {
    private let storage = Mutex<[String]>([])
    var lines: [String] {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// Statuses written by many threads.
final class ResultBox: Sendable {
    private let storage: Mutex<[Int]>
    init(count: Int) { storage = Mutex(Array(repeating: -1, count: count)) }
    func set(_ i: Int, _ value: Int) { storage.withLock { $0[i] = value } }
    var values: [Int] { storage.withLock { $0 } }
}
