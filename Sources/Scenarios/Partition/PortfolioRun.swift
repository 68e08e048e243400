import Rules
import ScenarioFormat
import Twin
import Foundation
import Simulation
import Synchronization

/// Runs a scenario in parts: one part of N for a machine of a matrix (``runPartition(file:seed:part:of:world:withLog:directory:progress:)``),
/// or every part at once in this process (``runParts(file:seed:jobs:world:reportDirectory:withLog:progress:)``).
/// Both end in a ``PartitionSet``, whose merge is what one run of the whole scenario gives.
public enum PortfolioRun {
    /// Told after each simulated day of a part: the part (0-based), its share done (0…1) and the local time reached.
    public typealias Progress = @Sendable (_ part: Int, _ fractionDone: Double, _ reached: String) -> Void

    /// The parts' progress as the whole's: the share done (each part weighted by its listings), the listings
    /// of the parts that finished, and the local time the slowest part has reached.
    public final class ProgressTally: Sendable {
        private let weights: [Int]
        private let done: Mutex<[(fraction: Double, reached: String)]>

        public init(listings: [Int]) {
            weights = listings
            done = Mutex(listings.map { _ in (0, "") })
        }

        /// Records that part `index` (0-based) is `fraction` done and has reached `reached`.
        public func record(_ index: Int, _ fraction: Double, _ reached: String) -> (share: Double, flats: Int, slowest: String) {
            let total = Double(max(1, weights.reduce(0, +)))
            return done.withLock { done in
                done[index] = (fraction, reached)
                let share = zip(done, weights).reduce(0) { $0 + $1.0.fraction * Double($1.1) } / total
                let flats = zip(done, weights).reduce(0) { $0 + ($1.0.fraction >= 1 ? $1.1 : 0) }
                return (share, flats, done.filter { !$0.reached.isEmpty }.min { $0.fraction < $1.fraction }?.reached ?? "")
            }
        }
    }

    /// A scenario file decoded, with the hash of its bytes.
    public struct Loaded: Sendable {
        public let scenario: Scenario
        public let hash: UInt64
        public let file: String
    }

    /// Reads and decodes `file` (with `seed` overriding the file's).
    /// - Throws: ``ScenarioError`` `scenario.unreadable` or `scenario.invalid`.
    public static func load(_ file: String, seed: UInt64?, strict: Bool = false) throws(ScenarioError) -> Loaded {
        let scenario = try ScenarioDecoder.load(path: file, seed: seed, strict: strict)
        let bytes = FileManager.default.contents(atPath: file) ?? Data()
        HeapTrim.releaseFreedMemory()
        return Loaded(scenario: scenario, hash: PartitionSummary.hash(bytes), file: file)
    }

    /// Runs part `part` (1-based) of `count` of the plan and, with `directory`, writes its reports and
    /// its manifest there. A part of many listings, or with `jobs` above 1, runs as smaller parts
    /// (``ScenarioPartition/plan(_:parts:splitting:into:)``, as ``plan(_:jobs:flatsPerPart:)`` sizes them), `jobs`
    /// at a time, merged into exactly what one world of the part writes.
    /// - Throws: ``ScenarioError`` as a run does; ``PartitionError`` `partition.tooManyParts` when the scenario
    ///   has fewer independent components than `count`.
    /// `progress` hears the part's share done (its smaller parts' shares weighted by their listings) and the
    /// local time the slowest of them reached.
    public static func runPartition(_ loaded: Loaded, part: Int, of count: Int, jobs: Int = 1, world: World.Options, withLog: Bool,
                                    directory: String?, progress: ScenarioRunner.Progress? = nil) async throws -> PartRun {
        let plan = ScenarioPartition.plan(loaded.scenario, parts: count)
        guard plan.parts.count == count else {
            throw PartitionError(.tooManyParts, "\(loaded.file) has \(plan.parts.count) independent part(s) (\(plan.notes.joined(separator: "; "))), "
                                 + "so it cannot be split into \(count).", file: loaded.file,
                                 hint: "Use --partition K/N with N ≤ \(plan.parts.count).")
        }
        let refined = ScenarioPartition.plan(loaded.scenario, parts: count, splitting: part,
                                             into: partCount(listings: plan.parts[part - 1].listings.count, jobs: jobs))
        guard refined.parts.count > 1 else {
            let whole = try await run(loaded, plan: plan, part: part, world: world, withLog: withLog, directory: directory,
                                      keepsRecord: false, progress: progress)
            return PartRun(summary: whole.summary, coverage: whole.record?.coverage)
        }
        var report: Progress?
        if let progress {
            let tally = ProgressTally(listings: refined.parts.map { refined.plan.parts[$0 - 1].listings.count })
            report = { index, fraction, reached in
                let whole = tally.record(index, fraction, reached)
                progress(whole.share, whole.slowest.isEmpty ? reached : whole.slowest)
            }
        }
        let scratch = directory.map { _ in scratchDirectory() }
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        let subparts = try await run(loaded, plan: refined.plan, parts: refined.parts, jobs: jobs, world: world,
                                     scratch: scratch, withLog: withLog, progress: report)
        var reports: [PartitionSummary.ReportFile] = []
        var coverage: [RuleFileCoverage]?
        if let directory {
            // The parts' reports merge as a whole run's do (PartitionSet checks nothing here: these parts are of one run, just made).
            let set = PartitionSet(parts: subparts.map { ($0.directory, $0.summary) }, records: subparts.compactMap(\.record))
            reports = try readBack(try set.writeReports(to: directory, page: .record), in: directory)
            coverage = try set.coverage()
        }
        let summary = PartitionSummary(merging: subparts.map(\.summary), as: part, of: plan, reports: reports)
        if let directory {
            try OutputFiles.write([(path: (directory as NSString).appendingPathComponent(PartitionSummary.manifestName), text: summary.manifestText)])
        }
        return PartRun(summary: summary, coverage: coverage)
    }

