import Scenarios

/// `rental-twin bench`: the built-in heated flat (``BuiltInScenarios/heatedFlat(days:)``) through
/// the same decoder, world builder and runner as every scenario file — three times: with nobody listening
/// to the event bus, and with one listener that receives every event (as a rule engine or an SSE
/// stream would) — and a third time with five rules loaded. Prints events and speed for each.
enum Benchmark {
    static func run(days: Int) async throws -> String {
        let scenario = try ScenarioDecoder.decode(BuiltInScenarios.heatedFlat(days: days), file: "built-in-bench.json")
        var lines = ["bench: \(scenario.name)"]
        for observed in [false, true] {
            let clock = ContinuousClock()  // wall-clock: measures the benchmark, never drives the simulation
            let began = clock.now
            let result = try await ScenarioRunner.run(scenario, options: World.Options(observesEveryBusEvent: observed))
            let wall = seconds(began.duration(to: clock.now))
            let energy = result.energyKWh(listing: "flat-1", device: "heating") ?? .nan
            lines.append(observed ? "with one listener receiving every bus event (\(result.observedBusEvents ?? 0) received):"
                                  : "with no bus listener:")
            lines.append("  heating energy \(Figures.decimal(energy, 3)) kWh")
            lines.append("  kernel events \(result.kernelEvents), bus events \(result.busEvents), wall \(Figures.decimal(wall, 3)) s")
            lines.append("  \(Int(result.simulatedSeconds / max(wall, 1e-9))) simulated s per wall s, "
                         + "\(Int(Double(result.kernelEvents) / max(wall, 1e-9))) kernel events/s")
        }
        // The same flat with five rules (one a cron every 5 minutes): what users' rules cost.
        let withRules = try BuiltInScenarios.heatedFlatWithRules(days: days)
        let clock = ContinuousClock()  // wall-clock: measures the benchmark, never drives the simulation
        let began = clock.now
        let result = try await ScenarioRunner.run(withRules)
        let wall = seconds(began.duration(to: clock.now))
        lines.append("with five rules (a cron every 5 minutes, two time-of-day, two on bus events):")
        lines.append("  kernel events \(result.kernelEvents), bus events \(result.busEvents), wall \(Figures.decimal(wall, 3)) s")
        lines.append("  \(Int(result.simulatedSeconds / max(wall, 1e-9))) simulated s per wall s, "
                     + "\(Int(Double(result.kernelEvents) / max(wall, 1e-9))) kernel events/s")
        return lines.joined(separator: "\n") + "\n\n"
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
