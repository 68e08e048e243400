import Foundation
import Scenarios

/// `rental-twin fuzz --target partitions`: mutated partition directories (``PartitionFuzzer``) merged as
/// `rental-twin merge` merges them. Each input is written as `DIR/in-progress-partitions/part-k` before
/// it runs (a crash leaves it there); a finding is saved as `DIR/partitions-<n>/part-k`, to replay with
/// `rental-twin merge DIR/partitions-<n>/part-* --report OUT`.
enum PartitionFuzzCommand {
    static func run(seed: UInt64, inputs: Int, seconds: Int?, first: Int, outDirectory: String) async -> RentalTwinCommand.Outcome {
        var outcome = RentalTwinCommand.Outcome()
        let scratch = (outDirectory as NSString).appendingPathComponent("partition-scratch")
        let fuzzer: PartitionFuzzer
        do {
            fuzzer = try await PartitionFuzzer.make(seed: seed, scratch: scratch)
        } catch {
            outcome.standardError = "fuzz --target partitions could not run its seed portfolio as parts in \(scratch): \(error)\n"
            outcome.exitCode = .ioError
            return outcome
        }
        let began = ContinuousClock.now  // wall-clock: printed, and the --seconds budget
        let inProgress = (outDirectory as NSString).appendingPathComponent("in-progress-partitions")
        // The input is on disk before it runs (in-progress-partitions), so a stuck merge needs no saving.
        let watchdog = FuzzCommand.Watchdog(limitSeconds: 60) { index in
            "fuzz: partitions input #\(index) did not merge or end in 60 s of wall time; it is in \(inProgress) (replay: rental-twin merge \(inProgress)/part-* --report OUT)"
        }
        var outcomes: [PartitionFuzzer.Outcome: Int] = [:]
        var findings: [(index: Int, problem: String, what: String, path: String)] = []
        var done = 0
        for index in first..<(first + inputs) {
            if let seconds, began.duration(to: .now) >= .seconds(seconds) { break }  // wall-clock: the campaign's budget (--seconds)
            done += 1
            let input = fuzzer.input(index)
            watchdog.started(index)
            _ = try? PartitionFuzzer.write(input, to: inProgress)
            switch fuzzer.check(input, in: scratch) {
            case .outcome(let o): outcomes[o, default: 0] += 1
            case .finding(let problem):
                let path = (outDirectory as NSString).appendingPathComponent("partitions-\(index)")
                let saved = (try? PartitionFuzzer.write(input, to: path)) != nil
                findings.append((index, problem, input.what, saved ? path : "(could not be saved to \(path))"))
            }
        }
        watchdog.stop()
        try? FileManager.default.removeItem(atPath: inProgress)
        try? FileManager.default.removeItem(atPath: scratch)
        let elapsed = began.duration(to: .now)
        let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var lines = ["fuzz: partitions, seed \(seed), \(done) inputs (#\(first) … #\(first + done - 1)) in \(String(format: "%.1f", elapsedSeconds)) s "
                     + "(\(Int(Double(done) / max(elapsedSeconds, 1e-9))) inputs/s)",
                     "outcomes: " + PartitionFuzzer.Outcome.allCases.map { "\(outcomes[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")]
        if findings.isEmpty {
            lines.append("findings: none")
        } else {
            lines.append("findings: \(findings.count)")
            for f in findings.prefix(10) { lines.append("  #\(f.index) (\(f.what)): \(f.problem) → \(f.path)") }
            lines.append("Replay one with: rental-twin merge \(outDirectory)/partitions-<n>/part-* --report OUT")
            outcome.exitCode = .failure
        }
        outcome.standardOutput = lines.joined(separator: "\n") + "\n"
        return outcome
    }
}
