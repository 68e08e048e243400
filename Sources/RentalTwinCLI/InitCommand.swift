import Foundation
import ScenarioFormat
import Scenarios

/// `init --openhab DIR [--out FILE]`: a scenario that loads an openHAB configuration directory as it is
/// (``ConfScenarioInit``); what was mapped goes to stderr, the scenario to FILE or stdout.
enum InitCommand {
    static func run(_ command: ArgumentParser.ParsedCommand) throws(ArgumentParser.UsageError) -> RentalTwinCommand.Outcome {
        var outcome = RentalTwinCommand.Outcome()
        guard let directory = command.value(.openhab) else {
            throw ArgumentParser.UsageError("init needs --openhab DIR, openHAB's configuration directory.", command: "init")
        }
        let out = command.value(.outFile)
        if let out, OutputFiles.kind(of: out) != nil {
            outcome.standardError = "error: \(out) exists; init does not overwrite a file. Give another --out, or move it away.\n"
            outcome.exitCode = .ioError
            return outcome
        }
        let result: ConfScenarioInit.Result
        do { result = try ConfScenarioInit.make(directory: directory, scenarioPath: out ?? "scenario.json") } catch {
            throw ArgumentParser.UsageError(error.description, command: "init")
        }
        outcome.standardError = result.notes.map { "init: \($0)\n" }.joined()
        guard let out else {
            outcome.standardOutput = result.scenario
            return outcome
        }
        do { try OutputFiles.write([(path: out, text: result.scenario)]) } catch {
            outcome.standardError += error.explanation + "\n"
            outcome.exitCode = .ioError
            return outcome
        }
        // What init promises: the file validates as written.
        do {
            let scenario = try ScenarioDecoder.load(path: out)
            outcome.standardError += "init: wrote \(TerminalText.escaped(out)): \(scenario.listings.count) listing(s), "
                + "\(scenario.listings.reduce(0) { $0 + $1.devices.count }) device(s), \(scenario.itemBindings.count) binding(s); "
                + "it validates; run it with rental-twin run \(TerminalText.escaped(out)) --log\n"
        } catch {
            outcome.standardError += error.explanation + "\n"
            outcome.exitCode = .invalidInput
        }
        return outcome
    }
}
