/// Dispatches a parsed command line and returns what to print and the exit status.
///
/// Kept free of global state and of `print` so tests can run it and compare the text a user sees.
struct RentalTwinCommand {
    /// What a run printed, and how it ended.
    struct Outcome: Equatable {
        var standardOutput = ""
        var standardError = ""
        var exitCode: ExitCode = .success
    }

    /// Runs the command line `arguments` (without the program name).
    @concurrent
    static func main(_ arguments: [String], progress: ScenarioCommands.Progress? = nil) async -> Outcome {
        var outcome = Outcome()
        let invocation: ArgumentParser.Invocation
        do {
            invocation = try ArgumentParser.parse(arguments)
        } catch {
            outcome.standardError = "error: \(error.message)\n"
            if let command = error.command { outcome.standardError += "usage: see rental-twin help \(command)\n" }
            outcome.exitCode = .usage
            return outcome
        }
        switch invocation {
        case .help(nil):
            outcome.standardOutput = HelpText.overview + "\n"
        case .help(let name?):
            if let spec = CommandSpec.named(name) { outcome.standardOutput = HelpText.help(for: spec) + "\n" }
        case .command(let command):
            do {
                switch command.name {
                case "run": return try await ScenarioCommands.run(command)
                case "suite": return try await ScenarioCommands.suite(command, progress: progress)
                case "validate": return ScenarioCommands.validate(command)
                case "fuzz": return try await FuzzCommand.run(command)
                default: break
                }
                let days = try command.integer("--days", default: command.name == "bench" ? 365 : 2)
                guard (1...3_660).contains(days) else {
                    throw ArgumentParser.UsageError("--days must be between 1 and 3660, not \(days).", command: command.name)
                }
                let flats = try command.integer("--flats", default: 0)
                guard (0...10_000).contains(flats) else {
                    throw ArgumentParser.UsageError("--flats must be between 1 and 10000, not \(flats).", command: command.name)
                }
                if command.name == "bench" {
                    outcome.standardOutput = flats > 0 ? try await PortfolioBenchmark.run(flats: flats, days: days)
                        : try await Benchmark.run(days: days)
                } else {
                    outcome.standardOutput = try await Demo.run(days: days)
                }
            } catch let error as ArgumentParser.UsageError {
                outcome.standardError = "error: \(error.message)\n"
                outcome.exitCode = .usage
            } catch {
                outcome.standardError = "error: \(error)\n"
                outcome.exitCode = .failure
            }
        }
        return outcome
    }
}
