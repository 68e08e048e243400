import Foundation
import JavaScript
import ScenarioFormat
import Scenarios

/// `rental-twin bench --js`: what JavaScript rules cost on the path users take — a scenario file with a `.js`
/// rule through the decoder, world builder and runner — and what starting the Node.js child and loading a
/// 20 kB script file costs.
enum JavaScriptBenchmark {
    static func run(days: Int) async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rental-twin-bench-js-\(getpid())").path
        try FileManager.default.createDirectory(atPath: "\(directory)/automation/js", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try rule.write(toFile: "\(directory)/automation/js/bench.js", atomically: true, encoding: .utf8)
        try scenario(days: days, rules: true).write(toFile: "\(directory)/with.json", atomically: true, encoding: .utf8)
        try scenario(days: days, rules: false).write(toFile: "\(directory)/without.json", atomically: true, encoding: .utf8)
        let with = try ScenarioDecoder.load(path: "\(directory)/with.json")
        let without = try ScenarioDecoder.load(path: "\(directory)/without.json")
        var lines = ["bench --js: a flat with \(days) day(s); one JavaScript rule every minute reads two Items and posts one update"]
        let (plain, plainWall) = try await timed(without)
        let (ran, jsWall) = try await timed(with)
        let perRun = ran.ruleRuns == 0 ? 0 : (jsWall - plainWall) / Double(ran.ruleRuns) * 1e6
        lines.append("  without the rule: wall \(Figures.decimal(plainWall, 3)) s, \(plain.kernelEvents) kernel events")
        lines.append("  with the rule: wall \(Figures.decimal(jsWall, 3)) s, \(ran.ruleRuns) rule runs, "
                     + "about \(Figures.decimal(perRun, 1)) µs of wall time per run (engine, child round trip, the update's bus events)")
        guard ran.passed else { throw JavaScriptError(.runtime, "the benchmark's expectation failed: \(ran.failures)") }

        // Start + init + load of a 20 kB script, then stop: the median of 9.
        let big = JSScriptFile(path: "automation/js/big.js", source: bigScript(bytes: 20_000))
        let setup = JSSetup(root: directory, conf: directory, zone: "Europe/Budapest", seed: 1, startMilliseconds: 1_767_913_200_000)
        var samples: [Double] = []
        let clock = ContinuousClock()  // wall-clock: measures the benchmark, never drives the simulation
        for _ in 0..<9 {
            let began = clock.now
            let results = try JavaScriptCollector.collect([big], setup: setup, items: [])
            samples.append(Benchmark.seconds(began.duration(to: clock.now)) * 1000)
            if let error = results.first?.error { throw error }
        }
        samples.sort()
        lines.append("  child start + load of a \(big.source.utf8.count)-byte script (\(try JavaScriptCollector.collect([big], setup: setup, items: []).first?.rules.count ?? 0) rules): "
                     + "median \(Figures.decimal(samples[4], 1)) ms (min \(Figures.decimal(samples[0], 1)), max \(Figures.decimal(samples[8], 1)))")
        lines.append("  node: \(try NodeExecutable.locate().path), Node.js \(try NodeExecutable.locate().majorVersion)")
        return lines.joined(separator: "\n") + "\n\n"
    }

    private static func timed(_ scenario: Scenario) async throws -> (ScenarioResult, Double) {
        let clock = ContinuousClock()  // wall-clock: measures the benchmark, never drives the simulation
        let began = clock.now
        let result = try await ScenarioRunner.run(scenario)
        return (result, Benchmark.seconds(began.duration(to: clock.now)))
    }

    static let rule = """
    const { items, rules, triggers } = require('openhab');
    rules.JSRule({
      name: 'Sum',
      triggers: [triggers.GenericCronTrigger('0 * * * * ?')],
      execute: () => items.Sum.postUpdate(items.A.numericState + items.B.numericState),
    });
    """

    static func scenario(days: Int, rules: Bool) -> String {
        let end = Calendar(identifier: .gregorian).date(byAdding: .day, value: days, to: Date(timeIntervalSince1970: 1_767_913_200)) ?? Date(timeIntervalSince1970: 1_767_913_200)
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
          "rules": [\(rules ? "\"automation/js/bench.js\"" : "")],
          "expect": [ { "item": "Sum", "state": "\(rules ? "3.5" : "0")" } ]
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
