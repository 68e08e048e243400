import Foundation
import JavaScript
import ScenarioFormat
import Scenarios

/// `rental-twin bench --js`: what JavaScript rules cost on the path users take — a scenario file with a `.js`
/// rule through the decoder, world builder and runner — what starting the Node.js child and loading a
/// 20 kB script file costs (alone, and as a scenario decoded and started: validation's child runs the world),
/// and a flat-year with ten JavaScript rules on the flat's own Items (the same rules as `bench`'s ten Rules DSL
/// rules, written as openhab-js files are).
enum JavaScriptBenchmark {
    static func run(days: Int) async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rental-twin-bench-js-\(getpid())").path
        try FileManager.default.createDirectory(atPath: "\(directory)/automation/js", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try rule.write(toFile: "\(directory)/automation/js/bench.js", atomically: true, encoding: .utf8)
        try scenario(days: days, rulesFile: "automation/js/bench.js").write(toFile: "\(directory)/with.json", atomically: true, encoding: .utf8)
        try scenario(days: days, rulesFile: nil).write(toFile: "\(directory)/without.json", atomically: true, encoding: .utf8)
        let with = try ScenarioDecoder.load(path: "\(directory)/with.json")
        let without = try ScenarioDecoder.load(path: "\(directory)/without.json")
        var lines = ["bench --js: a flat with \(days) day(s); one JavaScript rule every minute reads two Items and posts one update"]
        let (plain, plainWall, plainCPU) = try await timed(without)
        let (ran, jsWall, jsCPU) = try await timed(with)
        let perRun = ran.ruleRuns == 0 ? 0 : (jsWall - plainWall) / Double(ran.ruleRuns) * 1e6
        let cpuPerRun = ran.ruleRuns == 0 ? 0 : (jsCPU - plainCPU) / Double(ran.ruleRuns) * 1e6
        lines.append("  without the rule: wall \(Figures.decimal(plainWall, 3)) s, \(plain.kernelEvents) kernel events")
        lines.append("  with the rule: wall \(Figures.decimal(jsWall, 3)) s, \(ran.ruleRuns) rule runs, "
                     + "about \(Figures.decimal(perRun, 1)) µs of wall time per run (engine, child round trip, the update's bus events); "
                     + "\(Figures.decimal(cpuPerRun, 1)) µs of CPU time (the twin's and the child's)")
        guard ran.passed else { throw JavaScriptError(.runtime, "the benchmark's expectation failed: \(ran.failures)") }

        // Start + init + load of a 20 kB script, then stop: the median of 9 (wall and CPU time, the child's included).
        let big = JSScriptFile(path: "automation/js/big.js", source: bigScript(bytes: 20_000))
        let setup = JSSetup(root: directory, conf: directory, zone: "Europe/Budapest", seed: 1, startMilliseconds: 1_767_913_200_000)
        var samples: [(wall: Double, cpu: Double)] = []
        var registered = 0
        let clock = ContinuousClock()  // wall-clock: measures the benchmark, never drives the simulation
        for _ in 0..<9 {
            let began = clock.now, cpuBefore = cpuSeconds()
            let results = try JavaScriptCollector.collect([big], setup: setup, items: [])
            samples.append((Benchmark.seconds(began.duration(to: clock.now)) * 1000, (cpuSeconds() - cpuBefore) * 1000))
            if let error = results.first?.error { throw error }
            registered = results.first?.rules.count ?? 0
        }
        lines.append("  child start + load of a \(big.source.utf8.count)-byte script (\(registered) rules): " + medians(samples))

        // The path a user takes with that file: a scenario decoded (its files validated in a child) and run for an hour
        // (the world's start re-initialises the child validation kept, and loads the file again).
        try big.source.write(toFile: "\(directory)/automation/js/big.js", atomically: true, encoding: .utf8)
        try scenario(days: 0, rulesFile: "automation/js/big.js").write(toFile: "\(directory)/big.json", atomically: true, encoding: .utf8)
        var scenarioSamples: [(wall: Double, cpu: Double)] = []
        for _ in 0..<5 {
            let began = clock.now, cpuBefore = cpuSeconds()
            let result = try await ScenarioRunner.run(try ScenarioDecoder.load(path: "\(directory)/big.json"))
            scenarioSamples.append((Benchmark.seconds(began.duration(to: clock.now)) * 1000, (cpuSeconds() - cpuBefore) * 1000))
            guard result.passed else { throw JavaScriptError(.runtime, "the start benchmark's expectation failed: \(result.failures)") }
        }
        lines.append("  a scenario with that script decoded (validated in a child) and run for an hour (the same child): " + medians(scenarioSamples))

        // The built-in heated flat for a year, without rules and with ten JavaScript rules on its own Items.
        let yearFile = "\(directory)/flat-year.json", tenFile = "\(directory)/flat-year-ten-js.json"
        try BuiltInScenarios.heatedFlat(days: 365).write(toFile: yearFile, atomically: true, encoding: .utf8)
        try tenRulesScenario(days: 365).write(toFile: tenFile, atomically: true, encoding: .utf8)
        try tenRules.write(toFile: "\(directory)/automation/js/bench-ten.js", atomically: true, encoding: .utf8)
        let (_, yearWall, yearCPU) = try await timed(try ScenarioDecoder.load(path: yearFile))
        let (ten, tenWall, tenCPU) = try await timed(try ScenarioDecoder.load(path: tenFile))
        guard ten.passed else { throw JavaScriptError(.runtime, "the ten-rule year's expectation failed: \(ten.failures)") }
        let perTenRun = ten.ruleRuns == 0 ? 0 : (tenWall - yearWall) / Double(ten.ruleRuns) * 1e6
        let cpuPerTenRun = ten.ruleRuns == 0 ? 0 : (tenCPU - yearCPU) / Double(ten.ruleRuns) * 1e6
        lines.append("  a flat-year with ten JavaScript rules on its own Items (bench's ten DSL rules as openhab-js): wall \(Figures.decimal(tenWall, 3)) s, "
                     + "\(ten.ruleRuns) rule runs, \(ten.kernelEvents) kernel events; about \(Figures.decimal(perTenRun, 1)) µs of wall time "
                     + "and \(Figures.decimal(cpuPerTenRun, 1)) µs of CPU time per run over the year without rules (\(Figures.decimal(yearWall, 3)) s)")
        lines.append("  node: \(try NodeExecutable.locate().path), Node.js \(try NodeExecutable.locate().majorVersion)")
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// Ten rules on the heated flat's own Items, the same as `bench`'s ten Rules DSL rules (``BuiltInScenarios``'
    /// `benchDSLRules`), written as openhab-js files are: Group members filtered, mapped, reduced and sorted,
    /// helper functions, a timer, a Map kept across runs.
    static let tenRules = """
    // bench --js: ten rules on the flat's own Items
    const { items, rules, triggers, actions, time } = require('openhab');
    const logger = log('bench');
    const isCold = (t) => t < 19;
    const clamp = (v, hi) => (v > hi ? hi : v);
    const changes = new Map();
    let heaterTimer = null;
    const numbers = (group) => items.getItem(group).members.filter((m) => m.numericState !== null);

    rules.JSRule({
      name: 'room sensors',
      triggers: [triggers.GenericCronTrigger('0 0/15 * * * ?')],
      execute: () => {
        const base = items.flat_1_heating_temperature.numericState;
        items.gRooms.members.forEach((r, i) => r.postUpdate(base - 0.5 * (i + 1)));
      },
    });

    rules.JSRule({
      name: 'average temperature',
      triggers: [triggers.GroupStateChangeTrigger('gTemps')],
      execute: (event) => {
        const nums = numbers('gTemps').map((m) => m.numericState);
        if (nums.length > 0) items.AvgTemp.postUpdate(nums.reduce((a, b) => a + b) / nums.length);
        changes.set(event.itemName, (changes.get(event.itemName) || 0) + 1);
      },
    });

    rules.JSRule({
      name: 'cold rooms',
      triggers: [triggers.GroupStateChangeTrigger('gTemps')],
      execute: () => {
        const cold = numbers('gTemps').filter((t) => isCold(t.numericState)).map((t) => t.name).sort();
        items.ColdRooms.postUpdate(cold.length === 0 ? 'none' : cold.join(', '));
      },
    });

    rules.JSRule({
      name: 'power total',
      triggers: [triggers.GroupStateChangeTrigger('gPower')],
      execute: () => {
        let total = 0.0;
        for (const p of numbers('gPower')) total += p.numericState;
        items.TotalPower.postUpdate(total);
      },
    });

    rules.JSRule({
      name: 'power scene',
      triggers: [triggers.ItemStateChangeTrigger('TotalPower')],
      execute: () => {
        const w = items.TotalPower.numericState;
        const scene = w < 1 ? 'IDLE' : w < 1000 ? 'LOW' : 'HIGH';
        if (items.Scene.state !== scene) items.Scene.postUpdate(scene);
      },
    });

    rules.JSRule({
      name: 'heater on long',
      triggers: [triggers.ItemStateChangeTrigger('flat_1_heating_switch')],
      execute: (event) => {
        if (heaterTimer !== null) heaterTimer.cancel();
        if (event.newState === 'ON') {
          heaterTimer = actions.ScriptExecution.createTimer(time.toZDT().plusMinutes(90), () => {
            if (items.flat_1_heating_switch.state === 'ON') items.HeaterLong.postUpdate(`on since ${time.toZDT().minusMinutes(90).toLocalTime()}`);
          });
        }
      },
    });

    rules.JSRule({
      name: 'hourly',
      triggers: [triggers.GenericCronTrigger('0 0 * * * ?')],
      execute: () => items.Hot.postUpdate(numbers('gTemps').filter((t) => t.numericState > 21).length),
    });

    rules.JSRule({
      name: 'warmest',
      triggers: [triggers.GenericCronTrigger('0 0/15 * * * ?')],
      execute: () => {
        const top = numbers('gTemps').sort((a, b) => b.numericState - a.numericState).slice(0, 2).map((t) => t.name);
        items.Top.postUpdate(top.join(','));
      },
    });

    rules.JSRule({
      name: 'setpoint clamp',
      triggers: [triggers.ItemStateChangeTrigger('flat_1_heating_setpoint')],
      execute: () => {
        const s = items.flat_1_heating_setpoint.numericState;
        const v = clamp(s, 23);
        if (v !== s) logger.info('setpoint {} above 23', v);
      },
    });

    rules.JSRule({
      name: 'daily stats',
      triggers: [triggers.GenericCronTrigger('0 0 0 * * ?')],
      execute: () => {
        let total = 0;
        for (const n of changes.values()) total += n;
        logger.debug('changes {}', total);
      },
    });

    """

    /// The built-in heated flat for `days` days with ``tenRules`` (read from `automation/js/bench-ten.js`) and the
    /// Groups and Items they use (those of `bench`'s ten DSL rules); its expectation is the flat's own (the heater's energy).
    static func tenRulesScenario(days: Int) -> String {
        let items = BuiltInScenarios.benchTenRuleItems
        return BuiltInScenarios.heatedFlat(days: days, extraMembers: "\n  \"items\": \(items),\n  \"rules\": [\"automation/js/bench-ten.js\"],")
    }

    /// Runs `scenario`: its result, wall time and CPU time (s), the CPU time of this process and of the children
    /// it reaped meanwhile (the run's Node.js child is reaped when its world closes) — a figure a busy machine
    /// disturbs less than the wall time.
    private static func timed(_ scenario: Scenario) async throws -> (ScenarioResult, Double, Double) {
        let clock = ContinuousClock()  // wall-clock: measures the benchmark, never drives the simulation
        let began = clock.now, cpuBefore = cpuSeconds()
        let result = try await ScenarioRunner.run(scenario)
        return (result, Benchmark.seconds(began.duration(to: clock.now)), cpuSeconds() - cpuBefore)
    }

    /// `median W ms (min, max), CPU C ms` of samples in ms.
    private static func medians(_ samples: [(wall: Double, cpu: Double)]) -> String {
        let walls = samples.map(\.wall).sorted(), cpus = samples.map(\.cpu).sorted()
        let middle = walls.count / 2
        return "median \(Figures.decimal(walls[middle], 1)) ms wall (min \(Figures.decimal(walls[0], 1)), max \(Figures.decimal(walls[walls.count - 1], 1))), "
            + "\(Figures.decimal(cpus[middle], 1)) ms of CPU time (the twin's and the child's)"
    }

    /// User and system CPU time of this process and its reaped children, s.
    private static func cpuSeconds() -> Double {
        var total = 0.0
        for who in [RUSAGE_SELF, RUSAGE_CHILDREN].map({ Int32(truncatingIfNeeded: $0.rawValue) }) {
            var usage = rusage()
            guard getrusage(who, &usage) == 0 else { continue }
            for time in [usage.ru_utime, usage.ru_stime] { total += Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        }
        return total
    }

    static let rule = """
    const { items, rules, triggers } = require('openhab');
    rules.JSRule({
      name: 'Sum',
      triggers: [triggers.GenericCronTrigger('0 * * * * ?')],
      execute: () => items.Sum.postUpdate(items.A.numericState + items.B.numericState),
    });
    """

    /// The flat for `days` days (an hour for 0) with `rulesFile` as its rules (`nil`: none); with ``rule``
    /// (`automation/js/bench.js`) its expectation is the rule's sum, else the Item's initial state.
    static func scenario(days: Int, rulesFile: String?) -> String {
        let start = Date(timeIntervalSince1970: 1_767_913_200)
        let end = days == 0 ? start.addingTimeInterval(3600) : Calendar(identifier: .gregorian).date(byAdding: .day, value: days, to: start) ?? start
        let sums = rulesFile == "automation/js/bench.js"
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "Europe/Budapest")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return """
        {
          "version": 1, "name": "bench --js", "seed": 1, "timeZone": "Europe/Budapest",
          "start": "2026-01-09T00:00", "end": "\(formatter.string(from: end))",
          "weather": { "Budapest": { "constantC": 2 } },
          "users": [ { "id": "host", "name": "Hanna Host" } ],
          "listings": [ { "id": "flat-1", "owner": "host", "name": "Flat", "city": "Budapest", "country": "Hungary", "capacity": 2,
            "thermal": { "uaWPerK": 80, "capacitanceKWhPerK": 2.3, "initialC": 20 },
            "devices": [ { "id": "heating", "type": "heating", "powerW": 2000, "setpointC": 21 } ] } ],
          "items": [ { "name": "A", "type": "Number", "state": "1.5" }, { "name": "B", "type": "Number", "state": "2" },
                     { "name": "Sum", "type": "Number", "state": "0" } ],
          "rules": [\(rulesFile.map { "\"\($0)\"" } ?? "")],
          "expect": [ { "item": "Sum", "state": "\(sums ? "3.5" : "0")" } ]
        }
        """
    }

    /// A script file of about `bytes` bytes in the style of real ones: helpers and many rules.
    static func bigScript(bytes: Int) -> String {
        var text = "const { items, rules, triggers, time, actions, cache } = require('openhab');\nconst logger = log('big');\n"
        var n = 0
        while text.utf8.count < bytes {
            n += 1
            text += """
            // Rule \(n): a time-of-day rule with a helper, as generated Blockly code often looks.
            function helper\(n) (value) {
              const now = time.ZonedDateTime.now();
              const label = `value ${value} at ${now.toLocalTime()}`;
              return { label, doubled: value * 2, weekend: now.dayOfWeek().value() >= 6 };
            }
            rules.JSRule({
              name: 'Generated rule \(n)',
              description: 'Runs at \(n % 24):\(n % 60 < 10 ? "0" : "")\(n % 60) and logs a helper result',
              triggers: [triggers.TimeOfDayTrigger('\(n % 24 < 10 ? "0" : "")\(n % 24):\(n % 60 < 10 ? "0" : "")\(n % 60)')],
              execute: () => {
                const { label, doubled } = helper\(n)(\(n));
                logger.info('{} {}', label, doubled);
              },
            });

            """
        }
        return text
    }
}
