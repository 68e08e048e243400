import Foundation
import ScenarioFormat
import Scenarios
import Simulation
import Twin

/// `run`, `suite` and `validate`: turn scenario results into the lines a user reads and the exit
/// status of the contract (SCENARIO-FORMAT.md).
enum ScenarioCommands {
    /// Reports progress while a suite runs (a terminal line; nothing in CI logs).
    typealias Progress = @Sendable (Int, Int, String) -> Void

    /// Listings from which `run` uses every core by default (measured: below it a part's world costs more
    /// than it saves).
    static let defaultJobsFromListings = 8

    static func run(_ command: ArgumentParser.ParsedCommand, progress: ScenarioRunner.Progress? = nil) async throws(ArgumentParser.UsageError)
        -> RentalTwinCommand.Outcome
    {
        let file = command.positionals[0]
        let seed = try seedOption(command)
        let reportDir = command.value(.report)
        try refuseNonDirectory(reportDir, option: "--report", command: command.name)
        let interval = try intervalOption(command)
        let coverageFile = try coverageOption(command)
        var world = World.Options(recordTimeseries: reportDir == nil ? nil : interval, seams: try seamsOption(command))
        world.countsRuleCoverage = coverageFile != nil
        let explicitJobs = command.value(.runJobs) == nil ? nil : try command.integer(.runJobs, default: 1)
        if let explicitJobs, !(1...64).contains(explicitJobs) {
            throw ArgumentParser.UsageError("--jobs must be between 1 and 64, not \(explicitJobs).", command: "run")
        }
        if let (part, count) = try partOption(command, option: .partition) {
            guard let reportDir else {
                throw ArgumentParser.UsageError("--partition needs --report DIR: the partition's reports and manifest go there for rental-twin merge.",
                                                command: "run")
            }
            return await runPartition(file, seed: seed, part: part, of: count, jobs: explicitJobs, world: world, directory: reportDir,
                                      coverageFile: coverageFile, log: command.has(.log), progress: progress)
        }
        var outcome = RentalTwinCommand.Outcome()
        let loaded: PortfolioRun.Loaded
        do { loaded = try PortfolioRun.load(file, seed: seed, strict: command.has(.strict)) } catch {
            return failed(error, into: outcome)
        }
        outcome.standardError += noticeLines(loaded.scenario)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = explicitJobs ?? (loaded.scenario.listings.count >= defaultJobsFromListings ? max(1, min(cores, 64)) : 1)
        let notes = PortfolioRun.plan(loaded.scenario, jobs: jobs)
        guard notes.parts.count > 1 else {
            // One part: the whole scenario in one world, as always.
            let result: ScenarioResult
            do {
                var options = world
                options.progress = progress
                result = try await ScenarioRunner.run(loaded.scenario, options: options)
            } catch {
                return failed(error, into: outcome)
            }
            outcome.standardOutput = describe(RunSummary(result), path: file, verbose: true)
            if command.has(.log) {
                outcome.standardOutput += logText(loaded.scenario.loadLog + result.log, notes: notes.notes, listings: loaded.scenario.listings.count)
            }
            if Task.isCancelled { return failed(ScenarioError(.cancelled, "interrupted: the run stopped before its reports; nothing was written.", file: file), into: RentalTwinCommand.Outcome()) }
            if let reportDir {
                do {
                    // The same page as a run in parts writes (its parts' page records merged): --jobs N writes what --jobs 1 does.
                    let written = try ReportWriter.writeWithPage(result, to: reportDir)
                    outcome.standardOutput += reportsLine(written, directory: reportDir)
                } catch {
                    outcome.standardError += error.explanation + "\n"
                    outcome.exitCode = exitCode(for: error)
                    return outcome
                }
            }
            if let coverageFile {
                let files = CoverageReport.of(result)
                do {
                    try CoverageReport.write(files, to: coverageFile)
                    outcome.standardOutput += CoverageReport.summary(files, file: coverageFile)
                } catch {
                    outcome.standardError += error.explanation + "\n"
                    outcome.exitCode = .ioError
                    return outcome
                }
            }
            outcome.exitCode = result.passed ? .success : .failure
            return outcome
        }
        if let coverageFile, !loaded.scenario.ruleFiles.isEmpty {
            // Cannot happen: rules keep every listing in one part (ScenarioPartition); refused rather than left out.
            outcome.standardError += "--coverage \(coverageFile): the scenario's rules ran in \(notes.parts.count) parts; run it with --jobs 1.\n"
            outcome.exitCode = .usage
            return outcome
        }
        let merged: (parts: PartitionSet, reports: [String]?)
        do {
            merged = try await PortfolioRun.runParts(loaded, jobs: jobs, world: world, reportDirectory: reportDir,
                                                     withLog: command.has(.log), progress: progress.map { partsProgress(notes, report: $0) })
        } catch let error as ScenarioError {
            if error.code == .writeFailed {
                outcome.standardError += error.explanation + "\n"
                outcome.exitCode = .ioError
                return outcome
            }
            return failed(error, into: outcome)
        } catch {
            outcome.standardError += "\((error as? any CodedError)?.explanation ?? "\(error)")\n"
            outcome.exitCode = .failure
            return outcome
        }
        let summary = merged.parts.summary
        outcome.standardOutput = describe(summary, path: file, verbose: true)
        if command.has(.log) { outcome.standardOutput += logText(loaded.scenario.loadLog + (summary.log ?? []), notes: notes.notes, listings: loaded.scenario.listings.count) }
        if Task.isCancelled { return failed(ScenarioError(.cancelled, "interrupted: the run stopped while its log was written.", file: file), into: RentalTwinCommand.Outcome()) }
        if let reportDir, let written = merged.reports { outcome.standardOutput += reportsLine(written, directory: reportDir) }
        if let coverageFile {
            // A scenario run in parts has no rule files (rules keep it whole): its coverage holds no file, as one run's.
            do { try CoverageReport.write([], to: coverageFile) } catch {
                outcome.standardError += error.explanation + "\n"
                outcome.exitCode = .ioError
                return outcome
            }
            outcome.standardOutput += CoverageReport.summary([], file: coverageFile)
        }
        outcome.exitCode = summary.passed ? .success : .failure
        return outcome
    }

