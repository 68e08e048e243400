import Foundation
import ScenarioFormat
import Simulation

/// What one part of a partitioned run hands to the merge: the run's figures, failures and log lines
/// with their places in the whole scenario, and what it wrote. Written into a partition directory as
/// `partition.json` (``manifestText``) by `run --partition K/N --report DIR`; `--jobs N` passes it in
/// memory.
public struct PartitionSummary: Sendable, Equatable {
    /// The manifest's format; a merge refuses others.
    public static let format = 3
    /// The manifest's file name in a partition directory.
    public static let manifestName = "partition.json"

    /// One report file the part wrote: its name, size and hash (``hash(_:)``).
    public struct ReportFile: Sendable, Equatable {
        public let name: String
        public let bytes: Int
        public let hash: UInt64
    }

    /// The scenario file as named on the command line.
    public let file: String
    /// The scenario's name.
    public let name: String
    /// The hash of the scenario file's bytes (``hash(_:)``).
    public let scenarioHash: UInt64
    /// The seed the run used (the file's or `--seed`).
    public let seed: UInt64
    /// This part, 1 … ``parts``.
    public let part: Int
    /// How many parts the run was split into.
    public let parts: Int
    /// The part's listings, in the scenario's order.
    public let listings: [String]
    /// Listings in the whole scenario.
    public let allListings: Int
    /// Simulated milliseconds, start to end.
    public let simulatedMilliseconds: Int64
    /// Steps run in the part, shared city-wide steps included.
    public let stepsRun: Int
    /// The timeline indices of city-wide steps that ran here and in other parts too (counted once).
    public let sharedStepsRun: [Int]
    /// Expectations checked in the part.
    public let expectationsChecked: Int
    /// The part's failures, with their places in the whole scenario.
    let failures: [PlacedFailure]
    /// The part's log (when asked for), with places in the whole scenario.
    let log: [LogEntry]?
    /// What the partition plan says about components and couplings (the same in every part).
    public let notes: [String]
    /// The report files written, in writing order (empty without reports).
    public let reports: [ReportFile]

    /// A failure and where it happened.
    struct PlacedFailure: Sendable, Equatable {
        let order: FailureOrder
        let failure: ScenarioFailure
    }

    /// The summary of `result`, the run of `part` (1-based) of `plan` over `scenario` (the whole one).
    init(result: ScenarioResult, whole scenario: Scenario, file: String, scenarioHash: UInt64, plan: ScenarioPartition, part: Int,
         withLog: Bool, reports: [ReportFile]) {
        let spec = plan.parts[part - 1]
        self.file = file
        self.name = scenario.name
        self.scenarioHash = scenarioHash
        self.seed = scenario.seed
        self.part = part
        self.parts = plan.parts.count
        self.listings = spec.listings
        self.allListings = scenario.listings.count
        self.simulatedMilliseconds = (scenario.end - scenario.start).milliseconds
        self.stepsRun = result.stepsRun
        let shared = Set(spec.sharedSteps)
        self.sharedStepsRun = result.runLog.steps.map { spec.steps[Int($0.step)] }.filter { shared.contains($0) }.sorted()
        self.expectationsChecked = result.expectationsChecked
        self.failures = zip(result.failureOrder, result.failures).map { order, failure in
            var placed = order
            placed.index = order.kind == 0 ? spec.steps[order.index] : spec.expectations[order.index]
            return PlacedFailure(order: placed, failure: failure)
        }
        self.log = withLog ? result.runLog.entries.map { entry in
            var placed = entry
            if entry.kind == 0 { placed.index = spec.steps[entry.index] }
            return placed
        } : nil
        self.notes = plan.notes
        self.reports = reports
    }

    init(file: String, name: String, scenarioHash: UInt64, seed: UInt64, part: Int, parts: Int, listings: [String], allListings: Int,
         simulatedMilliseconds: Int64, stepsRun: Int, sharedStepsRun: [Int], expectationsChecked: Int, failures: [PlacedFailure],
         log: [LogEntry]?, notes: [String], reports: [ReportFile]) {
        self.file = file
        self.name = name
        self.scenarioHash = scenarioHash
        self.seed = seed
        self.part = part
        self.parts = parts
        self.listings = listings
        self.allListings = allListings
        self.simulatedMilliseconds = simulatedMilliseconds
        self.stepsRun = stepsRun
        self.sharedStepsRun = sharedStepsRun
        self.expectationsChecked = expectationsChecked
        self.failures = failures
        self.log = log
        self.notes = notes
        self.reports = reports
    }

