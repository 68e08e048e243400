import Foundation
import ScenarioFormat
import Scenarios
import Twin

/// `rental-twin bench`: the built-in heated flat (``BuiltInScenarios/heatedFlat(days:)``) through
/// the same decoder, world builder and runner as every scenario file — three times: with nobody listening
/// to the event bus, and with one listener that receives every event (as a rule engine or an SSE
/// stream would), a third time with five rules loaded, a fourth with ten Rules DSL rules (compared with the
/// first pass), one simulated day with a trivial rule every second (the cost per run of the path around a run), a fifth
/// with the weather watcher, and a sixth with the watcher and typed seams; and the device path's cost per kernel event.
/// Prints events and speed for each, and the process's peak memory.
enum Benchmark {
    static func run(days: Int) async throws -> String {
        let scenario = try ScenarioDecoder.decode(BuiltInScenarios.heatedFlat(days: days), file: "built-in-bench.json")
        var lines = ["bench: \(scenario.name)"]
        var plainWall = 0.0, plainCPU = 0.0
        var plainResult: ScenarioResult?
        for observed in [false, true] {
            let (result, wall, cpu) = try await timed(scenario, options: World.Options(observesEveryBusEvent: observed))
            if !observed { plainWall = wall; plainCPU = cpu; plainResult = result }
            let energy = result.energyKWh(listing: "flat-1", device: "heating") ?? .nan
            lines.append(observed ? "with one listener receiving every bus event (\(result.observedBusEvents ?? 0) received):"
                                  : "with no bus listener:")
            lines.append("  heating energy \(Figures.decimal(energy, 3)) kWh")
            lines += figures(result, wall: wall, cpu: cpu)
        }
        // The same flat with five rules (one a cron every 5 minutes): what users' rules cost.
        let (withRules, rulesWall, rulesCPU) = try await timed(try BuiltInScenarios.heatedFlatWithRules(days: days))
        lines.append("with five rules (a cron every 5 minutes, two time-of-day, two on bus events):")
        lines += figures(withRules, wall: rulesWall, cpu: rulesCPU)
        // The same flat with ten Rules DSL rules on its own Items: what a run of users' DSL rules costs.
        let (withDSL, dslWall, dslCPU) = try await timed(try BuiltInScenarios.heatedFlatWithDSLRules(days: days))
        lines.append("with ten Rules DSL rules (Group members filtered, mapped, reduced and sorted, lambda values, switch, a timer):")
        lines += figures(withDSL, wall: dslWall, cpu: dslCPU)
        let perRun = withDSL.ruleRuns == 0 ? 0 : (dslWall - plainWall) / Double(withDSL.ruleRuns) * 1e6
        let perRunCPU = withDSL.ruleRuns == 0 ? 0 : (dslCPU - plainCPU) / Double(withDSL.ruleRuns) * 1e6
        lines.append("  \(withDSL.ruleRuns) rule runs, \(Figures.decimal(dslWall / max(plainWall, 1e-9), 1))× the flat without rules "
                     + "(\(Figures.decimal(plainWall, 3)) s), about \(Figures.decimal(perRun, 1)) µs of wall time per run "
                     + "(CPU: \(Figures.decimal(dslCPU / max(plainCPU, 1e-9), 1))×, \(Figures.decimal(perRunCPU, 1)) µs per run)")
        // One simulated day of the flat with a trivial rule every second (86,400 runs): the path around a run.
        let (plainDay, plainDayWall, plainDayCPU) = try await timed(try ScenarioDecoder.decode(BuiltInScenarios.heatedFlat(days: 1), file: "built-in-bench.json"))
        let (withTick, tickWall, tickCPU) = try await timed(try BuiltInScenarios.heatedFlatWithTrivialRule(days: 1))
        lines.append("one day with a trivial rule (a cron every second posting one update):")
        lines += figures(withTick, wall: tickWall, cpu: tickCPU)
        let perTick = withTick.ruleRuns == 0 ? 0 : (tickWall - plainDayWall) / Double(withTick.ruleRuns) * 1e6
        let perTickCPU = withTick.ruleRuns == 0 ? 0 : (tickCPU - plainDayCPU) / Double(withTick.ruleRuns) * 1e6
        lines.append("  \(withTick.ruleRuns) rule runs, about \(Figures.decimal(perTick, 2)) µs of wall time per run (\(Figures.decimal(perTickCPU, 2)) µs of CPU time)")
        let perEvent = plainWall / Double(max(plainResult?.kernelEvents ?? 0, 1)) * 1e6
        let perEventCPU = plainCPU / Double(max(plainResult?.kernelEvents ?? 0, 1)) * 1e6
        lines.append("device path: about \(Figures.decimal(perEvent, 2)) µs of wall time per kernel event (\(Figures.decimal(perEventCPU, 2)) µs of CPU time; "
                     + "the flat without rules, \(plainResult?.kernelEvents ?? 0) events; one day: \(plainDay.kernelEvents))")
        // The same flat with the weather watcher (`bench --print-scenario` plus its `automations`), run as
        // `rental-twin run` runs a file: every hour the feed's request and answer and the switch Item's read.
        let watched = try ScenarioDecoder.decode(BuiltInScenarios.heatedFlat(days: days, watched: true), file: "built-in-bench.json")
        let (watchedResult, watchedWall, watchedCPU) = try await timed(watched)
        lines.append("with the weather watcher (hourly: the feed's current weather, the switch Item read, heating ON below 15 °C):")
        lines += figures(watchedResult, wall: watchedWall, cpu: watchedCPU)
        // The same, with typed seams (`run --seams typed`): no REST or OpenWeatherMap bytes, the same run.
        let (typedResult, typedWall, typedCPU) = try await timed(watched, options: World.Options(seams: .typed))
        lines.append("with the weather watcher and typed seams (the same run without REST and OpenWeatherMap bytes):")
        lines += figures(typedResult, wall: typedWall, cpu: typedCPU)
        lines.append("peak memory (VmHWM) \(PortfolioBenchmark.peakMemoryMB().map { "\($0) MB" } ?? "unknown")")
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// Runs `scenario` and measures its wall time and the process's CPU time (user and system) meanwhile:
    /// on a machine busy with other work the CPU time still says what the run cost.
    private static func timed(_ scenario: Scenario, options: World.Options = World.Options()) async throws -> (ScenarioResult, Double, Double) {
        let clock = ContinuousClock()  // wall-clock: measures the benchmark, never drives the simulation
        let began = clock.now, cpuBefore = cpuSeconds()
        let result = try await ScenarioRunner.run(scenario, options: options)
        return (result, seconds(began.duration(to: clock.now)), cpuSeconds() - cpuBefore)
    }

    /// The CPU time (user and system) this process has used so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// A pass's events, wall and CPU time and speed.
    private static func figures(_ result: ScenarioResult, wall: Double, cpu: Double) -> [String] {
        ["  kernel events \(result.kernelEvents), bus events \(result.busEvents), wall \(Figures.decimal(wall, 3)) s, CPU \(Figures.decimal(cpu, 3)) s",
         "  \(Int(result.simulatedSeconds / max(wall, 1e-9))) simulated s per wall s, "
            + "\(Int(Double(result.kernelEvents) / max(wall, 1e-9))) kernel events/s"]
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
