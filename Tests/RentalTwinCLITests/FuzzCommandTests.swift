import Foundation
@testable import RentalTwinCLI
import ScenarioFormat
import Scenarios
import Testing
import Twin

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
        // Inputs 0 … seeds-1 are the seed scenarios themselves; the mutants start after them.
        let seeds = try ScenarioFuzzer.corpus(in: scenariosDirectory).count
        let outcome = await RentalTwinCommand.main(["fuzz", "--target", "rules,ical", "--from", "\(seeds)", "--inputs", "12", "--seed", "2",
                                                    "--corpus", scenariosDirectory, "--out", out])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("\n  rules: ") && outcome.standardOutput.contains("\n  ical: "), "\(outcome.standardOutput)")
        #expect(!outcome.standardOutput.contains("  scenario: ") && !outcome.standardOutput.contains("  epw: "))
        let refused = await RentalTwinCommand.main(["fuzz", "--target", "rules,yaml"])
        #expect(refused.exitCode == .usage)
        #expect(refused.standardError.contains("--target \"yaml\" is not a fuzz target; the targets are scenario, rules, ui-rules, ical, epw"), "\(refused.standardError)")
    }

    /// `--target http`: mutated requests and frames against an in-process serve of example 07; the summary
    /// counts the answers, and the same seed sends the same inputs. `http` cannot be mixed with file kinds.
    @Test func httpTargetFuzzesAnInProcessServe() async throws {
        let out = try temporaryDirectory().appendingPathComponent("findings").path
        let outcome = await RentalTwinCommand.main(["fuzz", "--target", "http", "--inputs", "60", "--seed", "3", "--corpus", scenariosDirectory, "--out", out])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.hasPrefix("fuzz: http, seed 3, 60 inputs against serve "), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("findings: none"))
        // Every input is answered with a status or closed: the answers add up to the inputs.
        let answers = try #require(outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix("answers: ") })
        let counts = answers.dropFirst("answers: ".count).split(separator: ",").compactMap { part in
            Int(part.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
        }
        #expect(counts.reduce(0, +) == 60, "\(answers)")
        let mixed = await RentalTwinCommand.main(["fuzz", "--target", "http,rules"])
        #expect(mixed.exitCode == .usage)
        #expect(mixed.standardError.contains("--target http runs on its own"))
    }

    /// `--seconds` bounds the http and partitions runs too when it is given: 1 s stops a run of 5,000 inputs
    /// (at about 250 inputs a second, 20 s of work) after the inputs that fit in it, and the summary counts those.
    @Test func secondsStopTheHTTPAndPartitionRunsEarly() async throws {
        let out = try temporaryDirectory().appendingPathComponent("findings").path
        let http = await RentalTwinCommand.main(["fuzz", "--target", "http", "--inputs", "5000", "--seconds", "1", "--seed", "3", "--corpus", scenariosDirectory, "--out", out])
        #expect(http.exitCode == .success, "\(http.standardOutput)\(http.standardError)")
        let sent = http.standardOutput.split(separator: " ").dropFirst(4).first.flatMap { Int($0) }
        #expect(sent.map { $0 >= 1 && $0 < 5000 } == true, "\(http.standardOutput)")
        let parts = await RentalTwinCommand.main(["fuzz", "--target", "partitions", "--inputs", "5000", "--seconds", "1", "--seed", "3", "--out", out])
        #expect(parts.exitCode == .success, "\(parts.standardOutput)\(parts.standardError)")
        let merged = parts.standardOutput.split(separator: " ").dropFirst(4).first.flatMap { Int($0) }
        #expect(merged.map { $0 >= 1 && $0 < 5000 } == true, "\(parts.standardOutput)")
        #expect(parts.standardOutput.contains("(#0 … #\((merged ?? 0) - 1))"), "\(parts.standardOutput)")
    }

    @Test func badOptionsAreUsageErrors() async {
        #expect(await RentalTwinCommand.main(["fuzz", "--seed", "-1"]).exitCode == .usage)
        #expect(await RentalTwinCommand.main(["fuzz", "--events", "0"]).exitCode == .usage)
        #expect(await RentalTwinCommand.main(["fuzz", "--corpus", "/nonexistent"]).exitCode == .usage)
    }
}