    /// `run FILE --partition K/N --report DIR`: the part's reports and manifest in DIR; prints the part's result.
    private static func runPartition(_ file: String, seed: UInt64?, part: Int, of count: Int, jobs explicitJobs: Int?, world: World.Options,
                                     directory: String, coverageFile: String?, log: Bool, progress: ScenarioRunner.Progress?) async -> RentalTwinCommand.Outcome {
        var outcome = RentalTwinCommand.Outcome()
        do {
            let loaded = try PortfolioRun.load(file, seed: seed)
            // As `run`: every core for a portfolio worth it (the part runs as smaller parts, the same bytes).
            let jobs = explicitJobs ?? (loaded.scenario.listings.count >= defaultJobsFromListings
                                        ? max(1, min(ProcessInfo.processInfo.activeProcessorCount, 64)) : 1)
            let ran = try await PortfolioRun.runPartition(loaded, part: part, of: count, jobs: jobs, world: world,
                                                          withLog: log, directory: directory, progress: progress)
            let summary = ran.summary
            let result = RunSummary.merged([summary])
            outcome.standardOutput = "partition \(part)/\(count): \(summary.listings.count) of \(summary.allListings) listing(s) → "
                + "\(TerminalText.escaped(directory)) (join the \(count) directories with rental-twin merge)\n"
            outcome.standardOutput += describe(result, path: file, verbose: true)
            if let coverageFile {
                // The part's coverage, as its page record holds it for the merge (merge --coverage joins the parts').
                let files = ran.coverage ?? []
                try CoverageReport.write(files, to: coverageFile)
                outcome.standardOutput += CoverageReport.summary(files, file: coverageFile)
            }
            outcome.exitCode = result.passed ? .success : .failure
        } catch let error as ScenarioError {
            if error.code == .writeFailed {
                outcome.standardError = error.explanation + "\n"
                outcome.exitCode = .ioError
                return outcome
            }
            return failed(error, into: outcome)
        } catch let error as PartitionError {
            outcome.standardError = "\(error.codeName): \(error.explanation)\n"
            outcome.exitCode = .usage
        } catch {
            outcome.standardError = "\(error)\n"
            outcome.exitCode = .failure
        }
        return outcome
    }

    /// The log block of `--log`: how the portfolio splits (for several listings), then the lines.
    static func logText(_ lines: [String], notes: [String], listings: Int) -> String {
        var text = listings > 1 ? "Partition: \(TerminalText.escaped(notes.joined(separator: "; ")))\n" : ""
        text += "Log (local time):\n"
        var cancellation = CancellationCheck(every: 1_024)
        for line in lines {
            if cancellation.isDue() { break }  // Ctrl-C: the command ends as interrupted and prints none of it
            text += "  \(TerminalText.escaped(line))\n"
        }
        return text
    }

