import Foundation
@testable import RentalTwinCLI
import ScenarioFormat
import Scenarios
import Testing
import Twin

/// The repository root (…/Tests/RentalTwinCLITests/ThisFile.swift → …).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let scenariosDirectory = repositoryRoot.appendingPathComponent("Scenarios").path

/// The one directory this test process's temporary directories live in, removed when the process exits.
let testDirectoryParent: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("rental-twin-tests-\(getpid())")
    atexit {
        // A C callback captures nothing: the path is worked out again from the process id.
        try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("rental-twin-tests-\(getpid())"))
    }
    return url
}()

/// A fresh temporary directory for one test (under ``testDirectoryParent``).
func temporaryDirectory() throws -> URL {
    let url = testDirectoryParent.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Every file below `directory` → its bytes, keyed by relative path.
func contents(of directory: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let walker = FileManager.default.enumerator(atPath: directory.path)
    while let relative = walker?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let path = directory.appendingPathComponent(relative).path
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            result[relative] = FileManager.default.contents(atPath: path)
        }
    }
    return result
}

/// Runs the scenarios as users do: through the command line.
@Suite("Scenario commands", .serialized)
struct ScenarioCommandTests {
    @Test func theExampleSuitePassesAndWritesJUnit() async throws {
        let dir = try temporaryDirectory()
        let junit = dir.appendingPathComponent("junit.xml").path
        let outcome = await RentalTwinCommand.main(["suite", scenariosDirectory, "--junit", junit])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput)\(outcome.standardError)")
        let files = try SuiteRunner.scenarioFiles(in: scenariosDirectory)
        #expect(files.count >= 10)
        #expect(outcome.standardOutput.hasSuffix("\(files.count) passed, 0 failed\n"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == files.count)
        #expect(xml.contains("failures=\"0\" errors=\"0\""))
    }

    @Test func parallelOutputEqualsSerialOutput() async throws {
        let (a, b) = (try temporaryDirectory(), try temporaryDirectory())
        let serial = await RentalTwinCommand.main(["suite", scenariosDirectory, "--jobs", "1", "--junit", a.appendingPathComponent("j.xml").path,
                                                   "--report", a.appendingPathComponent("r").path, "--interval", "PT1H"])
        let parallel = await RentalTwinCommand.main(["suite", scenariosDirectory, "--jobs", "2", "--junit", b.appendingPathComponent("j.xml").path,
                                                     "--report", b.appendingPathComponent("r").path, "--interval", "PT1H"])
        #expect(serial == parallel)
        let (left, right) = (try contents(of: a), try contents(of: b))
        #expect(left.keys.sorted() == right.keys.sorted())
        #expect(left == right)
        #expect(left.keys.contains { $0.hasSuffix("energy-daily.csv") })
    }

    @Test func everyScenarioRunTwiceGivesByteIdenticalReports() async throws {
        for file in try SuiteRunner.scenarioFiles(in: scenariosDirectory) {
            let (a, b) = (try temporaryDirectory(), try temporaryDirectory())
            let first = await RentalTwinCommand.main(["run", file, "--report", a.path, "--interval", "PT30M"])
            let second = await RentalTwinCommand.main(["run", file, "--report", b.path, "--interval", "PT30M"])
            #expect(first.exitCode == .success, "\(file): \(first.standardOutput)")
            #expect(first.standardOutput.replacingOccurrences(of: a.path, with: "") == second.standardOutput.replacingOccurrences(of: b.path, with: ""))
            let reports = try contents(of: a)
            #expect(reports.keys.contains("energy-daily.csv") && reports.keys.contains("stays.csv") && reports.keys.contains("timeseries.csv"))
            #expect(reports == (try contents(of: b)), "\(file) reports differ between runs")
        }
    }

    @Test func changingTheSeedOfANoisyScenarioChangesItsReports() async throws {
        let file = "\(scenariosDirectory)/01-winter-weekend.json"
        let (a, b) = (try temporaryDirectory(), try temporaryDirectory())
        _ = await RentalTwinCommand.main(["run", file, "--report", a.path, "--seed", "1"])
        _ = await RentalTwinCommand.main(["run", file, "--report", b.path, "--seed", "2"])
        let (left, right) = (try contents(of: a), try contents(of: b))
        #expect(left["energy-daily.csv"] != nil)
        #expect(left["energy-daily.csv"] != right["energy-daily.csv"])
    }

    @Test func aWrongExpectationExitsOneWithExpectedAndActual() async throws {
        let dir = try temporaryDirectory()
        let original = try String(contentsOfFile: "\(scenariosDirectory)/06-lock-access-window.json", encoding: .utf8)
        let wrong = original.replacingOccurrences(of: "\"status\": \"checkedOut\"", with: "\"status\": \"cancelled\"")
        #expect(wrong != original)
        let file = dir.appendingPathComponent("wrong.json").path
        try wrong.write(toFile: file, atomically: true, encoding: .utf8)
        let outcome = await RentalTwinCommand.main(["run", file])
        #expect(outcome.exitCode == .failure)
        #expect(outcome.standardOutput.hasPrefix("FAIL"))
        #expect(outcome.standardOutput.contains("expected reservation r1 cancelled; actual checkedOut"), "\(outcome.standardOutput)")
        let suite = await RentalTwinCommand.main(["suite", dir.path])
        #expect(suite.exitCode == .failure)
        #expect(suite.standardOutput.hasSuffix("0 passed, 1 failed\n"))
    }

    @Test func anInvalidFileExits65WithPathLineAndHint() async throws {
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("bad.json").path
        try minimalInvalidScenario.write(toFile: file, atomically: true, encoding: .utf8)
        for command in [["run", file], ["validate", file], ["suite", dir.path]] {
            let outcome = await RentalTwinCommand.main(command)
            #expect(outcome.exitCode == .invalidInput, "\(command)")
            let text = outcome.standardOutput + outcome.standardError
            #expect(text.contains("bad.json:6: timeZone: \"Europe/Budapets\" is not an IANA time zone"), "\(text)")
        }
        let reportDir = dir.appendingPathComponent("reports")
        _ = await RentalTwinCommand.main(["run", file, "--report", reportDir.path])
        #expect(!FileManager.default.fileExists(atPath: reportDir.path), "an invalid run must not write reports")
    }

    @Test func validateAcceptsTheExamples() async throws {
        let files = try SuiteRunner.scenarioFiles(in: scenariosDirectory)
        let outcome = await RentalTwinCommand.main(["validate"] + files)
        #expect(outcome.exitCode == .success, "\(outcome.standardError)")
        #expect(outcome.standardOutput.split(separator: "\n").count == files.count)
    }

    @Test("bad flags exit 64", arguments: [
        ["suite", "Scenarios", "--jbos", "2"],
        ["run", "x.json", "--seed", "-1"],
        ["suite", "Scenarios", "--jobs", "0"],
        ["run", "x.json", "--interval", "15 minutes"],
        ["suite", "/nonexistent-directory"],
    ])
    func badFlags(arguments: [String]) async {
        let outcome = await RentalTwinCommand.main(arguments)
        #expect(outcome.exitCode == .usage, "\(outcome.standardError)")
    }
}

