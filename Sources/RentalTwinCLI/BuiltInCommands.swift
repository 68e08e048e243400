import ScenarioFormat
import Scenarios
import Twin

/// `demo` and `bench`: the built-in scenarios, run (or printed with `--print-scenario`).
enum BuiltInCommands {
    static func demo(_ command: ArgumentParser.ParsedCommand) async throws(ArgumentParser.UsageError) -> RentalTwinCommand.Outcome {
        let days = try daysOption(command, default: 2)
        if command.has(.printScenario) { return RentalTwinCommand.Outcome(standardOutput: BuiltInScenarios.demo(days: days)) }
        var passed = true
        var result = await outcome(of: command) {
            let run = try await Demo.run(days: days)
            passed = run.passed
            return run.text
        }
        if !passed { result.exitCode = .failure }
        return result
    }

    static func bench(_ command: ArgumentParser.ParsedCommand) async throws(ArgumentParser.UsageError) -> RentalTwinCommand.Outcome {
        let days = try daysOption(command, default: 365)
        let flats = try command.integer(.flats, default: 0)
        if command.value(.flats) != nil, !(1...10_000).contains(flats) {
            throw ArgumentParser.UsageError("--flats must be between 1 and 10000, not \(flats).", command: command.name)
        }
        if command.has(.printScenario) {
            let text = flats > 0 ? PortfolioGenerator.json(flats: flats, days: days, occupancy: 0.7, seed: 1) : BuiltInScenarios.heatedFlat(days: days)
            return RentalTwinCommand.Outcome(standardOutput: text)
        }
        let reportDir = command.value(.report)
        if reportDir != nil, flats == 0 {
            throw ArgumentParser.UsageError("--report needs --flats: it measures the reports of the generated portfolio.", command: command.name)
        }
        try ScenarioCommands.refuseNonDirectory(reportDir, option: "--report", command: command.name)
        if command.has(.javaScript) {
            return await outcome(of: command) { try await JavaScriptBenchmark.run(days: days) }
        }
        return await outcome(of: command) {
            flats > 0 ? try await PortfolioBenchmark.run(flats: flats, days: days, reportDirectory: reportDir) : try await Benchmark.run(days: days)
        }
    }

    private static func daysOption(_ command: ArgumentParser.ParsedCommand, default fallback: Int) throws(ArgumentParser.UsageError) -> Int {
        let days = try command.integer(.days, default: fallback)
        guard (1...3_660).contains(days) else {
            throw ArgumentParser.UsageError("--days must be between 1 and 3660, not \(days).", command: command.name)
        }
        return days
    }

    /// The text of `body`, or its error with exit 1 (a built-in scenario that cannot run is a bug).
    private static func outcome(of command: ArgumentParser.ParsedCommand, _ body: () async throws -> String) async -> RentalTwinCommand.Outcome {
        do {
            return RentalTwinCommand.Outcome(standardOutput: try await body())
        } catch {
            return RentalTwinCommand.Outcome(standardError: "error: \(command.name): \(error)\n", exitCode: .failure)
        }
    }
}
