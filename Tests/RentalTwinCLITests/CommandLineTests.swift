import Testing
@testable import RentalTwinCLI
import Scenarios
import Simulation

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
        #expect(parsed.value("--seed") == "7")
    }

    @Test func editDistance() {
        #expect(Suggestion.editDistance("sutie", "suite") == 2)
        #expect(Suggestion.editDistance("", "run") == 3)
        #expect(Suggestion.editDistance("run", "run") == 0)
        #expect(Suggestion.editDistance("uaWperK", "uaWPerK") == 1)
        #expect(ArgumentParser.closest(to: "xyzzy", in: ["run", "suite"]) == nil)
        #expect(Suggestion.closest(to: "capacitanceKWhperK", in: ["uaWPerK", "capacitanceKWhPerK"]) == "capacitanceKWhPerK")
    }

    @Test func demoRunsTheTwinAndIsDeterministic() async {
        let first = await RentalTwinCommand.main(["demo", "--days", "2"])
        let second = await RentalTwinCommand.main(["demo", "--days", "2"])
        #expect(first.exitCode == .success)
        let stable: (String) -> String = { $0.split(separator: "\n").filter { !$0.hasPrefix("Kernel:") }.joined(separator: "\n") }
        #expect(stable(first.standardOutput) == stable(second.standardOutput))
        // 2 days × 2000 W, never reaching 21 °C from 16 °C at −2 °C outside: 32 h of heating.
        #expect(first.standardOutput.contains("heating 64.000 kWh"))
        #expect(first.standardOutput.contains("flat_1_door_battery          99.97 %"))
    }

    @Test func benchHeatsToTheDegreeHourBalanceWithAndWithoutASubscriber() async throws {
        let outcome = await RentalTwinCommand.main(["bench", "--days", "30"])
        #expect(outcome.exitCode == .success)
        let lines = outcome.standardOutput.split(separator: "\n")
        func figure(_ line: Substring, after label: String) throws -> Double {
            let range = try #require(line.range(of: label + " "))
            return try #require(Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." }))
        }
        let quiet = try #require(lines.first { $0.hasPrefix("no subscriber:") })
        let heard = try #require(lines.first { $0.hasPrefix("one subscriber:") })
        let kWh = try figure(quiet, after: "heating energy")
        // UA·(S − mean T_out)·t = 80 W/K × 19 K × 720 h; the room starts 1 K low and stores up to C·h.
        #expect(abs(kWh - 80 * 19 * 720 / 1000) < 2.3 * 1.5 + 5)
        // Listening changes nothing in the world; the subscriber hears every event, one kernel event each.
        #expect(try figure(heard, after: "heating energy") == kWh)
        #expect(try figure(quiet, after: "received") == 0)
        #expect(try figure(heard, after: "received") == (try figure(heard, after: "bus events")))
        #expect(try figure(heard, after: "bus events") == (try figure(quiet, after: "bus events")))
        #expect(try figure(heard, after: "kernel events") == (try figure(quiet, after: "kernel events")) + (try figure(heard, after: "received")))
    }
}
