import Foundation
import ScenarioFormat
import Simulation
import Twin

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
    /// scenarios (``isRuleFile(atPath:)``) are not scenarios and are left out, nor is JSON that JavaScript
    /// script files read (under `automation/js/`, `node_modules/`).
    /// - Throws: ``ScenarioError`` `scenario.unreadable` when the directory cannot be listed.
    public static func scenarioFiles(in directory: String) throws(ScenarioError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
              let walker = FileManager.default.enumerator(atPath: directory) else {
            throw ScenarioError(.unreadable, "\(directory) is not a directory.", file: directory)
        }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".json"), !isScriptData(relative) { files.append(relative) }
        }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return files.sorted().map { "\(base)/\($0)" }.filter { !isRuleFile(atPath: $0) }
    }

    /// Whether a relative path lies where JavaScript rules keep their own files (`automation/js/`, `node_modules/`).
    static func isScriptData(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/")
        if parts.contains("node_modules") { return true }
        return zip(parts, parts.dropFirst()).contains { $0 == "automation" && $1 == "js" }
    }

    /// Whether the JSON file at `path` holds openHAB UI rules rather than a scenario: an array (of
    /// `RuleDTO`, as `GET /rest/rules` exports them), or an `automation_rules.json` database whose every
    /// member is `{"class": …, "value": …}`. A scenario is an object with other keys; a file that is not
    /// valid JSON counts as a scenario, so its error is reported.
    public static func isRuleFile(atPath path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { return false }
        switch firstMember(text.utf8) {
        case .array: return true
        case .notAnObjectValue, .neither: return false
        case .mayBeObjectValue:
            guard let root = try? JSONParser.parse(text), case .object(let members) = root.value, !members.isEmpty else { return false }
            return members.allSatisfy { member in
                guard case .object(let inner) = member.value.value else { return false }
                return inner.contains { $0.key == "class" } && inner.contains { $0.key == "value" }
            }
        }
    }

    /// What the opening of a JSON text says about it, read without parsing it whole.
    enum Opening: Equatable {
        /// It opens with `[` (a rule file: UI rules as an array).
        case array
        /// An object whose first member's value surely is no object (a scenario opens with `"version": 1`).
        case notAnObjectValue
        /// An object whose first member's value may be an object, or an object the quick look cannot read: parse it to know.
        case mayBeObjectValue
        /// Empty, or opening with something else.
        case neither
    }

    /// Reads past a byte-order mark and JSON blanks to the first member's value, so that a big scenario is
    /// not parsed whole only to be told from a rule file.
    static func firstMember(_ utf8: String.UTF8View) -> Opening {
        var index = utf8.startIndex
        if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { index = utf8.index(index, offsetBy: 3) }
        func skipBlanks() {
            while index < utf8.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(utf8[index]) { utf8.formIndex(after: &index) }
        }
        /// Steps over `byte` after blanks; `false` when something else (or nothing) comes.
        func take(_ byte: UInt8) -> Bool {
            skipBlanks()
            guard index < utf8.endIndex, utf8[index] == byte else { return false }
            utf8.formIndex(after: &index)
            return true
        }
        skipBlanks()
        guard index < utf8.endIndex else { return .neither }
        if utf8[index] == UInt8(ascii: "[") { return .array }
        guard take(UInt8(ascii: "{")) else { return .neither }
        guard take(UInt8(ascii: "\"")) else { return .mayBeObjectValue }  // `}` or not JSON: the parser decides
        while index < utf8.endIndex, utf8[index] != UInt8(ascii: "\"") {
            if utf8[index] == UInt8(ascii: "\\") { utf8.formIndex(after: &index) }
            if index < utf8.endIndex { utf8.formIndex(after: &index) }
        }
        guard take(UInt8(ascii: "\"")), take(UInt8(ascii: ":")) else { return .mayBeObjectValue }
        skipBlanks()
        return index < utf8.endIndex && utf8[index] != UInt8(ascii: "{") ? .notAnObjectValue : .mayBeObjectValue
    }

    /// Shard `index` of `count` (1-based) of `files`: every `count`-th file of the path-sorted list,
    /// starting at the `index`-th, so the shards of one list are disjoint, cover it, and differ in
    /// size by at most one. Every shard of a CI matrix lists the same checkout, so each file runs once.
    public static func shard(_ files: [String], index: Int, of count: Int) -> [String] {
        files.sorted().enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// Loads and runs one file; `progress` is told after each simulated day.
    /// - Parameter strict: `--strict`: what openHAB refuses with a warning makes the scenario invalid.
    public static func runFile(_ path: String, seed: UInt64? = nil, world: World.Options = World.Options(),
                               progress: ScenarioRunner.Progress? = nil, strict: Bool = false) async -> Outcome {
        do {
            let scenario = try ScenarioDecoder.load(path: path, seed: seed, strict: strict)
            HeapTrim.releaseFreedMemory()  // the file's text and JSON tree, many times the scenario's size, are gone
            var options = world
            options.progress = progress
            return .ran(try await ScenarioRunner.run(scenario, options: options))
        } catch {
            return .failed(error)
        }
    }

    /// Runs `files` with at most `jobs` at a time; `progress` is told after each one finishes
    /// (count done, total, the file). Results come back in the order of `files`.
    public static func run(files: [String], jobs: Int, seed: UInt64? = nil, world: World.Options = World.Options(), strict: Bool = false,
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
                group.addTask { (index, await runFile(files[index], seed: seed, world: world, strict: strict)) }  // simulation task: one per world; the world never leaves it
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
