import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Testing
import Twin

/// A scenario with rule files, written to a fresh directory: the minimal flat (heating, door lock) with
/// `items`, `rules` and the given timeline and expectations.
struct RuleScenario {
    var items = "[]"
    /// Rule files by path (`*.script` files are written but not listed as rules: give them in `extra`).
    var files: [String: String] = [:]
    var timeline = ""
    var expect = ""
    var end = "2026-01-10T00:00"
    /// Further top-level members, JSON text without braces (`"persistence": {…}`), or empty.
    var extra = ""

    func text() -> String {
        // Transformation files (.map, .scale) and scripts (.script) are side files, not rule files.
        let rules = files.keys.sorted().filter { !$0.hasSuffix(".map") && !$0.hasSuffix(".scale") && !$0.hasSuffix(".script") }
            .map { "\"\($0)\"" }.joined(separator: ", ")
        return """
        {
          "version": 1, "name": "Rules", "seed": 1, "timeZone": "Europe/Budapest",
          "start": "2026-01-09T00:00", "end": "\(end)",
          "weather": { "Budapest": { "constantC": -2 } },
          "users": [ { "id": "host", "name": "Hanna Host" }, { "id": "guest", "name": "Gabor Guest" } ],
          "listings": [ {
            "id": "flat-1", "owner": "host", "name": "Flat", "city": "Budapest", "country": "Hungary", "capacity": 3,
            "thermal": { "uaWPerK": 80, "capacitanceKWhPerK": 2.3, "initialC": 16 },
            "devices": [ { "id": "heating", "type": "heating", "powerW": 2000, "setpointC": 21 }, { "id": "door", "type": "lock" } ]
          } ],
          "items": \(items),
          "rules": [\(rules)],
          "timeline": [\(timeline)],
          "expect": [\(expect)]\(extra.isEmpty ? "" : ",\n  " + extra)
        }
        """
    }

    /// Writes the files and decodes the scenario.
    func load() throws(ScenarioError) -> Scenario {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) } // everything is read while decoding
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, body) in files {
            let path = "\(directory)/\(name)"
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: path, contents: Data(body.utf8)), "cannot write \(path)")
        }
        let path = "\(directory)/scenario.json"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text().utf8)), "cannot write \(path)")
        return try ScenarioDecoder.load(path: path)
    }

    /// Runs it; the result and its rule log lines (time and text).
    func run() async throws -> (result: ScenarioResult, rules: [String]) {
        let result = try await ScenarioRunner.run(try load())
        return (result, result.log.filter { $0.contains("  rule \"") || $0.contains("  timer of rule \"") })
    }

    /// The problems decoding reports (empty when it decodes).
    func problems() -> [String] {
        do {
            _ = try load()
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }
}

/// One UI rule as JSON: `triggers`, `conditions`, `actions` are JSON arrays of modules.
func uiRule(_ uid: String, _ name: String? = nil, triggers: String, conditions: String = "[]", actions: String) -> String {
    "{ \"uid\": \"\(uid)\", \"name\": \"\(name ?? uid)\", \"triggers\": \(triggers), \"conditions\": \(conditions), \"actions\": \(actions) }"
}

/// A module `{id, type, configuration}`.
func module(_ id: String, _ type: String, _ configuration: String) -> String {
    "{ \"id\": \"\(id)\", \"type\": \"\(type)\", \"configuration\": \(configuration) }"
}
