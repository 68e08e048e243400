import Foundation
import ScenarioFormat
import Scenarios

/// `rental-twin init --openhab DIR [--out FILE]`: a scenario for an openHAB configuration directory
/// (``ConfScenarioWriter``), checked by decoding it before it is reported written.
enum InitCommand {
    static func run(_ command: ArgumentParser.ParsedCommand) throws(ArgumentParser.UsageError) -> RentalTwinCommand.Outcome {
        guard let directory = command.value(.openhab) else {
            throw ArgumentParser.UsageError("init needs --openhab DIR, the openHAB configuration directory.", command: "init")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ArgumentParser.UsageError("--openhab \(directory) is not a directory.", command: "init")
        }
        var outcome = RentalTwinCommand.Outcome()
        let out = command.value(.scenarioOut)
        // The directory as the scenario names it: relative to the scenario file when it is written to one.
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        var written = absolute
        if let out {
            let base = URL(fileURLWithPath: out).standardizedFileURL.deletingLastPathComponent().path
            if absolute.hasPrefix(base + "/") { written = String(absolute.dropFirst(base.count + 1)) }
        }
        let result = ConfScenarioWriter.write(directory: directory, written: written)
        let report = result.report.map { "\(TerminalText.escaped($0))\n" }.joined()
        guard let out else {
            outcome.standardOutput = result.scenario
            outcome.standardError = report
            return outcome
        }
        guard FileManager.default.createFile(atPath: out, contents: Data(result.scenario.utf8)) else {
            outcome.standardError = "cannot write \(out).\n"
            outcome.exitCode = .ioError
            return outcome
        }
        outcome.standardOutput = report
        do {
            let scenario = try ScenarioDecoder.load(path: out)
            outcome.standardOutput += "wrote \(TerminalText.escaped(out)): \(scenario.listings.count) listing(s), "
                + "\(scenario.listings.reduce(0) { $0 + $1.devices.count }) device(s), \(scenario.itemBindings.count) binding(s); it validates\n"
        } catch {
            outcome.standardError += error.explanation + "\n"
            outcome.exitCode = .invalidInput
        }
        return outcome
    }
}
