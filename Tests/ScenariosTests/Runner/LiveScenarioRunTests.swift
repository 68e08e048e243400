import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Testing
@_spi(TwinParts) import Twin

/// A live run (manual clock) moved to the end must find what a run to the end finds.
@Suite("Live scenario run")
struct LiveScenarioRunTests {
    private static func example(_ name: String) throws -> Scenario {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return try ScenarioDecoder.load(path: root.appendingPathComponent("Scenarios/\(name)").path)
    }

    @Test(arguments: ["07-device-offline-mid-stay.json", "08-weather-feed-outage.json", "11-plug-left-on.json"])
    func aManualRunAdvancedToTheEndFindsWhatARunToTheEndFinds(file: String) async throws {
        let scenario = try Self.example(file)
        let batch = try await ScenarioRunner.run(scenario)
        let live = try await LiveScenarioRun.prepare(scenario)
        let kernel = live.world.kernel
        let (before, middle, after) = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await live.run(.manual) }
            let before = await kernel.submit { await live.resultSoFar() }
            let half = scenario.start + .milliseconds((scenario.end - scenario.start).milliseconds / 2)
            try await kernel.advance(to: half)
            let middle = await kernel.submit { await live.resultSoFar() }
            try await kernel.advance(to: scenario.end)
            let after = await kernel.submit { await live.resultSoFar() }
            live.stop()
            try await group.waitForAll()
            return (before, middle, after)
        }
        #expect(before.pending.count == scenario.expectations.count && before.verdict == "pending" && !before.endReached)
        #expect(middle.result.expectationsChecked + middle.pending.count == scenario.expectations.count)
        #expect(middle.pending.allSatisfy { ($0.at ?? scenario.end) >= middle.now })
        #expect(after.endReached && after.pending.isEmpty)
        #expect(after.result.failures == batch.failures)
        #expect(after.result.stepsRun == batch.stepsRun && after.result.expectationsChecked == batch.expectationsChecked)
        #expect(after.result.log == batch.log)
        #expect(after.verdict == (batch.passed ? "pass" : "fail"))
    }
}
