import Foundation
@testable import RentalTwinCLI
import SocketTestSupport
import Testing

/// The hostile rule inputs of issue 40, each run as a user runs it: through the command line, in process
/// for what it prints, and as the built binary for SIGTERM in the middle of it.
@Suite("Hostile rule inputs: linear time, and SIGTERM heard in the middle", .serialized)
struct HostileRuleInputTests {
    /// A scenario (the update-counter example's flat and Items) whose only rule file is `rules`; 2 days.
    static func scenario(rules: String, description: String? = nil) throws -> (file: String, reports: String) {
        let dir = try temporaryDirectory()
        try rules.write(to: dir.appendingPathComponent("hostile.rules"), atomically: false, encoding: .utf8)
        let example = try Data(contentsOf: URL(fileURLWithPath: "\(scenariosDirectory)/dsl-08-update-counter.json"))
        var json = try #require(try JSONSerialization.jsonObject(with: example) as? [String: Any])
        json["rules"] = ["hostile.rules"]
        json["end"] = "2026-01-11T00:00"
        json["expect"] = [Any]()  // the example's expectations are about its own rule
        if let description { json["description"] = description }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]), as: UTF8.self)
        let file = dir.appendingPathComponent("hostile.json").path
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        return (file, dir.appendingPathComponent("reports").path)
    }

    /// `count` rules on a daily cron, each posting one update.
    static func cronRules(_ count: Int) -> String {
        (0..<count).map { "rule \"r\($0)\"\nwhen\n  Time cron \"0 0 3 * * ?\"\nthen\n  Counter_Report.postUpdate(\"\($0)\")\nend\n" }.joined()
    }

    /// A rule on a cron (per minute unless given) whose name is `length` characters.
    static func longNameRule(_ length: Int, cron: String = "0 * * * * ?") -> String {
        "rule \"\(String(repeating: "R", count: length))\"\nwhen\n  Time cron \"\(cron)\"\nthen\n  Counter_Report.postUpdate(\"x\")\nend\n"
    }

    @Test func aRuleNamedWithNearlyAMegabyteRunsAndItsLogLinesStayShort() async throws {
        let (file, reports) = try Self.scenario(rules: Self.longNameRule(999_000))
        let outcome = await RentalTwinCommand.main(["run", file, "--log", "--report", reports])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput.prefix(2_000))\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n")
        // 2 days of a per-minute cron: 2,880 runs, each logged with the name cut to 120 characters and its length.
        let runs = lines.filter { $0.contains("← cron 0 * * * * ?") }
        #expect(runs.count == 2_880)
        #expect(runs.allSatisfy { $0.contains("rule \"\(String(repeating: "R", count: 120))… (999000 bytes)\"") })
        #expect(lines.allSatisfy { $0.utf8.count < 1_000 })
    }

    @Test func aLiteralPastTheValueBudgetIsRefusedWhereItStarts() async throws {
        // 30 MB, under the 32 MB a rule file may have: refused at its first character, in linear time.
        let literal = String(repeating: "a", count: 30 << 20)
        let (file, _) = try Self.scenario(rules: "val big = \"\(literal)\"\n" + Self.cronRules(1))
        let outcome = await RentalTwinCommand.main(["validate", file])
        #expect(outcome.exitCode == .invalidInput)
        #expect(outcome.standardError.contains("hostile.rules:1: column 11: this string is longer than 1000000 characters (rules.dslSyntax)."),
                "\(outcome.standardError)")
    }

    @Test func aFiftyMegabyteStringInTheScenarioIsReadInLinearTime() async throws {
        let (file, _) = try Self.scenario(rules: Self.cronRules(1), description: String(repeating: "d", count: 50 << 20))
        let outcome = await RentalTwinCommand.main(["validate", file])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput.prefix(2_000))\(outcome.standardError)")
    }

    @Test func tenThousandCronRulesLoadAndRun() async throws {
        let (file, _) = try Self.scenario(rules: Self.cronRules(10_000))
        let outcome = await RentalTwinCommand.main(["run", file])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput.prefix(2_000))\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("48 h simulated"))
    }

    /// The binary is started on `arguments`, sent SIGTERM after `after` seconds, and must exit 130 soon
    /// after, having written nothing.
    static func terminated(_ arguments: [String], after: Double, reports: String) throws -> (status: Int32, seconds: Double, errors: String) {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rental-twin")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the command first: swift build")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        usleep(useconds_t(after * 1_000_000))
        let sent = ContinuousClock.now  // wall-clock: how long the command took to hear the signal (a generous bound below)
        kill(process.processIdentifier, SIGTERM)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - sent  // wall-clock: see above
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(!FileManager.default.fileExists(atPath: reports), "an interrupted command writes nothing")
        if let leftovers = try? FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: reports).deletingLastPathComponent().path) {
            #expect(!leftovers.contains { $0.hasSuffix(".partial") }, "\(leftovers)")
        }
        return (process.terminationStatus, seconds, text)
    }

    @Test("SIGTERM in the middle of reading, checking and running hostile rules ends the command with 130, nothing written",
          arguments: ["name", "literal", "rules-validate", "rules-run"])
    func sigtermInTheMiddle(_ input: String) async throws {
        let rules: String
        var command = "run"
        switch input {
        case "name": rules = Self.longNameRule(999_000, cron: "* * * * * ?")  // 172,800 runs: still running at the signal
        case "literal": rules = "val big = \"\(String(repeating: "a", count: 999_000))\"\n" + Self.cronRules(20_000)
        case "rules-validate": rules = Self.cronRules(100_000); command = "validate"
        default: rules = Self.cronRules(100_000)
        }
        let (file, reports) = try Self.scenario(rules: rules)
        let arguments = command == "run" ? ["run", file, "--log", "--report", reports] : ["validate", file]
        // The waits block: a thread of their own, not one of the cooperative pool's two that other tests share.
        let (status, seconds, errors) = try await blocking { try Self.terminated(arguments, after: 0.6, reports: reports) }
        #expect(status == 130, "\(errors)")
        #expect(errors.contains("interrupted"), "\(errors)")
        // Within a second on a quiet machine (the benchmark figures in the closing note); a loaded CI machine
        // running a debug build gets more room, so this bound only catches a command that does not hear it.
        #expect(seconds < 5, "took \(seconds) s after SIGTERM")
    }
}
