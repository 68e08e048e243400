import Foundation
import ScenarioFormat
import Scenarios
import Testing

/// A scenario with JavaScript files, written to a fresh directory that lives until the value is done with:
/// the minimal flat with `items`, the `.js` files under `automation/js/` and the given timeline and expectations.
final class JSScenario {
    let directory: String
    var items = "[]"
    /// Files by path relative to the scenario (`automation/js/x.js`); the `.js` files directly in
    /// `automation/js/` are the scenario's `rules`, in name order.
    var files: [String: String] = [:]
    var timeline = ""
    var expect = ""
    var end = "2026-01-10T00:00"
    var seed = 1
    /// More rule files (UI rules' `.json`), after the `.js` files.
    var otherRules: [String] = []
    /// More top-level members (`"responses": […],`), each ending with a comma.
    var members = ""
    /// The flat's devices (JSON array text).
    var devices = #"[ { "id": "heating", "type": "heating", "powerW": 2000, "setpointC": 21 } ]"#

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("js-\(UUID().uuidString)").path
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var ruleFiles: [String] {
        files.keys.sorted().filter { $0.hasPrefix("automation/js/") && $0.hasSuffix(".js") && $0.split(separator: "/").count == 3 }
    }

    func text() -> String {
        """
        {
          "version": 1, "name": "JavaScript", "seed": \(seed), "timeZone": "Europe/Budapest",
          "start": "2026-01-09T00:00", "end": "\(end)",
          "weather": { "Budapest": { "constantC": -2 } },
          "users": [ { "id": "host", "name": "Hanna Host" } ],
          "listings": [ {
            "id": "flat-1", "owner": "host", "name": "Flat", "city": "Budapest", "country": "Hungary", "capacity": 3,
            "thermal": { "uaWPerK": 80, "capacitanceKWhPerK": 2.3, "initialC": 16 },
            "devices": \(devices)
          } ],
          "items": \(items),
          \(members)
          "rules": [\((ruleFiles + otherRules).map { "\"\($0)\"" }.joined(separator: ", "))],
          "timeline": [\(timeline)],
          "expect": [\(expect)]
        }
        """
    }

    /// Writes the files; the scenario's path.
    func write() -> String {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, body) in files {
            let path = "\(directory)/\(name)"
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: path, contents: Data(body.utf8)), "cannot write \(path)")
        }
        let path = "\(directory)/scenario.json"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text().utf8)), "cannot write \(path)")
        return path
    }

    func load() throws(ScenarioError) -> Scenario { try ScenarioDecoder.load(path: write()) }

    /// Runs it: the result and the run log's lines.
    func run() async throws -> ScenarioResult { try await ScenarioRunner.run(try load()) }

    /// The problems decoding reports (empty when it decodes).
    func problems() -> [String] {
        do {
            _ = try load()
            return []
        } catch {
            return [error.message] + error.issues.map(\.description)
        }
    }
}

/// The `node` processes whose parent is this test process and that belong to the scenario in `directory`
/// (the child carries its scenario's folder as an argument): left-overs of that scenario's runs.
func childNodeProcesses(of directory: String) -> [Int32] {
    childNodeProcesses().filter { pid in
        let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
        return command.split(separator: "\u{0}").contains { $0 == directory || $0.hasPrefix(directory + "/") }
    }
}

/// The `node` processes whose parent is this test process.
func childNodeProcesses() -> [Int32] {
    let me = getpid()
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
    return entries.compactMap { Int32($0) }.filter { pid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let name = stat[stat.index(after: stat.firstIndex(of: "(") ?? stat.startIndex)..<close]
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is the state, fields[1] the parent's pid
        return name == "node" && fields.count > 1 && Int32(fields[1]) == me && fields[0] != "Z"
    }
}

/// A process's state and command line, for a failure message.
func processDescription(_ pid: Int32) -> String {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "?"
    let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?.replacingOccurrences(of: "\u{0}", with: " ") ?? "?"
    return "\(pid) [\(stat.prefix(60))] \(command)"
}
