import Foundation
@testable import RentalTwinCLI
import ScenarioFormat
import Scenarios
import Simulation
import Testing
import Twin

@Suite("The rental-twin command line")
struct CommandLineTests {
    @Test func helpListsEveryCommandOfTheContract() async {
        let outcome = await RentalTwinCommand.main(["--help"])
        #expect(outcome.exitCode == .success)
        for command in ["run FILE", "suite DIR", "validate FILE...", "demo"] {
            #expect(outcome.standardOutput.contains("  \(command)"), "missing \(command)")
        }
        #expect(outcome.standardOutput.contains("64 bad usage"))
        #expect(await RentalTwinCommand.main([]).standardOutput == outcome.standardOutput)
    }

    @Test func commandHelp() async {
        let outcome = await RentalTwinCommand.main(["suite", "--help"])
        #expect(outcome.exitCode == .success)
        #expect(outcome.standardOutput.contains("--junit FILE"))
        #expect(outcome.standardOutput.contains("N passed, N failed"))
        #expect(await RentalTwinCommand.main(["help", "suite"]) == outcome)
    }

    @Test("unknown commands and flags exit 64 with a suggestion", arguments: [
        (["sutie", "Scenarios"], "Did you mean \"suite\"?"),
        (["run", "a.json", "--reprot", "x"], "Did you mean --report?"),
        (["run"], "run needs FILE."),
        (["run", "a.json", "--seed"], "--seed needs a value"),
        (["demo", "--days", "many"], "--days needs a non-negative integer, not \"many\"."),
        (["demo", "--days", "0"], "--days must be between 1 and 3660"),
        (["demo", "extra"], "demo takes no arguments, but also got: extra."),
        (["--verbose"], "not a global option"),
        (["help", "rnu"], "Did you mean \"run\"?"),
    ])
    func usageErrors(arguments: [String], message: String) async {
        let outcome = await RentalTwinCommand.main(arguments)
        #expect(outcome.exitCode == .usage)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test func inlineOptionValues() throws {
        let invocation = try ArgumentParser.parse(["run", "a.json", "--seed=7"])
        guard case .command(let parsed) = invocation else {
            Issue.record("expected a command")
            return
        }
        #expect(parsed.positionals == ["a.json"])
        #expect(parsed.value(.seed) == "7")
    }

    @Test func editDistance() {
        #expect(Suggestion.editDistance("sutie", "suite") == 2)
        #expect(Suggestion.editDistance("", "run") == 3)
        #expect(Suggestion.editDistance("run", "run") == 0)
        #expect(Suggestion.editDistance("uaWperK", "uaWPerK") == 1)
        #expect(ArgumentParser.closest(to: "xyzzy", in: ["run", "suite"]) == nil)
        #expect(Suggestion.closest(to: "capacitanceKWhperK", in: ["uaWPerK", "capacitanceKWhPerK"]) == "capacitanceKWhPerK")
    }

    @Test func demoRunsTheBuiltInScenarioAndIsDeterministic() async throws {
        let first = await RentalTwinCommand.main(["demo", "--days", "2"])
        let second = await RentalTwinCommand.main(["demo", "--days", "2"])
        #expect(first.exitCode == .success, "\(first.standardOutput)")
        #expect(first == second)
        #expect(first.standardOutput.hasPrefix("PASS    built-in demo — Demo: a flat in Budapest, a guest every night, 2 day(s)\n"))
        #expect(first.standardOutput.contains("2026-01-09T12:00  preheat flat-1: heating setpoint"))
        #expect(first.standardOutput.contains("2026-01-10T10:00  setback flat-1: heating setpoint"))
        // The demo is an ordinary scenario: printed as a file, `run` gives the same run.
        let printed = await RentalTwinCommand.main(["demo", "--days", "2", "--print-scenario"])
        let file = try temporaryDirectory().appendingPathComponent("demo.json")
        try Data(printed.standardOutput.utf8).write(to: file)
        let run = await RentalTwinCommand.main(["run", file.path, "--log"])
        #expect(run.exitCode == .success)
        let body: (String) -> [Substring] = { $0.split(separator: "\n").dropFirst().prefix(while: { !$0.hasPrefix("Energy") }).map { $0 } }
        #expect(body(run.standardOutput) == body(first.standardOutput).filter { !$0.hasPrefix("  …") })
    }

