import Foundation
import Glibc
import ScenarioFormat
import Synchronization

/// Runs a ``ScenarioFuzzer`` for a while — inputs 0, 1, 2, … until a wall-clock time or an input
/// count is reached — tallies outcomes and findings (per target kind), and writes every finding's
/// input to a directory so that `rental-twin run DIR/<kind>-<n>.json` replays it (``save(_:as:in:)``:
/// a mutated side file goes beside it, and the scenario names it and its other side files so that
/// they resolve from there).
///
/// The wall clock only decides when to stop; which inputs run and how each ends depend on the seed
/// alone. Before each input it is written as `DIR/in-progress.json` (and removed after), so an input
/// that crashes the process or hangs inside one event is still on disk.
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
        /// Per target kind: inputs per outcome, and findings.
        public var outcomesByTarget: [String: [ScenarioFuzzer.Outcome: Int]] = [:]
        public var findingsByTarget: [String: Int] = [:]
        /// The target kinds of the campaign, in ``FuzzTarget/all``'s order.
        public var targets: [String] = []
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
            // Per target kind, when more than one was judged.
            let judged = targets.filter { outcomesByTarget[$0] != nil || findingsByTarget[$0] != nil }
            if judged.count > 1 {
                for target in judged {
                    let mix = ScenarioFuzzer.Outcome.allCases.map { "\(outcomesByTarget[target]?[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
                    lines.append("  \(target): \(mix), \(findingsByTarget[target] ?? 0) findings")
                }
            }
            if findings == 0 {
                lines.append("findings: none")
            } else {
                lines.append("findings: " + findingCounts.keys.sorted().map { "\(findingCounts[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", "))
                for sample in samples {
                    let where_ = outDirectory.map { " → \($0)/\(FuzzCampaign.fileName(sample))" } ?? ""
                    let what = sample.sideFile.map { "\(sample.target) \($0.reference) of \(sample.base)" } ?? sample.base
                    lines.append("  \(sample.kind.rawValue) #\(sample.index) (from \(what))\(where_): \(Self.printable(sample.detail.prefix(300)))")
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

    /// Writes `input` to `directory` as `<stem>.json` so that `rental-twin run` replays it: a mutated side
    /// file is written beside it as `<stem>-<its name>` (``sideFileName(stem:reference:)``), and the scenario names it so; every other
    /// side file the scenario names relative to its seed is named by its absolute path, so it resolves
    /// from `directory` too. A scenario with no side files (or that is no JSON) is written as it is.
    /// - Returns: the files written.
    @discardableResult
    public static func save(_ input: ScenarioFuzzer.Input, as stem: String, in directory: String) -> [String] {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var text = input.text
        var written: [String] = []
        var sideName: String?
        if let side = input.sideFile {
            let name = sideFileName(stem: stem, reference: side.reference)
            if write(side.text, to: "\(directory)/\(name)") { written.append("\(directory)/\(name)") }
            sideName = name
        }
        if let root = try? JSONParser.parse(input.text) {
            let references = ScenarioFuzzer.sideFileReferences(root, scenario: input.base)
            if !references.isEmpty {
                let here = FileManager.default.currentDirectoryPath
                var replacements: [String: String] = [:]
                for reference in references {
                    let resolved = ScenarioDecoder.resolvedSidePath(reference, scenarioFile: input.base)
                    replacements[reference] = resolved.hasPrefix("/") ? resolved : "\(here)/\(resolved)"
                }
                if let side = input.sideFile, let sideName { replacements[side.reference] = sideName }
                text = replacingStrings(root, replacements).text(pretty: true) + "\n"
            }
        }
        if write(text, to: "\(directory)/\(stem).json") { written.append("\(directory)/\(stem).json") }
        return written
    }

    /// Writes `text` to `path` with plain `write(2)` calls: no `fsync` (which `Data.write` does), so saving
    /// every input before it runs costs microseconds, not a disk flush (an EPW mutant is 150 kB).
    static func write(_ text: String, to path: String) -> Bool {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: path) }
    }

    /// Writes `bytes` to `path` as ``write(_:to:)`` writes text.
    static func write(_ bytes: UnsafeRawBufferPointer, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard let base = bytes.baseAddress else { return true }
        var done = 0
        while done < bytes.count {
            let count = Glibc.write(descriptor, base + done, bytes.count - done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// `<stem>-<the side file's name>`: never the scenario's own `<stem>.json`, and says which file it replaces.
    static func sideFileName(stem: String, reference: String) -> String {
        "\(stem)-\((reference as NSString).lastPathComponent)"
    }

    /// Removes the files of the input judged last (`in-progress.json` and its side file).
    static func removeInProgress(in directory: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where name == "in-progress.json" || name.hasPrefix("in-progress-") {
            try? FileManager.default.removeItem(atPath: "\(directory)/\(name)")
        }
    }

    /// `node` with every string value found in `replacements` replaced.
    private static func replacingStrings(_ node: JSONNode, _ replacements: [String: String]) -> JSONNode {
        switch node.value {
        case .string(let s): return replacements[s].map { node.with(.string($0)) } ?? node
        case .array(let elements): return node.with(.array(elements.map { replacingStrings($0, replacements) }))
        case .object(let members):
            return node.with(.object(members.map { JSONNode.Member(key: $0.key, keyLine: $0.keyLine, value: replacingStrings($0.value, replacements)) }))
        default: return node
        }
    }

    /// Judges inputs `firstInput, firstInput + 1, …` until `seconds` of wall time have passed or
    /// `maxInputs` were judged. Input `n` is the same whichever part of a campaign judges it, so a long
    /// campaign can run in parts (`0 ..< k`, then from `k`) and count as one.
    /// - Parameter current: told the number of each input before it runs and again after each simulated
    ///   day of its run (for a watchdog that looks for an input making no progress).
    public func run(seconds: Double, maxInputs: Int?, firstInput: Int = 0, current: @escaping @Sendable (Int) -> Void = { _ in }) async -> Summary {
        var summary = Summary()
        summary.firstInput = firstInput
        summary.targets = fuzzer.targets.map(\.name)
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
            if let outDirectory {
                Self.removeInProgress(in: outDirectory)
                Self.save(input, as: "in-progress", in: outDirectory)
            }
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
                summary.outcomesByTarget[input.target, default: [:]][outcome, default: 0] += 1
            case .finding(let finding):
                summary.findingCounts[finding.kind, default: 0] += 1
                summary.findingsByTarget[input.target, default: 0] += 1
                if summary.samples.filter({ $0.kind == finding.kind }).count < Self.samplesPerKind { summary.samples.append(finding) }
                if let outDirectory {
                    Self.save(finding.input, as: "\(finding.kind.rawValue)-\(finding.index)", in: outDirectory)
                }
            }
            summary.inputs += 1
            index += 1
        }
        if let outDirectory { Self.removeInProgress(in: outDirectory) }
        summary.wallSeconds = elapsed()
        return summary
    }
}
