import Foundation
import Testing
@testable import RentalTwinCLI

/// `suite --shard K/N` as a CI matrix uses it: the shards together run each file once, and their
/// JUnit files hold the same test cases as one whole run.
@Suite("suite --shard")
struct SuiteShardTests {
    /// Five small examples in a directory of their own (a subdirectory too, as suites may have).
    func smallSuite() throws -> String {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("more"), withIntermediateDirectories: true)
        for (name, target) in [("05-cancelled-booking.json", "a.json"), ("06-lock-access-window.json", "b.json"),
                               ("08-weather-feed-outage.json", "c.json"), ("11-plug-left-on.json", "more/d.json"),
                               ("02-summer-heatwave.json", "more/e.json")] {
            try FileManager.default.copyItem(atPath: "\(scenariosDirectory)/\(name)", toPath: dir.appendingPathComponent(target).path)
        }
        return dir.path
    }

    /// The `<testcase …>` lines of a JUnit file.
    func cases(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("<testcase ") }
    }

    @Test func shardsRunEachFileOnceAndTheirJUnitCasesAreTheWholeRun() async throws {
        let suite = try smallSuite()
        let out = try temporaryDirectory().path
        let whole = await RentalTwinCommand.main(["suite", suite, "--junit", "\(out)/whole.xml"])
        #expect(whole.exitCode == .success, "\(whole.standardOutput)\(whole.standardError)")
        var shardCases: [String] = []
        var sizes: [Int] = []
        for k in 1...3 {
            let shard = await RentalTwinCommand.main(["suite", suite, "--shard", "\(k)/3", "--junit", "\(out)/shard-\(k).xml"])
            #expect(shard.exitCode == .success, "\(shard.standardOutput)\(shard.standardError)")
            let size = k < 3 ? 2 : 1
            #expect(shard.standardOutput.hasPrefix("shard \(k)/3: \(size) of 5 scenario file(s)\n"), "\(shard.standardOutput)")
            sizes.append(shard.standardOutput.split(separator: "\n").filter { $0.hasPrefix("PASS") }.count)
            shardCases += try cases("\(out)/shard-\(k).xml")
        }
        #expect(sizes == [2, 2, 1])
        let wholeCases = try cases("\(out)/whole.xml")
        #expect(wholeCases.count >= 5)
        #expect(shardCases.sorted() == wholeCases.sorted())
    }

    @Test func aShardWithNoFilesPassesEmpty() async throws {
        let suite = try smallSuite()
        let outcome = await RentalTwinCommand.main(["suite", suite, "--shard", "7/7"])
        #expect(outcome.exitCode == .success)
        #expect(outcome.standardOutput == "shard 7/7: 0 of 5 scenario file(s)\n0 passed, 0 failed\n")
    }

    @Test("a bad --shard is a usage error", arguments: ["0/3", "4/3", "3", "a/b", "1/0", "1/1001", "2/3/4"])
    func badShard(text: String) async throws {
        let outcome = await RentalTwinCommand.main(["suite", scenariosDirectory, "--shard", text])
        #expect(outcome.exitCode == .usage)
        #expect(outcome.standardError.contains("--shard takes K/N"), "\(outcome.standardError)")
    }
}
