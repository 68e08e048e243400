import Foundation
@testable import RentalTwinCLI
import ScenarioFormat
import Scenarios
import SmartHome
import Testing
@_spi(TwinParts) import Twin

/// `--seams typed`, the typed in-process path, is a fast path behind a consistency check: every example and a
/// generated portfolio print and write the same bytes both ways, and the switch really changes the path.
@Suite("Typed seams", .serialized)
struct TypedSeamsTests {
    /// Runs `file` with `arguments` both ways and expects the same exit status, output and reports.
    func expectSameBothWays(_ file: String, _ arguments: [String], in dir: URL) async throws {
        let (bytes, typed) = (dir.appendingPathComponent("bytes").path, dir.appendingPathComponent("typed").path)
        let viaBytes = await RentalTwinCommand.main(["run", file, "--report", bytes, "--log"] + arguments)
        let viaTyped = await RentalTwinCommand.main(["run", file, "--report", typed, "--log", "--seams", "typed"] + arguments)
        #expect(viaBytes.exitCode == viaTyped.exitCode, "\(file)")
        #expect(PortfolioCommandTests.text(viaBytes, directory: bytes) == PortfolioCommandTests.text(viaTyped, directory: typed), "\(file)")
        let (left, right) = (try contents(of: URL(fileURLWithPath: bytes)), try contents(of: URL(fileURLWithPath: typed)))
        #expect(!left.isEmpty, "\(file)")
        #expect(left == right, "\(file)")
        try? FileManager.default.removeItem(atPath: bytes)
        try? FileManager.default.removeItem(atPath: typed)
    }

    @Test func everyExampleRunsTheSameBothWays() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try SuiteRunner.scenarioFiles(in: scenariosDirectory)
        #expect(files.count >= 39)
        for file in files { try await expectSameBothWays(file, [], in: dir) }
    }

    @Test func aGeneratedPortfolioRunsTheSameBothWaysInParts() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("portfolio.json").path
        try PortfolioGenerator.json(flats: 9, days: 21, seed: 36).write(toFile: file, atomically: true, encoding: .utf8)
        try await expectSameBothWays(file, ["--jobs", "2"], in: dir)
        try await expectSameBothWays(file, ["--jobs", "1"], in: dir)
    }

    @Test func theSwitchChangesThePath() async throws {
        let scenario = try ScenarioDecoder.load(path: scenariosDirectory + "/01-winter-weekend.json")
        let bytes = try await World.build(scenario)
        let typed = try await World.build(scenario, options: World.Options(seams: .typed))
        #expect(bytes.bookingAPI is OpenHABRESTClient)
        #expect(typed.bookingAPI is InProcessOpenHABAPI)
        await bytes.close()
        await typed.close()
    }

    @Test func aWrongValueIsAUsageError() async {
        let outcome = await RentalTwinCommand.main(["run", scenariosDirectory + "/01-winter-weekend.json", "--seams", "fast"])
        #expect(outcome.exitCode == .usage)
        #expect(outcome.standardError.contains("--seams is bytes or typed, not \"fast\""))
    }
}
