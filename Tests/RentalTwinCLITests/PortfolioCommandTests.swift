import Foundation
@testable import RentalTwinCLI
import ScenarioFormat
import Scenarios
import Testing
import Twin

/// `run --jobs N`, `run --partition K/N` and `merge` through the command line: the same bytes as one
/// run, and partition directories that do not belong together refused with a code.
@Suite("Portfolio commands", .serialized)
struct PortfolioCommandTests {
    /// `outcome`'s output with `directory` (as named on the command line) replaced by `DIR`.
    static func text(_ outcome: RentalTwinCommand.Outcome, directory: String) -> String {
        outcome.standardOutput.replacingOccurrences(of: directory, with: "DIR") + outcome.standardError
    }

    /// Every example with more than one listing, and a generated portfolio.
    static func portfolios(in dir: URL) throws -> [String] {
        let generated = dir.appendingPathComponent("generated.json").path
        try PortfolioGenerator.json(flats: 7, days: 12, seed: 5).write(toFile: generated, atomically: true, encoding: .utf8)
        let examples = try SuiteRunner.scenarioFiles(in: scenariosDirectory).filter { file in
            ((try? ScenarioDecoder.load(path: file))?.listings.count ?? 0) > 1
        }
        #expect(examples.contains { $0.hasSuffix("10-portfolio-month.json") })
        return examples + [generated]
    }

