import Foundation
@testable import Scenarios
import Testing

/// The partition fuzzer: inputs are the same for a seed and index, the seed's own parts merge into the
/// whole run, and its judge can tell each ending apart.
@Suite("Partition fuzzer")
struct PartitionFuzzerTests {
    static func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("partition-fuzz-\(name)-\(getpid())").path
    }

    @Test func inputsAreDeterministicAndEndAsAUserMaySee() async throws {
        let scratch = Self.scratch("campaign")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let fuzzer = try await PartitionFuzzer.make(seed: 3, scratch: scratch)
        #expect(fuzzer.seedParts.count == 2)
        #expect(fuzzer.whole.keys.contains("timeseries.csv"))
        // The seed's parts unmutated merge into the whole run's bytes.
        let unmutated = PartitionFuzzer.Input(index: -1, parts: fuzzer.seedParts, forged: false, what: "none")
        #expect(fuzzer.check(unmutated, in: scratch) == .outcome(.merged))
        var outcomes: [PartitionFuzzer.Outcome: Int] = [:]
        var forged = 0
        for index in 0..<120 {
            let input = fuzzer.input(index)
            let again = fuzzer.input(index)
            #expect(input.what == again.what && input.parts.map { $0.map(\.bytes) } == again.parts.map { $0.map(\.bytes) }, "input \(index)")
            if input.forged { forged += 1 }
            switch fuzzer.check(input, in: scratch) {
            case .outcome(let o): outcomes[o, default: 0] += 1
            case .finding(let problem): Issue.record("input \(index) (\(input.what)): \(problem)")
            }
        }
        #expect((outcomes[.merged] ?? 0) > 0 && (outcomes[.refused] ?? 0) > 0, "\(outcomes)")
        #expect(forged > 20 && forged < 100)
    }

    @Test func theJudgeFindsAMergeThatIsNotTheWholeRun() async throws {
        let scratch = Self.scratch("judge")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let fuzzer = try await PartitionFuzzer.make(seed: 3, scratch: scratch)
        // A whole run that differs from what the parts merge into: an unnoticed edit, as the judge sees it.
        var whole = fuzzer.whole
        whole["kpi.csv"] = (whole["kpi.csv"] ?? []) + Array("x\n".utf8)
        let strict = PartitionFuzzer(seedParts: fuzzer.seedParts, whole: whole, seed: 3)
        let input = PartitionFuzzer.Input(index: -1, parts: fuzzer.seedParts, forged: false, what: "none")
        guard case .finding(let problem) = strict.check(input, in: scratch) else {
            Issue.record("a merge that is not the whole run's bytes was no finding")
            return
        }
        #expect(problem.contains("kpi.csv"))
        // Forged parts may merge into other bytes; an edit not forged must be refused, nothing written.
        var edited = fuzzer.seedParts
        let f = try #require(edited[1].firstIndex { $0.name == "energy-daily.csv" })
        edited[1][f].bytes += Array("2026-01-05,flat-9,1,1,1,1,1,1\n".utf8)
        #expect(fuzzer.check(.init(index: -1, parts: edited, forged: false, what: "a row added"), in: scratch) == .outcome(.refused))
        #expect(!FileManager.default.fileExists(atPath: (scratch as NSString).appendingPathComponent("merged")))
        let forgedParts = [edited[0], PartitionFuzzer.forge(edited[1], editing: "energy-daily.csv")]
        #expect(fuzzer.check(.init(index: -1, parts: forgedParts, forged: true, what: "a row added, forged"), in: scratch) == .outcome(.refused))
    }
}
