import Foundation
import Simulation

/// Runs many scenario files, optionally several at a time, and returns their outcomes in path order,
/// so that output does not depend on `jobs`.
public enum SuiteRunner {
    /// What happened to one file.
    public enum Outcome: Sendable {
        /// It ran (passed or failed).
        case ran(ScenarioResult)
        /// It could not run: unreadable, invalid, or the world could not be built.
        case failed(ScenarioError)
    }

    /// One file and its outcome.
    public struct Entry: Sendable {
        public let path: String
        public let outcome: Outcome
    }

    /// Every `*.json` scenario file below `directory`, sorted by path. JSON rule files kept beside the
    /// scenarios (``isRuleFile(atPath:)``) are not scenarios and are left out.
    /// - Throws: ``ScenarioError`` `scenario.unreadable` when the directory cannot be listed.
    public static func scenarioFiles(in directory: String) throws(ScenarioError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
              let walker = FileManager.default.enumerator(atPath: directory) else {
            throw ScenarioError(.unreadable, "\(directory) is not a directory.", file: directory)
        }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".json") { files.append(relative) }
        }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return files.sorted().map { "\(base)/\($0)" }.filter { !isRuleFile(atPath: $0) }
    }

    /// Whether the JSON file at `path` holds openHAB UI rules rather than a scenario: an array (of
    /// `RuleDTO`, as `GET /rest/rules` exports them), or an `automation_rules.json` database whose every
    /// member is `{"class": …, "value": …}`. A scenario is an object with other keys; a file that is not
    /// valid JSON counts as a scenario, so its error is reported.
    public static func isRuleFile(atPath path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { return false }
        guard let first = text.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) else { return false }
        if first == "[" { return true }
        guard first == "{", firstMemberMayBeObject(text.utf8) else { return false }
        guard let root = try? JSONParser.parse(text), case .object(let members) = root.value, !members.isEmpty else { return false }
        return members.allSatisfy { member in
            guard case .object(let inner) = member.value.value else { return false }
            return inner.contains { $0.key == "class" } && inner.contains { $0.key == "value" }
        }
    }

    /// Whether the first member of the object `utf8` opens with may have an object as its value: `false`
    /// when it surely has not (a scenario opens with `"version": 1`), so a big scenario is not parsed
    /// whole only to be told from a rule file; `true` when the text must be parsed to know.
    static func firstMemberMayBeObject(_ utf8: String.UTF8View) -> Bool {
        var index = utf8.startIndex
        func skipBlanks() {
            while index < utf8.endIndex, [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains(utf8[index]) { utf8.formIndex(after: &index) }
        }
        skipBlanks()
        guard index < utf8.endIndex, utf8[index] == UInt8(ascii: "{") else { return true }
        utf8.formIndex(after: &index)
        skipBlanks()
        guard index < utf8.endIndex, utf8[index] == UInt8(ascii: "\"") else { return true }  // `}` or not JSON: the parser decides
        utf8.formIndex(after: &index)
        while index < utf8.endIndex, utf8[index] != UInt8(ascii: "\"") {
            if utf8[index] == UInt8(ascii: "\\") { utf8.formIndex(after: &index) }
            if index < utf8.endIndex { utf8.formIndex(after: &index) }
        }
        guard index < utf8.endIndex else { return true }
        utf8.formIndex(after: &index)
        skipBlanks()
        guard index < utf8.endIndex, utf8[index] == UInt8(ascii: ":") else { return true }
        utf8.formIndex(after: &index)
        skipBlanks()
        return index >= utf8.endIndex || utf8[index] == UInt8(ascii: "{")
    }

    /// Shard `index` of `count` (1-based) of `files`: every `count`-th file of the path-sorted list,
    /// starting at the `index`-th, so the shards of one list are disjoint, cover it, and differ in
    /// size by at most one. Every shard of a CI matrix lists the same checkout, so each file runs once.
    public static func shard(_ files: [String], index: Int, of count: Int) -> [String] {
        files.sorted().enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// Loads and runs one file; `progress` is told after each simulated day.
    public static func runFile(_ path: String, seed: UInt64? = nil, timeseriesInterval: SimDuration? = nil,
                               progress: ScenarioRunner.Progress? = nil) async -> Outcome {
        do {
            let scenario = try ScenarioDecoder.load(path: path, seed: seed)
            HeapTrim.releaseFreedMemory()  // the file's text and JSON tree, many times the scenario's size, are gone
            return .ran(try await ScenarioRunner.run(scenario, options: World.Options(recordTimeseries: timeseriesInterval,
                                                                                        progress: progress)))
        } catch {
            return .failed(error)
        }
    }

    /// Runs `files` with at most `jobs` at a time; `progress` is told after each one finishes
    /// (count done, total, the file). Results come back in the order of `files`.
    public static func run(files: [String], jobs: Int, seed: UInt64? = nil, timeseriesInterval: SimDuration? = nil,
                           progress: @escaping @Sendable (Int, Int, String) -> Void = { _, _, _ in }) async -> [Entry] {
        var outcomes = [Outcome?](repeating: nil, count: files.count)
        var done = 0
        await withTaskGroup(of: (Int, Outcome).self) { group in
            var next = 0
            func startNext() {
                guard next < files.count else { return }
                let index = next
                next += 1
                // One child task per scenario file, not per event: each file builds its own kernel and world and
                // runs wholly inside this one task, so the single-simulation-task rule holds for every world;
                // results are collected by index, so output does not depend on which file finishes first.
                group.addTask { (index, await runFile(files[index], seed: seed, timeseriesInterval: timeseriesInterval)) }  // simulation task: one per world; the world never leaves it
            }
            for _ in 0..<max(1, jobs) { startNext() }
            while let (index, outcome) = await group.next() {
                outcomes[index] = outcome
                done += 1
                progress(done, files.count, files[index])
                startNext()
            }
        }
        return zip(files, outcomes).map { Entry(path: $0, outcome: $1 ?? .failed(ScenarioError(.runFailed, "did not run", file: $0))) }
    }
}