    /// The outcome of a run that ended in `error` (nothing written).
    private static func failed(_ error: ScenarioError, into outcome: RentalTwinCommand.Outcome) -> RentalTwinCommand.Outcome {
        var outcome = outcome
        outcome.standardError += error.explanation + "\n"
        outcome.exitCode = error.code == .cancelled ? .interrupted
            : error.code == .unavailable ? .unavailable
            : error.code == .invalid || error.code == .unreadable ? .invalidInput : .failure
        return outcome
    }

    /// One progress line for parts running at once: the share simulated over all parts, the local time the
    /// slowest part reached, the flats done and the time left (wall clock: the terminal line only).
    private static func partsProgress(_ plan: ScenarioPartition, report: @escaping ScenarioRunner.Progress) -> PortfolioRun.Progress {
        let tally = PortfolioRun.ProgressTally(listings: plan.parts.map(\.listings.count))
        let total = plan.parts.reduce(0) { $0 + $1.listings.count }
        let started = ContinuousClock.now  // wall-clock: the ETA of the terminal progress line only
        return { part, fraction, reached in
            let (share, flats, slowest) = tally.record(part, fraction, reached)
            let elapsed = ContinuousClock.now - started  // wall-clock: the ETA of the terminal progress line only
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let eta = share > 0 ? Int((seconds * (1 - share) / share).rounded()) : 0
            report(share, "\(slowest) (slowest of \(plan.parts.count) parts), \(flats) of \(total) flats done, "
                   + "about \(eta / 60):\(String(format: "%02d", eta % 60)) left")
        }
    }

    static func suite(_ command: ArgumentParser.ParsedCommand, progress: Progress?) async throws(ArgumentParser.UsageError)
        -> RentalTwinCommand.Outcome
    {
        var outcome = RentalTwinCommand.Outcome()
        let directory = command.positionals[0]
        let jobs = try command.integer(.jobs, default: 1)
        guard (1...64).contains(jobs) else { throw ArgumentParser.UsageError("--jobs must be between 1 and 64, not \(jobs).", command: "suite") }
        let reportDir = command.value(.report)
        try refuseNonDirectory(reportDir, option: "--report", command: command.name)
        let junit = command.value(.junit)
        if let junit, let kind = OutputFiles.kind(of: junit), kind != .regular {
            throw ArgumentParser.UsageError("--junit \(junit) is \(kind.phrase); --junit takes the path of the XML file to write, "
                                            + "like \(junit.hasSuffix("/") ? junit : junit + "/")junit.xml. Nothing was removed.", command: "suite")
        }
        let interval = try intervalOption(command)
        let coverageFile = try coverageOption(command)
        var files: [String]
        do { files = try SuiteRunner.scenarioFiles(in: directory) } catch {
            throw ArgumentParser.UsageError("\(error.message) suite needs a directory of *.json scenario files.", command: "suite")
        }
        guard !files.isEmpty else {
            throw ArgumentParser.UsageError("there are no *.json files below \(directory).", command: "suite")
        }
        if let (index, count) = try shardOption(command) {
            let all = files.count
            files = SuiteRunner.shard(files, index: index, of: count)
            outcome.standardOutput += "shard \(index)/\(count): \(files.count) of \(all) scenario file(s)\n"
        }
        var world = World.Options(recordTimeseries: reportDir == nil ? nil : interval, seams: try seamsOption(command))
        world.countsRuleCoverage = coverageFile != nil
        let entries = await SuiteRunner.run(files: files, jobs: jobs, world: world, strict: command.has(.strict),
                                            progress: progress ?? { _, _, _ in })
        // Interrupted (Ctrl-C): no summary, no reports, no JUnit file.
        for entry in entries {
            guard case .failed(let error) = entry.outcome, error.code == .cancelled else { continue }
            outcome.standardError = "interrupted: the suite stopped before \(entry.path) finished; nothing was written.\n"
            outcome.exitCode = .interrupted
            return outcome
        }
        var passed = 0, failed = 0, invalid = 0, unwritten = 0, unavailable = 0
        var pages: [SuiteIndexPage.Row] = []
        for entry in entries {
            switch entry.outcome {
            case .ran(let result):
                if result.passed { passed += 1 } else { failed += 1 }
                outcome.standardOutput += describe(RunSummary(result), path: entry.path, verbose: false)
                if let reportDir {
                    let stem = relativeStem(entry.path, below: directory)
                    var page: String? = stem
                    do { _ = try ReportWriter.writeWithPage(result, to: "\(reportDir)/\(stem)") } catch {
                        outcome.standardError += error.explanation + "\n"
                        if error.code == .writeFailed { unwritten += 1 } else { failed += 1 }
                        page = nil
                    }
                    pages.append(SuiteIndexPage.Row(path: entry.path, pageDirectory: page, outcome: entry.outcome))
                }
            case .failed(let error):
                if error.code == .invalid || error.code == .unreadable { invalid += 1 } else { failed += 1 }
                if error.code == .unavailable { unavailable += 1 }
                outcome.standardOutput += "\(error.code == .invalid ? "INVALID" : "ERROR  ") \(TerminalText.escaped(entry.path))\n"
                outcome.standardOutput += error.explanation.split(separator: "\n").dropFirst().map { "    \($0)\n" }.joined()
                if error.code != .invalid { outcome.standardOutput += "    \(TerminalText.escaped(error.message))\n" }
                if reportDir != nil { pages.append(SuiteIndexPage.Row(path: entry.path, pageDirectory: nil, outcome: entry.outcome)) }
            }
        }
        // Coverage (only with --coverage, so the default output stays as it was), merged in path order.
        let coverage = coverageFile.map { _ in CoverageReport.merged(entries) }
        if let coverageFile, let coverage {
            do {
                try CoverageReport.write(coverage, to: coverageFile)
                outcome.standardOutput += CoverageReport.summary(coverage, file: coverageFile)
            } catch {
                outcome.standardError += error.explanation + "\n"
                unwritten += 1
            }
        }
        if let reportDir {
            let index = SuiteIndexPage.html(directory: directory, rows: pages, coverage: coverage)
            do { try OutputFiles.write([(path: "\(reportDir)/\(ReportPage.fileName)", text: index)]) } catch {
                outcome.standardError += error.explanation + "\n"
                unwritten += 1
            }
        }
        outcome.standardOutput += "\(passed) passed, \(failed + invalid) failed\(invalid > 0 ? " (\(invalid) invalid)" : "")\n"
        if let junit {
            do {
                try OutputFiles.write([(path: junit, text: JUnitReport.xml(suiteName: directory, entries: entries))])
            } catch {
                outcome.standardError += error.explanation + "\n"
                unwritten += 1
            }
        }
        // The most serious outcome wins: an output that could not be written, then invalid files, then failures.
        outcome.exitCode = unwritten > 0 ? .ioError : unavailable > 0 ? .unavailable : invalid > 0 ? .invalidInput : failed > 0 ? .failure : .success
        return outcome
    }

