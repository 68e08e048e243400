import ScenarioFormat
import Scenarios
import Simulation
import Twin

/// `merge DIR… [--report OUT] [--log]`: joins the directories of `run --partition K/N` into what one
/// run of the whole scenario prints and writes.
enum MergeCommand {
    static func run(_ command: ArgumentParser.ParsedCommand) throws(ArgumentParser.UsageError) -> RentalTwinCommand.Outcome {
        var outcome = RentalTwinCommand.Outcome()
        let reportDir = command.value(.report)
        try ScenarioCommands.refuseNonDirectory(reportDir, option: "--report", command: command.name)
        let set: PartitionSet
        do {
            set = try PartitionSet.read(command.positionals)
        } catch {
            outcome.standardError = "\(error.codeName): \(error.explanation)\n"
            outcome.exitCode = .invalidInput
            return outcome
        }
        let summary = set.summary
        if command.has(.log), summary.log == nil {
            throw ArgumentParser.UsageError("--log needs parts run with --log; these were run without it.", command: "merge")
        }
        let coverageFile = command.value(.coverage)
        if let coverageFile, let kind = OutputFiles.kind(of: coverageFile), kind != .regular {
            throw ArgumentParser.UsageError("--coverage \(coverageFile) is \(kind.phrase); --coverage takes the path of the LCOV file to write. "
                                            + "Nothing was removed.", command: "merge")
        }
        // The parts' coverage merged (nil: not asked for, or the parts did not count it).
        let read = coverageFile.map { _ in Result { () throws(PartitionError) in try set.coverage() } }
        if case .failure(let error)? = read {
            outcome.standardError = "\(error.codeName): \(error.explanation)\n"
            outcome.exitCode = .invalidInput
            return outcome
        }
        let coverage = (try? read?.get()) ?? nil
        if coverageFile != nil, coverage == nil {
            throw ArgumentParser.UsageError("--coverage needs parts run with --coverage; these were run without it.", command: "merge")
        }
        var written: [String]?
        if let reportDir {
            // The page is built from the scenario the parts ran; without it the reports are still written, and the warning says why the page is not.
            var page = PartitionSet.Page.none
            do { page = .html(try set.scenario()) } catch {
                outcome.standardError += "warning: \(error.codeName): \(error.explanation) — \(ReportPage.fileName) is not written.\n"
            }
            do {
                written = try set.writeReports(to: reportDir, page: page)
            } catch let error as PartitionError {
                outcome.standardError = "\(error.codeName): \(error.explanation)\n"
                outcome.exitCode = .invalidInput
                return outcome
            } catch {
                outcome.standardError = "\((error as? any CodedError)?.explanation ?? "\(error)")\n"
                outcome.exitCode = .ioError
                return outcome
            }
        }
        outcome.standardOutput = ScenarioCommands.describe(summary, path: set.file, verbose: true)
        if command.has(.log) {
            outcome.standardOutput += ScenarioCommands.logText(summary.log ?? [], notes: set.notes, listings: set.listingCount)
        }
        if let reportDir, let written { outcome.standardOutput += ScenarioCommands.reportsLine(written, directory: reportDir) }
        if let coverageFile, let coverage {
            do { try CoverageReport.write(coverage, to: coverageFile) } catch {
                outcome.standardError += error.explanation + "\n"
                outcome.exitCode = .ioError
                return outcome
            }
            outcome.standardOutput += CoverageReport.summary(coverage, file: coverageFile)
        }
        outcome.exitCode = summary.passed ? .success : .failure
        return outcome
    }
}
