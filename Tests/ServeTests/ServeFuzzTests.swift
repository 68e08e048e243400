import SocketTestSupport
import Foundation
import HTTPServer
import Serve
import Testing

/// Issue 26: mutated requests and frames against an in-process `serve`; none may hang it or kill it.
@Suite("serve: fuzzed requests and frames")
struct ServeFuzzTests {
    @Test("the same seed gives the same inputs; another seed others")
    func deterministic() {
        let first = ServeFuzzer.inputs(seed: 7, count: 50, port: 8080)
        #expect(first == ServeFuzzer.inputs(seed: 7, count: 50, port: 8080))
        #expect(first != ServeFuzzer.inputs(seed: 8, count: 50, port: 8080))
        #expect(Set(first).count > 40)  // mutated: hardly any two alike
    }

    @Test("400 mutated inputs: each is answered or closed, and the server keeps answering", arguments: [UInt64(1), 26])
    func mutatedInputs(seed: UInt64) async throws {
        try await withTwin(limits: HTTPServerLimits(headerReadTimeout: .seconds(2), bodyReadTimeout: .seconds(2), idleTimeout: .seconds(2))) { server in
            let port = server.port
            let report = try await blocking { ServeFuzzer.run(ServeFuzzer.Options(port: port, seed: seed, count: 400, answerTimeout: .seconds(30))) }
            let mix = report.statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
            print("fuzz seed \(seed): \(report.inputs) inputs; statuses \(mix); closed without a status \(report.closedWithoutStatus)")
            #expect(report.inputs == 400)
            for finding in report.findings {
                Issue.record("input \(finding.index): \(finding.problem): \(String(decoding: finding.input.prefix(200), as: UTF8.self).debugDescription)")
            }
            #expect(report.statuses.values.reduce(0, +) + report.closedWithoutStatus == 400)
        }
    }
}
