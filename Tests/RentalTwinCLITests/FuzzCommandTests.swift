import Foundation
import Testing
@testable import RentalTwinCLI

/// `rental-twin fuzz` as a user runs it: a summary, findings saved for replay, the exit status.
@Suite("Fuzz command", .serialized)
struct FuzzCommandTests {
    @Test func theSeedScenariosAloneGiveNoFindings() async throws {
        let out = try temporaryDirectory().appendingPathComponent("findings").path
        let outcome = await RentalTwinCommand.main(["fuzz", "--inputs", "3", "--seed", "5", "--corpus", scenariosDirectory, "--out", out])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.hasPrefix("fuzz: seed 5, 3 inputs (#0 … #2) in "))
        #expect(outcome.standardOutput.contains("outcomes: 3 passed, 0 failed, 0 invalid\nfindings: none\n"))
    }

    @Test func aFindingIsSavedAndReplaysWithRun() async throws {
        let out = try temporaryDirectory().appendingPathComponent("findings").path
        let outcome = await RentalTwinCommand.main(["fuzz", "--inputs", "1", "--events", "10", "--corpus", scenariosDirectory, "--out", out])
        #expect(outcome.exitCode == .failure)
        #expect(outcome.standardOutput.contains("findings: 1 hang"))
        #expect(outcome.standardOutput.contains("Replay one with: rental-twin run \(out)/<file>.json"))
        let replay = await RentalTwinCommand.main(["run", "\(out)/hang-0.json"])
        #expect(replay.exitCode == .success, "the seed scenario itself passes once the budget is lifted")
    }

    /// `--target` chooses the kinds of file mutated; the summary gives each kind's outcomes, and a side
    /// file's finding is saved beside its scenario.
    @Test func targetsAreChosenAndCountedApart() async throws {
        let out = try temporaryDirectory().appendingPathComponent("findings").path
        let outcome = await RentalTwinCommand.main(["fuzz", "--target", "rules,ical", "--from", "17", "--inputs", "12", "--seed", "2",
                                                    "--corpus", scenariosDirectory, "--out", out])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("\n  rules: ") && outcome.standardOutput.contains("\n  ical: "), "\(outcome.standardOutput)")
        #expect(!outcome.standardOutput.contains("  scenario: ") && !outcome.standardOutput.contains("  epw: "))
        let refused = await RentalTwinCommand.main(["fuzz", "--target", "rules,yaml"])
        #expect(refused.exitCode == .usage)
        #expect(refused.standardError.contains("--target \"yaml\" is not a fuzz target; the targets are scenario, rules, ui-rules, ical, epw"), "\(refused.standardError)")
    }

    @Test func badOptionsAreUsageErrors() async {
        #expect(await RentalTwinCommand.main(["fuzz", "--seed", "-1"]).exitCode == .usage)
        #expect(await RentalTwinCommand.main(["fuzz", "--events", "0"]).exitCode == .usage)
        #expect(await RentalTwinCommand.main(["fuzz", "--corpus", "/nonexistent"]).exitCode == .usage)
    }
}