    /// The hash of a file's bytes in a manifest (``StableHash/Stream``: 32 bytes a round, not a byte at a time
    /// — a 1000-flat year's parts hold 2 GB).
    public static func hash(_ bytes: some Collection<UInt8>) -> UInt64 {
        var stream = StableHash.Stream()
        stream.add(bytes)
        return stream.value
    }

    /// What `parts` (in part order) ran, as one run of all of them would have: steps run (a city-wide step
    /// several parts ran counts once), which of them were shared, failures and log entries in the run's
    /// order (a shared step's failure and line once; the log only when every part kept it).
    static func mergedRecords(_ parts: [PartitionSummary]) -> (stepsRun: Int, shared: Set<Int>, failures: [PlacedFailure], log: [LogEntry]?) {
        var shared = Set<Int>()
        var steps = 0
        for part in parts {
            steps += part.stepsRun - part.sharedStepsRun.count
            shared.formUnion(part.sharedStepsRun)
        }
        var failures: [(PlacedFailure, Int)] = []
        var seenSharedFailures = Set<Int>()
        for (partIndex, part) in parts.enumerated() {
            for placed in part.failures {
                if placed.order.kind == 0, part.sharedStepsRun.contains(placed.order.index),
                   !seenSharedFailures.insert(placed.order.index).inserted { continue }
                failures.append((placed, partIndex))
            }
        }
        failures.sort { ($0.0.order, $0.1) < ($1.0.order, $1.1) }
        var log: [LogEntry]?
        if parts.allSatisfy({ $0.log != nil }) {
            var entries: [(LogEntry, Int)] = []
            var seenSharedSteps = Set<Int>()
            for (partIndex, part) in parts.enumerated() {
                for entry in part.log ?? [] {
                    if entry.kind == 0, part.sharedStepsRun.contains(entry.index), !seenSharedSteps.insert(entry.index).inserted { continue }
                    entries.append((entry, partIndex))
                }
            }
            log = entries.sorted { a, b in
                LogEntry.inOrder(a.0, b.0) || (!LogEntry.inOrder(b.0, a.0) && a.1 < b.1)
            }.map(\.0)
        }
        return (steps + shared.count, shared, failures.map(\.0), log)
    }

    /// Part `part` of `plan`, from the summaries of the parts it was split into (``ScenarioPartition/plan(_:parts:splitting:into:)``,
    /// in order) and the reports their merge wrote: what one run of the part writes in its manifest.
    init(merging subparts: [PartitionSummary], as part: Int, of plan: ScenarioPartition, reports: [ReportFile]) {
        let first = subparts[0], spec = plan.parts[part - 1]
        let records = Self.mergedRecords(subparts)
        self.init(file: first.file, name: first.name, scenarioHash: first.scenarioHash, seed: first.seed, part: part, parts: plan.parts.count,
                  listings: spec.listings, allListings: first.allListings, simulatedMilliseconds: first.simulatedMilliseconds,
                  stepsRun: records.stepsRun, sharedStepsRun: records.shared.intersection(spec.sharedSteps).sorted(),
                  expectationsChecked: subparts.reduce(0) { $0 + $1.expectationsChecked }, failures: records.failures, log: records.log,
                  notes: plan.notes, reports: reports)
    }