    /// `--coverage FILE`, or nil without it; a directory there is a usage error (nothing is removed).
    private static func coverageOption(_ command: ArgumentParser.ParsedCommand) throws(ArgumentParser.UsageError) -> String? {
        guard let file = command.value(.coverage) else { return nil }
        if let kind = OutputFiles.kind(of: file), kind != .regular {
            throw ArgumentParser.UsageError("--coverage \(file) is \(kind.phrase); --coverage takes the path of the LCOV file to write, "
                                            + "like \(file.hasSuffix("/") ? file : file + "/")rules.info. Nothing was removed.", command: command.name)
        }
        return file
    }

    /// `--shard K/N` as (K, N), or nil without it.
    private static func shardOption(_ command: ArgumentParser.ParsedCommand) throws(ArgumentParser.UsageError) -> (Int, Int)? {
        try partOption(command, option: .shard)
    }

    /// A `K/N` option (`--shard`, `--partition`) as (K, N), or nil without it.
    private static func partOption(_ command: ArgumentParser.ParsedCommand, option: CommandSpec.Option) throws(ArgumentParser.UsageError) -> (Int, Int)? {
        guard let text = command.value(option) else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...1000).contains(count), (1...count).contains(index) else {
            throw ArgumentParser.UsageError("\(option.name) takes K/N with 1 ≤ K ≤ N ≤ 1000, e.g. \(option.name) 2/4, not \"\(text)\".",
                                            command: command.name)
        }
        return (index, count)
    }

    static func validate(_ command: ArgumentParser.ParsedCommand) -> RentalTwinCommand.Outcome {
        var outcome = RentalTwinCommand.Outcome()
        for file in command.positionals {
            do {
                let scenario = try ScenarioDecoder.load(path: file, strict: command.has(.strict))
                outcome.standardOutput += "valid   \(TerminalText.escaped(file)) — \(TerminalText.escaped(scenario.name)): \(scenario.listings.count) listing(s), "
                    + "\(scenario.timeline.count) step(s), \(scenario.expectations.count) expectation(s)\n"
                outcome.standardError += noticeLines(scenario)
            } catch {
                outcome.standardError += error.explanation + "\n"
                outcome.exitCode = error.code == .unavailable ? .unavailable : .invalidInput
            }
        }
        return outcome
    }

    // MARK: Text

    /// One `notice:` line per thing the scenario's files declare that openHAB loads with a warning (on
    /// standard error: the run's output stays what it is).
    static func noticeLines(_ scenario: Scenario) -> String {
        scenario.warnings.map { "warning: \(TerminalText.escaped($0))\n" }.joined()
            + scenario.notices.map { "notice: \(TerminalText.escaped($0))\n" }.joined()
    }

    /// The line naming the reports written: every file, or for a portfolio (a chart and a calendar per
    /// listing: thousands of names) their count, the directory and the first few.
    static func reportsLine(_ written: [String], directory: String) -> String {
        let shown = 12
        guard written.count > shown else { return "Reports: \(written.joined(separator: ", "))\n" }
        return "Reports: \(written.count) files in \(TerminalText.escaped(directory)): \(written.prefix(shown).joined(separator: ", ")), "
            + "… and \(written.count - shown) more\n"
    }

    /// `PASS path — name` plus one indented line per failure (and figures when `verbose`: simulated
    /// hours, steps and expectations — the figures that are the same however the run was split).
    static func describe(_ result: RunSummary, path: String, verbose: Bool) -> String {
        var text = "\(result.passed ? "PASS" : "FAIL")    \(TerminalText.escaped(path)) — \(TerminalText.escaped(result.name))\n"
        if verbose {
            let hours = result.simulatedSeconds / 3600
            text += "    \(format(hours)) h simulated, \(result.stepsRun) step(s), \(result.expectationsChecked) expectation(s)\n"
        }
        for failure in result.failures { text += "    \(failure)\n" }
        return text
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// The report directory of a suite file: its path below the suite directory without `.json`
    /// (`winter/01-weekend.json` → `winter/01-weekend`). Where dropping `.json` would leave a name
    /// that leads elsewhere (`...json` → `..`), the file name is kept whole, so reports never land
    /// outside the report directory.
    static func relativeStem(_ path: String, below directory: String) -> String {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let relative = path.hasPrefix(base) ? String(path.dropFirst(base.count)) : (path as NSString).lastPathComponent
        let parts = relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            .filter { $0 != "." && $0 != ".." }
        guard var last = parts.last else { return "_" }
        if last.hasSuffix(".json"), !["", ".", ".."].contains(String(last.dropLast(5))) { last.removeLast(5) }
        return (parts.dropLast() + [last]).joined(separator: "/")
    }

    /// A usage error when `path` names something that is not a directory (a report directory option).
    static func refuseNonDirectory(_ path: String?, option: String, command: String) throws(ArgumentParser.UsageError) {
        guard let path else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ArgumentParser.UsageError("\(option) \(path) is not a directory; \(option) takes a directory to write the reports into "
                                            + "(created if missing). Nothing was removed.", command: command)
        }
    }

    /// 74 for files that could not be written, 1 for reports that could not be built.
    private static func exitCode(for error: ScenarioError) -> ExitCode {
        error.code == .writeFailed ? .ioError : .failure
    }

    private static func seedOption(_ command: ArgumentParser.ParsedCommand) throws(ArgumentParser.UsageError) -> UInt64? {
        guard let text = command.value(.seed) else { return nil }
        guard let seed = UInt64(text) else {
            throw ArgumentParser.UsageError("--seed needs a whole number from 0 to 18446744073709551615, not \"\(text)\".", command: command.name)
        }
        return seed
    }

    /// `--seams bytes|typed` (default bytes).
    static func seamsOption(_ command: ArgumentParser.ParsedCommand) throws(ArgumentParser.UsageError) -> World.Seams {
        guard let text = command.value(.seams) else { return .bytes }
        guard let seams = World.Seams(rawValue: text) else {
            throw ArgumentParser.UsageError("--seams is bytes or typed, not \"\(text)\".", command: command.name)
        }
        return seams
    }

    private static func intervalOption(_ command: ArgumentParser.ParsedCommand) throws(ArgumentParser.UsageError) -> ReportInterval {
        guard let text = command.value(.interval) else { return CommandLineSupport.defaultReportInterval }
        guard let value = CommandLineSupport.reportInterval(text) else {
            throw ArgumentParser.UsageError("--interval needs an ISO 8601 duration of at least a minute, like PT15M or PT1H, not \"\(text)\".",
                                            command: command.name)
        }
        return value
    }
}