    @Test func jobsTwoPrintsAndWritesWhatJobsOneDoes() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for file in try Self.portfolios(in: dir) {
            let (one, two) = (dir.appendingPathComponent("one").path, dir.appendingPathComponent("two").path)
            let serial = await RentalTwinCommand.main(["run", file, "--jobs", "1", "--report", one, "--log"])
            let parallel = await RentalTwinCommand.main(["run", file, "--jobs", "2", "--report", two, "--log"])
            #expect(serial.exitCode == parallel.exitCode, "\(file)")
            #expect(Self.text(serial, directory: one) == Self.text(parallel, directory: two), "\(file)")
            let (left, right) = (try contents(of: URL(fileURLWithPath: one)), try contents(of: URL(fileURLWithPath: two)))
            #expect(left.keys.sorted() == right.keys.sorted(), "\(file)")
            #expect(left == right, "\(file)")
            #expect(left.keys.contains("timeseries.csv"))
            try FileManager.default.removeItem(atPath: one)
            try FileManager.default.removeItem(atPath: two)
        }
    }

    /// Runs `file` as `count` partitions into dir/part-K and returns the directories.
    static func partitions(_ file: String, count: Int, in dir: URL, extra: [String] = []) async throws -> [String] {
        var directories: [String] = []
        for part in 1...count {
            let out = dir.appendingPathComponent("part-\(part)").path
            let outcome = await RentalTwinCommand.main(["run", file, "--partition", "\(part)/\(count)", "--report", out, "--log"] + extra)
            #expect(outcome.standardError.isEmpty, "\(outcome.standardError)")
            #expect(outcome.standardOutput.hasPrefix("partition \(part)/\(count): "))
            directories.append(out)
        }
        return directories
    }

    @Test func partitionsMergedInAnyOrderAreOneRun() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("portfolio.json").path
        try PortfolioGenerator.json(flats: 6, days: 10, seed: 9).write(toFile: file, atomically: true, encoding: .utf8)
        let whole = dir.appendingPathComponent("whole").path
        let run = await RentalTwinCommand.main(["run", file, "--jobs", "1", "--report", whole, "--log"])
        let parts = try await Self.partitions(file, count: 3, in: dir)
        let merged = dir.appendingPathComponent("merged").path
        let merge = await RentalTwinCommand.main(["merge", parts[2], parts[0], parts[1], "--report", merged, "--log"])
        #expect(merge.exitCode == run.exitCode)
        #expect(Self.text(merge, directory: merged) == Self.text(run, directory: whole))
        #expect(try contents(of: URL(fileURLWithPath: merged)) == (try contents(of: URL(fileURLWithPath: whole))))
        // Without --log on the parts, merge --log is a usage error; without it the result still prints.
        let more = await RentalTwinCommand.main(["merge"] + parts)
        #expect(more.exitCode == run.exitCode)
        #expect(more.standardOutput == run.standardOutput.components(separatedBy: "Partition:")[0])
    }

    /// A run in parts writes one run's page (`index.html`) and LCOV, byte for byte: a portfolio with failed
    /// expectations (the failure boxes with their measured rows) run whole, on two jobs, and as two
    /// partitions merged; a scenario with rules (one part: its coverage) run whole and as `--partition 1/1`
    /// merged. A merge without the scenario file at hand writes the reports, warns, and writes no page.
    @Test func aRunInPartsWritesOneRunsPageAndCoverage() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("portfolio.json").path
        let text = PortfolioGenerator.json(flats: 5, days: 4, seed: 3).replacingOccurrences(of: "  \"expect\": [\n", with: """
              "expect": [
                { "at": "2026-01-02T12:00", "item": "flat-3/heating/setpoint", "state": "99 °C" },
                { "at": "2026-01-03T06:00", "item": "flat-0/heating/setpoint", "state": "98 °C" },

            """)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        func read(_ name: String) -> Data? { FileManager.default.contents(atPath: path(name)) }
        let whole = await RentalTwinCommand.main(["run", file, "--jobs", "1", "--report", path("whole"), "--coverage", path("whole.info")])
        #expect(whole.exitCode == .failure)
        let page = try #require(read("whole/index.html").map { String(decoding: $0, as: UTF8.self) })
        #expect(page.contains("<div class=\"failure\" id=\"failure-2\">") && page.contains("Measured (timeseries.csv) for flat-3"))
        let jobs = await RentalTwinCommand.main(["run", file, "--jobs", "2", "--report", path("jobs"), "--coverage", path("jobs.info")])
        func said(_ outcome: RentalTwinCommand.Outcome, _ name: String) -> String {
            Self.text(outcome, directory: path(name)).replacingOccurrences(of: path(name + ".info"), with: "INFO")
        }
        #expect(said(jobs, "jobs") == said(whole, "whole"))
        #expect(try contents(of: URL(fileURLWithPath: path("jobs"))) == (try contents(of: URL(fileURLWithPath: path("whole")))))
        #expect(read("jobs.info") == read("whole.info"))
        let parts = try await Self.partitions(file, count: 2, in: dir, extra: ["--coverage", path("part.info")])
        let merge = await RentalTwinCommand.main(["merge"] + parts + ["--report", path("merged"), "--coverage", path("merged.info")])
        #expect(merge.exitCode == .failure)
        #expect(said(merge, "merged") == said(whole, "whole"))
        #expect(try contents(of: URL(fileURLWithPath: path("merged"))) == (try contents(of: URL(fileURLWithPath: path("whole")))))
        #expect(read("merged.info") == read("whole.info"))

        // Rules keep a scenario whole: one part, its coverage and page the whole run's.
        let rules = repositoryRoot.appendingPathComponent("Docs/examples/failing-weekend-comfort.json").path
        let ruled = await RentalTwinCommand.main(["run", rules, "--report", path("ruled"), "--coverage", path("ruled.info")])
        let ruledPage = try #require(read("ruled/index.html").map { String(decoding: $0, as: UTF8.self) })
        #expect(ruledPage.contains("<h2 id=\"coverage\">Rule coverage</h2>"))
        #expect(read("ruled.info").map { String(decoding: $0, as: UTF8.self).contains("FNDA:") } == true)
        let one = await RentalTwinCommand.main(["run", rules, "--partition", "1/1", "--report", path("ruled-part"), "--coverage", path("ruled-part.info")])
        #expect(one.exitCode == ruled.exitCode)
        #expect(read("ruled-part.info") == read("ruled.info"))
        let ruledMerge = await RentalTwinCommand.main(["merge", path("ruled-part"), "--report", path("ruled-merged"), "--coverage", path("ruled-merged.info")])
        #expect(ruledMerge.exitCode == ruled.exitCode, "\(ruledMerge.standardError)")
        #expect(try contents(of: URL(fileURLWithPath: path("ruled-merged"))) == (try contents(of: URL(fileURLWithPath: path("ruled")))))
        #expect(read("ruled-merged.info") == read("ruled.info"))
        // merge --coverage of parts run without it is a usage error.
        let noCoverage = await RentalTwinCommand.main(["run", rules, "--partition", "1/1", "--report", path("plain-part")])
        #expect(noCoverage.exitCode == ruled.exitCode)
        let refused = await RentalTwinCommand.main(["merge", path("plain-part"), "--coverage", path("plain.info")])
        #expect(refused.exitCode == .usage)

        // Without the scenario file the parts ran: every report but the page, and a warning that says why.
        try FileManager.default.moveItem(atPath: file, toPath: file + ".moved")
        let blind = await RentalTwinCommand.main(["merge"] + parts + ["--report", path("blind")])
        #expect(blind.exitCode == .failure)
        #expect(blind.standardError.hasPrefix("warning: partition.unreadable: "), "\(blind.standardError)")
        var expected = try contents(of: URL(fileURLWithPath: path("whole")))
        expected["index.html"] = nil
        #expect(try contents(of: URL(fileURLWithPath: path("blind"))) == expected)
    }

    /// What a merge of the directories `edit` leaves says: exit 65 and the code.
    static func refused(_ parts: [String], code: String, _ comment: Comment) async throws {
        let out = (parts[0] as NSString).deletingLastPathComponent + "/refused-\(UUID().uuidString)"
        let outcome = await RentalTwinCommand.main(["merge"] + parts + ["--report", out])
        #expect(outcome.exitCode == .invalidInput, comment)
        #expect(outcome.standardError.hasPrefix(code + ":"), "\(comment): \(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out), comment)
    }

    @Test func partitionsThatDoNotBelongTogetherAreRefusedWithACode() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("portfolio.json").path
        try PortfolioGenerator.json(flats: 4, days: 4, seed: 2).write(toFile: file, atomically: true, encoding: .utf8)
        let parts = try await Self.partitions(file, count: 2, in: dir)
        let other = try await Self.partitions(file, count: 2, in: dir.appendingPathComponent("seeded"), extra: ["--seed", "99"])
        let three = try await Self.partitions(file, count: 3, in: dir.appendingPathComponent("three"))
        try await Self.refused([parts[0]], code: "partition.incomplete", "a missing part")
        try await Self.refused([parts[0], parts[0], parts[1]], code: "partition.incomplete", "a part twice")
        try await Self.refused([parts[0], other[1]], code: "partition.mismatch", "another seed")
        try await Self.refused([parts[0], three[1]], code: "partition.mismatch", "another N")
        try await Self.refused([parts[0], file], code: "partition.unreadable", "a file, not a directory")
        let fm = FileManager.default
        // A truncated report.
        let copy = dir.appendingPathComponent("copy").path
        try fm.copyItem(atPath: parts[1], toPath: copy)
        let timeseries = copy + "/timeseries.csv"
        let bytes = try #require(fm.contents(atPath: timeseries))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: timeseries))
        try await Self.refused([parts[0], copy], code: "partition.corrupt", "a truncated timeseries")
        // An edited manifest: another listing named, then a truncated one, then not JSON at all.
        try fm.removeItem(atPath: copy)
        try fm.copyItem(atPath: parts[1], toPath: copy)
        let manifest = copy + "/partition.json"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        for (edited, what) in [(text.replacingOccurrences(of: "\"flat-1\"", with: "\"flat-0\""), "a listing renamed"),
                               (text.replacingOccurrences(of: "\"part\": 2", with: "\"part\": 1"), "a part number changed"),
                               (String(text.prefix(text.count / 3)), "a truncated manifest"),
                               ("\u{0}\u{1B}[2J", "binary garbage")] {
            try edited.write(toFile: manifest, atomically: true, encoding: .utf8)
            try await Self.refused([parts[0], copy], code: "partition.corrupt", "\(what)")
        }
        try fm.removeItem(atPath: manifest)
        try await Self.refused([parts[0], copy], code: "partition.unreadable", "no manifest")
    }

    @Test func partitionOptionsAreChecked() async throws {
        let file = scenariosDirectory + "/10-portfolio-month.json"
        let noReport = await RentalTwinCommand.main(["run", file, "--partition", "1/2"])
        #expect(noReport.exitCode == .usage)
        let bad = await RentalTwinCommand.main(["run", file, "--partition", "3/2", "--report", "/tmp/x"])
        #expect(bad.exitCode == .usage)
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Three listings, three independent groups: four parts cannot be made.
        let tooMany = await RentalTwinCommand.main(["run", file, "--partition", "1/4", "--report", dir.path])
        #expect(tooMany.exitCode == .usage)
        #expect(tooMany.standardError.hasPrefix("partition.tooManyParts:"))
        let jobs = await RentalTwinCommand.main(["run", file, "--jobs", "0"])
        #expect(jobs.exitCode == .usage)
    }
}