    /// What ``runPartition(_:part:of:jobs:world:withLog:directory:progress:)`` ran: its summary, and the part's rule
    /// coverage as its page record holds it (`nil` without `--coverage` or without a report directory).
    public struct PartRun: Sendable {
        public let summary: PartitionSummary
        public let coverage: [RuleFileCoverage]?
    }

    /// A fresh directory name for parts' reports before their merge.
    private static func scratchDirectory() -> String {
        (NSTemporaryDirectory() as NSString).appendingPathComponent("rental-twin-parts-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
    }

    /// The size and hash of each report just written in `directory`.
    private static func readBack(_ names: [String], in directory: String) throws -> [PartitionSummary.ReportFile] {
        try names.map { name in
            let path = (directory as NSString).appendingPathComponent(name)
            guard let reader = try? ChunkReader(path: path) else {
                throw ScenarioError(.writeFailed, "cannot read back \(path), just written.", file: path)
            }
            let (bytes, hash) = reader.sizeAndHash()
            return PartitionSummary.ReportFile(name: name, bytes: bytes, hash: hash)
        }
    }

    /// Runs part `part` of `plan` and, with `directory`, writes its reports and manifest there, with its page
    /// record (``PageRecord``) as a file — unless `keepsRecord`, a part merged in this process (never encoded as JSON
    /// only to be parsed again) — and hands the record back in memory.
    private static func run(_ loaded: Loaded, plan: ScenarioPartition, part: Int, world: World.Options, withLog: Bool,
                            directory: String?, keepsRecord: Bool,
                            progress: ScenarioRunner.Progress?) async throws -> (summary: PartitionSummary, record: PageRecord?) {
        let scenario = loaded.scenario.restricted(to: plan.parts[part - 1])
        var options = world
        options.progress = progress
        let result = try await ScenarioRunner.run(scenario, options: options)
        var reports: [PartitionSummary.ReportFile] = []
        var kept: PageRecord?
        if let directory {
            let spec = plan.parts[part - 1]
            let record = PageRecord(result, steps: { spec.steps[$0] })
            kept = record
            if keepsRecord {
                reports = try readBack(try ReportWriter.write(result, to: directory), in: directory)
            } else {
                reports = try readBack(try ReportWriter.writeWithRecord(result, record: record, to: directory), in: directory)
            }
        }
        let summary = PartitionSummary(result: result, whole: loaded.scenario, file: loaded.file, scenarioHash: loaded.hash, plan: plan,
                                       part: part, withLog: withLog, reports: reports)
        if let directory {
            try OutputFiles.write([(path: (directory as NSString).appendingPathComponent(PartitionSummary.manifestName), text: summary.manifestText)])
        }
        return (summary, kept)
    }

    /// Runs the scenario as at most `jobs` parts at once in this process (each part's world on its own
    /// task) and merges them; with `reportDirectory` the parts write into a temporary directory and the
    /// merged reports go to `reportDirectory`.
    /// - Returns: the parts, and the names of the reports written.
    /// - Throws: the first part's error (in part order) as a run throws it; ``PartitionError`` or
    ///   ``ScenarioError`` `scenario.writeFailed` from the merge.
    public static func runParts(_ loaded: Loaded, jobs: Int, world: World.Options, reportDirectory: String?, withLog: Bool,
                                progress: Progress? = nil) async throws -> (parts: PartitionSet, reports: [String]?) {
        try await runParts(loaded, plan: plan(loaded.scenario, jobs: jobs), jobs: jobs, world: world,
                           reportDirectory: reportDirectory, withLog: withLog, progress: progress)
    }

    /// Listings per part a run in this process aims at. A world's cost per flat grows with its size (its
    /// Items, links, handlers and zones outgrow the caches): a 400-flat 30-day portfolio took 26.5 s CPU in
    /// one world, 21.1 s as 4 parts of 100, 18.2 s as 8 of 50, 17.1 s as 16 of 25 and 22.4 s as 40 of 10
    /// (each part a process of its own, decoding the file again). So ~20 flats per part.
    public static let flatsPerPart = 20

    /// The parts ``runParts(_:jobs:world:reportDirectory:withLog:progress:)`` runs `scenario` as,
    /// `jobs` at a time: a multiple of `jobs` (so the cores finish together) of about `flatsPerPart`
    /// listings each, at least `jobs`; one part (the whole) for `jobs` 1 and fewer than twice
    /// `flatsPerPart` listings. Fewer when the scenario has fewer independent components.
    public static func plan(_ scenario: Scenario, jobs: Int, flatsPerPart: Int = flatsPerPart) -> ScenarioPartition {
        ScenarioPartition.plan(scenario, parts: partCount(listings: scenario.listings.count, jobs: jobs, flatsPerPart: flatsPerPart))
    }

    /// How many parts `listings` listings run as with `jobs` jobs (``plan(_:jobs:flatsPerPart:)``).
    static func partCount(listings: Int, jobs: Int, flatsPerPart: Int = flatsPerPart) -> Int {
        let jobs = max(1, jobs)
        let rounds = listings < 2 * flatsPerPart ? 1 : (listings + jobs * flatsPerPart - 1) / (jobs * flatsPerPart)
        return jobs * max(1, rounds)
    }

    /// Runs every part of `plan` in this process, at most `jobs` at once (all of them when `nil`), each
    /// world on its own task, and merges them (see ``runParts(_:jobs:world:reportDirectory:withLog:progress:)``).
    static func runParts(_ loaded: Loaded, plan: ScenarioPartition, jobs: Int? = nil, world: World.Options, reportDirectory: String?,
                         withLog: Bool, progress: Progress? = nil) async throws -> (parts: PartitionSet, reports: [String]?) {
        let scratch = reportDirectory.map { _ in scratchDirectory() }
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        let parts = try await run(loaded, plan: plan, parts: Array(1...plan.parts.count), jobs: jobs, world: world, scratch: scratch,
                                  withLog: withLog, progress: progress)
        let set = try PartitionSet.check(parts.map { ($0.directory, $0.summary) }, records: scratch == nil ? nil : parts.compactMap(\.record))
        guard let reportDirectory else { return (set, nil) }
        return (set, try set.writeReports(to: reportDirectory, page: .html(loaded.scenario)))
    }

    /// Runs parts `numbers` (1-based) of `plan` in this process, at most `jobs` at once (all of them when `nil`),
    /// each world on its own task, each writing its reports into `scratch/part-<number>` when `scratch` is given
    /// and keeping its page record in memory.
    /// Parts start in order; a part starts when one of the running ones has ended, so at most `jobs`
    /// worlds are in memory (and in the caches) at once. `progress` hears each part as its index in `numbers`.
    /// - Throws: the first part's error (in order) as a run throws it.
    private static func run(_ loaded: Loaded, plan: ScenarioPartition, parts numbers: [Int], jobs: Int?, world: World.Options,
                            scratch: String?, withLog: Bool,
                            progress: Progress?) async throws -> [(directory: String?, summary: PartitionSummary, record: PageRecord?)] {
        let directory: @Sendable (Int) -> String? = { part in scratch.map { ($0 as NSString).appendingPathComponent("part-\(part)") } }
        typealias Outcome = (index: Int, result: Result<(summary: PartitionSummary, record: PageRecord?), any Error>)
        @Sendable func runOne(_ index: Int) async -> Outcome {
            var report: ScenarioRunner.Progress?
            if let progress { report = { fraction, reached in progress(index, fraction, reached) } }
            do {
                let part = try await run(loaded, plan: plan, part: numbers[index], world: world, withLog: withLog,
                                         directory: directory(numbers[index]), keepsRecord: true, progress: report)
                return (index, .success(part))
            } catch {
                return (index, .failure(error))
            }
        }
        var outcomes = [Result<(summary: PartitionSummary, record: PageRecord?), any Error>?](repeating: nil, count: numbers.count)
        let count = numbers.count
        let atOnce = max(1, min(jobs ?? count, count))
        await withTaskGroup(of: Outcome.self) { group in
            var next = 0
            while next < atOnce {
                let index = next
                group.addTask { await runOne(index) }  // simulation task: one per part's world; the world never leaves it
                next += 1
            }
            for await outcome in group {
                outcomes[outcome.index] = outcome.result
                if next < count {
                    let index = next
                    group.addTask { await runOne(index) }  // simulation task: as above
                    next += 1
                }
            }
        }
        var parts: [(directory: String?, summary: PartitionSummary, record: PageRecord?)] = []
        for (index, outcome) in outcomes.enumerated() {
            guard let outcome else { throw ScenarioError(.runFailed, "part \(numbers[index]) did not run.", file: loaded.file) }
            let part = try outcome.get()
            parts.append((directory(numbers[index]), part.summary, part.record))
        }
        return parts
    }
}