let minimalInvalidScenario = """
{
  "version": 1,
  "name": "Invalid",
  "start": "2026-01-09T00:00",
  "end": "2026-01-10T00:00",
  "timeZone": "Europe/Budapets"
}
"""

/// The committed `Reports/` folder is exactly what the README's example run writes.
@Suite("Committed reports")
struct CommittedReportsTests {
    @Test func committedReportsMatchARegeneration() async throws {
        let dir = try temporaryDirectory()
        let outcome = await RentalTwinCommand.main(["suite", scenariosDirectory, "--report", dir.path])
        #expect(outcome.exitCode == .success)
        // The pages (index.html) are not committed: they name the paths the run was given (the scenario's,
        // and a rule file's in a rule's error), so they differ between a checkout's relative and absolute paths.
        let regenerated = try contents(of: dir).filter { !$0.key.hasSuffix(ReportPage.fileName) }
        var committed = try contents(of: repositoryRoot.appendingPathComponent("Reports"))
        committed.removeValue(forKey: "README.md")
        #expect(regenerated.keys.sorted() == committed.keys.sorted())
        for (name, data) in regenerated.sorted(by: { $0.key < $1.key }) {
            #expect(committed[name] == data, "Reports/\(name) differs from a regeneration; run: swift run rental-twin suite Scenarios --report Reports")
        }
    }
}

@Suite("Portfolio benchmark")
struct PortfolioBenchmarkTests {
    @Test func aSmallGeneratedPortfolioRunsThroughTheWholeRunner() async throws {
        let outcome = await RentalTwinCommand.main(["bench", "--flats", "3", "--days", "20"])
        #expect(outcome.exitCode == .success, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("Generated portfolio: 3 flats, 20 days"))
        #expect(outcome.standardOutput.contains(", 0 failures"))
        #expect(outcome.standardOutput.contains("peak memory (VmHWM)"))
    }

    @Test func theBenchDSLRulesRunWithoutErrorsAndAct() async throws {
        let result = try await ScenarioRunner.run(try BuiltInScenarios.heatedFlatWithDSLRules(days: 3))
        #expect(result.ruleRuns > 300, "\(result.ruleRuns)")
        #expect(!result.log.contains { $0.contains("error") }, "\(result.log.filter { $0.contains("error") }.prefix(3))")
        // Every rule ran and acted: each one's effect is in the log.
        for effect in ["Room_Bedroom :=", "AvgTemp :=", "ColdRooms :=", "TotalPower :=", "Scene :=", "Hot :=", "Top :=", "[bench] changes"] {
            #expect(result.log.contains { $0.contains(effect) }, "\(effect)")
        }
    }

    @Test func theGeneratorIsAValidDeterministicScenario() throws {
        let text = PortfolioGenerator.json(flats: 5, days: 60, occupancy: 0.7, seed: 3)
        #expect(text == PortfolioGenerator.json(flats: 5, days: 60, occupancy: 0.7, seed: 3))
        #expect(text != PortfolioGenerator.json(flats: 5, days: 60, occupancy: 0.7, seed: 4))
        let scenario = try ScenarioDecoder.decode(text, file: "generated.json")
        #expect(scenario.listings.count == 5)
        #expect(scenario.listings.allSatisfy { $0.devices.map(\.kind.typeName) == ["heating", "cooling", "smartPlug", "lock"] })
        // Booked nights ≈ 70 % of the flat-nights.
        var nights = 0
        for step in scenario.timeline {
            if case .book(_, _, _, let checkIn, let checkOut, _) = step.action { nights += Int(checkOut.daysSinceEpoch - checkIn.daysSinceEpoch) }
        }
        let occupancy = Double(nights) / Double(5 * 60)
        #expect((0.55...0.85).contains(occupancy), "\(occupancy)")
    }
}
