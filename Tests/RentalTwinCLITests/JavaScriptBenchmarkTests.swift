import Foundation
@testable import RentalTwinCLI
import ScenarioFormat
import Scenarios
import Testing

/// `bench --js`'s ten-rule flat is `bench`'s ten Rules DSL rules written as openhab-js: the same rules run at the
/// same moments, and none fails.
@Suite("JavaScript benchmark")
struct JavaScriptBenchmarkTests {
    @Test func theTenJavaScriptRulesRunWhereTheTenDSLRulesRun() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-ten-js-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(directory)/automation/js", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try JavaScriptBenchmark.tenRules.write(toFile: "\(directory)/automation/js/bench-ten.js", atomically: true, encoding: .utf8)
        try JavaScriptBenchmark.tenRulesScenario(days: 2).write(toFile: "\(directory)/ten.json", atomically: true, encoding: .utf8)
        let js = try await ScenarioRunner.run(try ScenarioDecoder.load(path: "\(directory)/ten.json"))
        let dsl = try await ScenarioRunner.run(try BuiltInScenarios.heatedFlatWithDSLRules(days: 2))
        #expect(js.passed && dsl.passed)
        #expect(js.ruleRuns == dsl.ruleRuns && js.ruleRuns > 1_000, "JavaScript \(js.ruleRuns) runs, DSL \(dsl.ruleRuns)")
        let moments = { (result: ScenarioResult) in result.ruleRunRecords.map { "\($0.at.unixMilliseconds) \($0.ruleName)" } }
        #expect(moments(js) == moments(dsl))
        let failed = js.ruleRunRecords.flatMap(\.effects).filter { $0.hasPrefix("error") }
        #expect(failed.isEmpty, "\(failed.prefix(3))")
    }
}
