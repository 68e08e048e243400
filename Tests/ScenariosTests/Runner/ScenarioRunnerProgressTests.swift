@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Synchronization
import Testing
import Twin

/// The minimal scenario lasting `days` days.
func minimalScenario(days: Int) throws -> Scenario {
    let end = try #require(CivilDate(year: 2026, month: 1, day: 9)).adding(days: days)
    return try ScenarioDecoder.decode(minimalScenario.replacingOccurrences(of: "\"end\": \"2026-01-10T00:00\"", with: "\"end\": \"\(end)T00:00\""),
                                      file: "test.json")
}

@Suite("Run progress and cancellation")
struct ScenarioRunnerProgressTests {
    @Test func aRunReportsEachSimulatedDay() async throws {
        let scenario = try minimalScenario(days: 3)
        let seen = Mutex<[String]>([])
        _ = try await ScenarioRunner.run(scenario, options: World.Options(progress: { fraction, reached in
            seen.withLock { $0.append("\(Int((fraction * 100).rounded())) \(reached)") }
        }))
        #expect(seen.withLock { $0 } == ["33 2026-01-10T00:00", "67 2026-01-11T00:00", "100 2026-01-12T00:00"])
    }

    @Test func aCancelledRunEndsWithoutAResult() async throws {
        let scenario = try minimalScenario(days: 30)
        let task = Task { try await ScenarioRunner.run(scenario) }
        task.cancel()
        let error = await #expect(throws: ScenarioError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        #expect(error?.message.contains("was interrupted") == true)
    }
}