    @Test func benchHeatsToTheDegreeHourBalanceWithAndWithoutAListener() async throws {
        let outcome = await RentalTwinCommand.main(["bench", "--days", "30"])
        #expect(outcome.exitCode == .success)
        let lines = outcome.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let energies = lines.filter { $0.hasPrefix("heating energy") }
        #expect(energies.count == 2)
        let firstEnergy = try #require(energies.first)
        let kWh = try #require(Double(firstEnergy.split(separator: " ")[2]))
        // UA·(S − mean T_out)·t = 80 W/K × 19 K × 720 h; the room starts 1 K low and stores up to C·h.
        #expect(abs(kWh - 80 * 19 * 720 / 1000) < 2.3 * 1.5 + 5)
        #expect(energies.first == energies.last, "a listener must not change the run")
        let busEvents = try #require(lines.first { $0.hasPrefix("kernel events") }?.split(separator: " ").dropFirst(5).first)
        #expect(lines.contains { $0.hasPrefix("with one listener receiving every bus event (\(busEvents.dropLast()) received)") },
                "\(outcome.standardOutput)")
    }

    @Test func benchWithReportsWritesThePortfolioReportsAndPrintsTheirCost() async throws {
        let out = try temporaryDirectory().appendingPathComponent("bench-reports").path
        let outcome = await RentalTwinCommand.main(["bench", "--flats", "2", "--days", "2", "--report", out])
        #expect(outcome.exitCode == .success, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains { $0.hasPrefix("with reports (timeseries every") }, "\(outcome.standardOutput)")
        #expect(lines.filter { $0.hasPrefix("peak memory (VmHWM)") }.count == 2, "\(outcome.standardOutput)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out)
        for name in ["energy-daily.csv", "stays.csv", "timeseries.csv", "kpi.csv"] {
            #expect(written.contains(name), "missing \(name) in \(written)")
        }
        #expect(written.filter { $0.hasPrefix("chart-") }.count == 2)
        let refused = await RentalTwinCommand.main(["bench", "--days", "2", "--report", out])
        #expect(refused.exitCode == .usage && refused.standardError.contains("--report needs --flats"), "\(refused.standardError)")
    }

    @Test func aPortfolioRunNamesItsReportsByCountNotOneByOne() async throws {
        let directory = try temporaryDirectory()
        let printed = await RentalTwinCommand.main(["bench", "--flats", "8", "--days", "1", "--print-scenario"])
        let file = directory.appendingPathComponent("portfolio.json").path
        try printed.standardOutput.write(toFile: file, atomically: true, encoding: .utf8)
        let reports = directory.appendingPathComponent("reports").path
        let outcome = await RentalTwinCommand.main(["run", file, "--report", reports])
        #expect(outcome.exitCode == .success, "\(outcome.standardError)")
        let written = try FileManager.default.contentsOfDirectory(atPath: reports)
        #expect(written.count == 21)  // 4 CSV files, a chart and a calendar per flat, and the page (as a run in parts writes it)
        let line = try #require(outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix("Reports: ") })
        #expect(line.hasPrefix("Reports: 21 files in \(reports): energy-daily.csv, stays.csv, timeseries.csv, kpi.csv, chart-flat-0.svg"), "\(line)")
        #expect(line.hasSuffix(", … and 9 more"), "\(line)")
        // A small run still names every file.
        #expect(ScenarioCommands.reportsLine(["a.csv", "b.svg"], directory: reports) == "Reports: a.csv, b.svg\n")
    }
}