    /// This manifest with report `name`'s size and hash those of `bytes` (a fuzzer's or a test's forged part).
    func replacing(report name: String, with bytes: [UInt8]) -> PartitionSummary {
        let reports = reports.map { $0.name == name ? ReportFile(name: name, bytes: bytes.count, hash: Self.hash(bytes)) : $0 }
        return PartitionSummary(file: file, name: self.name, scenarioHash: scenarioHash, seed: seed, part: part, parts: parts, listings: listings,
                                allListings: allListings, simulatedMilliseconds: simulatedMilliseconds, stepsRun: stepsRun,
                                sharedStepsRun: sharedStepsRun, expectationsChecked: expectationsChecked, failures: failures, log: log,
                                notes: notes, reports: reports)
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    // MARK: The manifest

    /// `partition.json`: every field, then `check`, the FNV-1a 64 of the text before it (``StableHash/fnv1a64(_:)``), so an edited
    /// manifest is refused.
    public var manifestText: String {
        let body = manifestBody
        return body + ",\n  \"check\": \"\(Self.hex(StableHash.fnv1a64(body)))\"\n}\n"
    }

    private var manifestBody: String {
        func q(_ text: String) -> String { JSONString.quoted(text) }
        func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
        var lines: [String] = []
        lines.append("\"format\": \(Self.format)")
        lines.append("\"file\": \(q(file))")
        lines.append("\"name\": \(q(name))")
        lines.append("\"scenarioHash\": \(q(Self.hex(scenarioHash)))")
        lines.append("\"seed\": \(q(String(seed)))")
        lines.append("\"part\": \(part)")
        lines.append("\"parts\": \(parts)")
        lines.append("\"allListings\": \(allListings)")
        lines.append("\"listings\": \(list(listings.map(q)))")
        lines.append("\"simulatedMilliseconds\": \(simulatedMilliseconds)")
        lines.append("\"stepsRun\": \(stepsRun)")
        lines.append("\"sharedStepsRun\": \(list(sharedStepsRun.map(String.init)))")
        lines.append("\"expectationsChecked\": \(expectationsChecked)")
        lines.append("\"notes\": \(list(notes.map(q)))")
        lines.append("\"reports\": \(list(reports.map { "[\(q($0.name)), \($0.bytes), \(q(Self.hex($0.hash)))]" }))")
        let failureTexts = failures.map { f in
            "[\(f.order.phase), \(f.order.at.unixMilliseconds), \(f.order.kind), \(f.order.index), \(q(f.failure.path)), "
                + "\(f.failure.line.map(String.init) ?? "null"), \(q(f.failure.at)), \(q(f.failure.expected)), \(q(f.failure.actual))]"
        }
        lines.append("\"failures\": [" + failureTexts.map { "\n    " + $0 }.joined(separator: ",") + "]")
        if let log {
            let entries = log.map { "[\($0.at.unixMilliseconds), \($0.kind), \(q($0.listing)), \($0.index), \(q($0.text))]" }
            lines.append("\"log\": [" + entries.map { "\n    " + $0 }.joined(separator: ",") + "]")
        } else {
            lines.append("\"log\": null")
        }
        return "{\n" + lines.map { "  " + $0 }.joined(separator: ",\n")
    }

    /// Reads a manifest written by ``manifestText``.
    /// - Throws: ``PartitionError`` `merge.corrupt` for anything else: not JSON, a missing or mistyped field,
    ///   a `check` that does not match (an edited manifest), another format.
    public static func read(manifest text: String, path: String) throws(PartitionError) -> PartitionSummary {
        func corrupt(_ why: String) -> PartitionError {
            PartitionError(.corrupt, "\(path) is not a partition manifest this version wrote: \(why).", file: path,
                       hint: "Run the partition again with rental-twin run FILE --partition K/N --report DIR; do not edit its files.")
        }
        let root: JSONNode
        do { root = try JSONParser.parse(text) } catch { throw corrupt("line \(error.line): \(error.message)") }
        guard case .object(let members) = root.value else { throw corrupt("it is not a JSON object") }
        var fields: [String: JSONNode] = [:]
        for member in members { fields[member.key] = member.value }
        func node(_ key: String) throws(PartitionError) -> JSONNode {
            guard let node = fields[key] else { throw corrupt("\"\(key)\" is missing") }
            return node
        }
        func string(_ node: JSONNode, _ key: String) throws(PartitionError) -> String {
            guard case .string(let s) = node.value else { throw corrupt("\"\(key)\" is not a string") }
            return s
        }
        func int(_ node: JSONNode, _ key: String) throws(PartitionError) -> Int {
            guard case .number(_, let t) = node.value, let i = Int(t) else { throw corrupt("\"\(key)\" is not a whole number") }
            return i
        }
        func array(_ node: JSONNode, _ key: String) throws(PartitionError) -> [JSONNode] {
            guard case .array(let a) = node.value else { throw corrupt("\"\(key)\" is not an array") }
            return a
        }
        func hexNumber(_ key: String) throws(PartitionError) -> UInt64 {
            let text = try string(try node(key), key)
            guard text.count == 16, let value = UInt64(text, radix: 16) else { throw corrupt("\"\(key)\" is not 16 hex digits") }
            return value
        }
        guard try int(try node("format"), "format") == format else {
            throw PartitionError(.mismatch, "\(path) was written in another manifest format than this version's (\(format)).", file: path,
                             hint: "Run every partition and the merge with the same rental-twin.")
        }
        let seedText = try string(try node("seed"), "seed")
        guard let seed = UInt64(seedText) else { throw corrupt("\"seed\" is not a whole number") }
        var reports: [ReportFile] = []
        for entry in try array(try node("reports"), "reports") {
            let e = try array(entry, "reports")
            guard e.count == 3 else { throw corrupt("a \"reports\" entry does not have 3 fields") }
            let hashText = try string(e[2], "reports")
            guard let hash = UInt64(hashText, radix: 16), hashText.count == 16 else { throw corrupt("a report's hash is not 16 hex digits") }
            reports.append(ReportFile(name: try string(e[0], "reports"), bytes: try int(e[1], "reports"), hash: hash))
        }
        var failures: [PlacedFailure] = []
        for entry in try array(try node("failures"), "failures") {
            let e = try array(entry, "failures")
            guard e.count == 9 else { throw corrupt("a \"failures\" entry does not have 9 fields") }
            let line: Int?
            if case .null = e[5].value { line = nil } else { line = try int(e[5], "failures") }
            let order = FailureOrder(phase: try int(e[0], "failures"), at: SimInstant(unixMilliseconds: Int64(try int(e[1], "failures"))),
                                     kind: try int(e[2], "failures"), index: try int(e[3], "failures"))
            failures.append(PlacedFailure(order: order, failure: ScenarioFailure(path: try string(e[4], "failures"), line: line,
                                                                                 at: try string(e[6], "failures"),
                                                                                 expected: try string(e[7], "failures"),
                                                                                 actual: try string(e[8], "failures"))))
        }
        var log: [LogEntry]?
        let logNode = try node("log")
        if case .null = logNode.value { log = nil } else {
            var entries: [LogEntry] = []
            for entry in try array(logNode, "log") {
                let e = try array(entry, "log")
                guard e.count == 5 else { throw corrupt("a \"log\" entry does not have 5 fields") }
                entries.append(LogEntry(at: SimInstant(unixMilliseconds: Int64(try int(e[0], "log"))), kind: try int(e[1], "log"),
                                        listing: try string(e[2], "log"), index: try int(e[3], "log"), text: try string(e[4], "log")))
            }
            log = entries
        }
        let summary = PartitionSummary(
            file: try string(try node("file"), "file"), name: try string(try node("name"), "name"), scenarioHash: try hexNumber("scenarioHash"),
            seed: seed, part: try int(try node("part"), "part"), parts: try int(try node("parts"), "parts"),
            listings: try array(try node("listings"), "listings").map { (n: JSONNode) throws(PartitionError) in try string(n, "listings") },
            allListings: try int(try node("allListings"), "allListings"),
            simulatedMilliseconds: Int64(try int(try node("simulatedMilliseconds"), "simulatedMilliseconds")),
            stepsRun: try int(try node("stepsRun"), "stepsRun"),
            sharedStepsRun: try array(try node("sharedStepsRun"), "sharedStepsRun").map { (n: JSONNode) throws(PartitionError) in try int(n, "sharedStepsRun") },
            expectationsChecked: try int(try node("expectationsChecked"), "expectationsChecked"), failures: failures, log: log,
            notes: try array(try node("notes"), "notes").map { (n: JSONNode) throws(PartitionError) in try string(n, "notes") }, reports: reports)
        guard try hexNumber("check") == StableHash.fnv1a64(summary.manifestBody), summary.manifestText == text else {
            throw corrupt("its check does not match its contents (was it edited?)")
        }
        return summary
    }
}

/// The errors of partitioned runs and their merge: a stable code, the directory concerned, and a hint.
public struct PartitionError: CodedError, Equatable {
    public enum Code: String, Sendable {
        /// A partition directory or its manifest is missing or unreadable.
        case unreadable = "partition.unreadable"
        /// A manifest or a report file is damaged, edited or not what the manifest says.
        case corrupt = "partition.corrupt"
        /// Partitions of different scenarios, seeds or part counts, or another manifest format.
        case mismatch = "partition.mismatch"
        /// A part is missing or given twice.
        case incomplete = "partition.incomplete"
        /// `--partition K/N` with more parts than the scenario has independent components.
        case tooManyParts = "partition.tooManyParts"
    }

    public let code: Code
    let rawMessage: String
    /// The directory or file concerned.
    public let file: String
    public let hint: String?

    public init(_ code: Code, _ message: String, file: String, hint: String? = nil) {
        self.code = code
        self.rawMessage = message
        self.file = file
        self.hint = hint
    }

    /// Control characters escaped, so a hostile directory cannot drive the terminal.
    public var message: String { TerminalText.escaped(rawMessage) }
}
