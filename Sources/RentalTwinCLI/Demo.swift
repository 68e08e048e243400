import ScenarioFormat
import Scenarios
import Twin

/// `rental-twin demo`: the built-in demo scenario (``BuiltInScenarios/demo(days:)``) through the
/// same decoder, world builder and runner as every scenario file; prints the run, its log and the
/// energy per device.
enum Demo {
    static func run(days: Int) async throws -> (text: String, passed: Bool) {
        let text = BuiltInScenarios.demo(days: days)
        let scenario = try ScenarioDecoder.decode(text, file: "built-in-demo.json")
        let result = try await ScenarioRunner.run(scenario)
        var out = ScenarioCommands.describe(RunSummary(result), path: "built-in demo", verbose: true)
        out += "Log (local time):\n"
        out += result.log.prefix(40).map { "  \($0)\n" }.joined()
        if result.log.count > 40 { out += "  … \(result.log.count - 40) more lines (rental-twin run FILE --log shows all)\n" }
        out += "Energy (exact):"
        for device in ["heating", "plug"] {
            out += " \(device) \(Figures.decimal(result.energyKWh(listing: "flat-1", device: device) ?? .nan, 3)) kWh"
        }
        out += "\nThe scenario as a file: rental-twin demo --print-scenario > demo.json\n"
        return (out, result.passed)
    }
}
