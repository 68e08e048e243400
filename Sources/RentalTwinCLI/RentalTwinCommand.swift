import ScenarioFormat
import Scenarios
import Twin

/// Dispatches a parsed command line and returns what to print and the exit status.
///
/// Kept free of global state and of `print` so tests can run it and compare the text a user sees.
struct RentalTwinCommand {
    /// What a run printed, and how it ended.
    struct Outcome: Equatable {
        var standardOutput = ""
        var standardError = ""
        var exitCode: ExitCode = .success
        /// Whether an interrupt is the command's normal end (`serve`): its own exit status stands.
        var endsOnInterrupt = false
    }

    /// Runs the command line `arguments` (without the program name).
    @concurrent
    static func main(_ arguments: [String], progress: ScenarioCommands.Progress? = nil,
                     runProgress: ScenarioRunner.Progress? = nil) async -> Outcome {
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
                switch command.command {
                case .run: return try await ScenarioCommands.run(command, progress: runProgress)
                case .suite: return try await ScenarioCommands.suite(command, progress: progress)
                case .validate: return ScenarioCommands.validate(command)
                case .serve: return try await ServeCommand.run(command)
                case .demo: return try await BuiltInCommands.demo(command)
                case .bench: return try await BuiltInCommands.bench(command)
                case .fuzz: return try await FuzzCommand.run(command)
                case .merge: return try MergeCommand.run(command)
                case .`init`: return try InitCommand.run(command)
                }
            } catch {
                outcome.standardError = "error: \(error.message)\n"
                outcome.exitCode = .usage
            }
        }
        return outcome
    }
}
