import Foundation
import Synchronization

/// Runs a ``ScenarioFuzzer`` for a while — inputs 0, 1, 2, … until a wall-clock time or an input
/// count is reached — tallies outcomes and findings, and writes every finding's input to a
/// directory so that `rental-twin run DIR/<kind>-<n>.json` replays it.
///
/// The wall clock only decides when to stop; which inputs run and how each ends depend on the seed
/// alone. Before each input its text is written to `DIR/in-progress.json` (and removed after), so
/// an input that crashes the process or hangs inside one event is still on disk.
public struct FuzzCampaign: Sendable {
    /// What a campaign did.
    public struct Summary: Sendable {
        /// The number of the first input judged (a campaign may run in parts, see `firstInput`).
        public var firstInput = 0
        /// Inputs judged.
        public var inputs = 0
        /// Wall time, s.
        public var wallSeconds = 0.0
        /// Inputs per outcome.
        public var outcomes: [ScenarioFuzzer.Outcome: Int] = [:]
        /// Findings per kind.
        public var findingCounts: [FuzzFinding.Kind: Int] = [:]
        /// The first few findings of each kind (at most ``FuzzCampaign/samplesPerKind``), in input order.
        public var samples: [FuzzFinding] = []
        /// Whether the campaign was interrupted (Ctrl-C): the input running then is not judged.
        public var interrupted = false

        /// Total findings.
        public var findings: Int { findingCounts.values.reduce(0, +) }

        /// The lines `rental-twin fuzz` prints.
        public func report(seed: UInt64, outDirectory: String?) -> String {
            let range = inputs == 0 ? "" : " (#\(firstInput) … #\(firstInput + inputs - 1))"
            var lines = ["fuzz: seed \(seed), \(inputs) inputs\(range) in \(String(format: "%.1f", wallSeconds)) s "
                         + "(\(Int(Double(inputs) / max(wallSeconds, 1e-9))) inputs/s)"]
            if interrupted {
                lines.append("interrupted: input #\(firstInput + inputs) was not judged; continue the campaign with --from \(firstInput + inputs)")
            }
            lines.append("outcomes: " + ScenarioFuzzer.Outcome.allCases.map { "\(outcomes[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", "))
            if findings == 0 {
                lines.append("findings: none")
            } else {
                lines.append("findings: " + findingCounts.keys.sorted().map { "\(findingCounts[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", "))
                for sample in samples {
                    let where_ = outDirectory.map { " → \($0)/\(FuzzCampaign.fileName(sample))" } ?? ""
                    lines.append("  \(sample.kind.rawValue) #\(sample.index) (from \(sample.base))\(where_): \(Self.printable(sample.detail.prefix(300)))")
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// `text` with control characters (a mutant's ESC, NUL, newline) as `\u{XX}`, safe for a terminal.
        static func printable(_ text: Substring) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{202E}" {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
    }

    /// How many findings of each kind the summary lists.
    public static let samplesPerKind = 3

    public let fuzzer: ScenarioFuzzer
    /// Kernel events allowed per input, per listing and simulated day.
    public let eventsPerListingDay: Int
    /// Where findings go (created when the first one is written); nil: nowhere.
    public let outDirectory: String?

    public init(fuzzer: ScenarioFuzzer, eventsPerListingDay: Int, outDirectory: String?) {
        self.fuzzer = fuzzer
        self.eventsPerListingDay = eventsPerListingDay
        self.outDirectory = outDirectory
    }

    /// `<kind>-<input number>.json`.
    static func fileName(_ finding: FuzzFinding) -> String { "\(finding.kind.rawValue)-\(finding.index).json" }

    /// Judges inputs `firstInput, firstInput + 1, …` until `seconds` of wall time have passed or
    /// `maxInputs` were judged. Input `n` is the same whichever part of a campaign judges it, so a long
    /// campaign can run in parts (`0 ..< k`, then from `k`) and count as one.
    /// - Parameter current: told the number of each input before it runs and again after each simulated
    ///   day of its run (for a watchdog that looks for an input making no progress).
    public func run(seconds: Double, maxInputs: Int?, firstInput: Int = 0, current: @escaping @Sendable (Int) -> Void = { _ in }) async -> Summary {
        var summary = Summary()
        summary.firstInput = firstInput
        let clock = ContinuousClock()  // wall-clock: decides only when to stop, never what runs
        let began = clock.now
        func elapsed() -> Double {
            let d = began.duration(to: clock.now)
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        if let outDirectory { try? FileManager.default.createDirectory(atPath: outDirectory, withIntermediateDirectories: true) }
        var index = firstInput
        while elapsed() < seconds, maxInputs.map({ summary.inputs < $0 }) ?? true {
            let input = fuzzer.input(index)
            current(index)
            if let outDirectory { try? Data(input.text.utf8).write(to: URL(fileURLWithPath: "\(outDirectory)/in-progress.json")) }
            let verdict = await ScenarioFuzzer.check(input, eventsPerListingDay: eventsPerListingDay,
                                                     progress: { [index] _, _ in current(index) })
            // Ctrl-C cancels the run under way: that input ended by the interruption, not by itself,
            // so it is not judged (a cancelled run is no finding), and the campaign stops here.
            if Task.isCancelled {
                summary.interrupted = true
                break
            }
            switch verdict {
            case .outcome(let outcome):
                summary.outcomes[outcome, default: 0] += 1
            case .finding(let finding):
                summary.findingCounts[finding.kind, default: 0] += 1
                if summary.samples.filter({ $0.kind == finding.kind }).count < Self.samplesPerKind { summary.samples.append(finding) }
                if let outDirectory {
                    try? Data(finding.text.utf8).write(to: URL(fileURLWithPath: "\(outDirectory)/\(Self.fileName(finding))"))
                }
            }
            summary.inputs += 1
            index += 1
        }
        if let outDirectory { try? FileManager.default.removeItem(atPath: "\(outDirectory)/in-progress.json") }
        summary.wallSeconds = elapsed()
        return summary
    }
}
