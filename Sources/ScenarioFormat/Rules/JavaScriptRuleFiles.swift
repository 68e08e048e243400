import Foundation
import JavaScript
import Rules
import Simulation
import SmartHome

/// The `.js` files of a scenario's `rules`: openHAB JavaScript Scripting (openhab-js) script files, loaded once
/// at validation in a Node.js child to collect the rules they register and the problems that stop them
/// (syntax errors with file, line and column; a throw, an unsupported member, a `require` that resolves to
/// nothing). Their rules join the engine as rules whose action runs in the world's child (``JSRuleScript``).
enum JavaScriptRuleFiles {
    /// What the files need to know about the scenario.
    struct Context {
        /// The scenario file (its folder is the root nothing outside of which is read).
        var scenarioFile: String
        var items: [VirtualItemSpec]
        var seed: UInt64
        var calendar: LocalCalendar
        var start: SimInstant?
        /// An `openhabConf` directory whose `automation/js` scripts load: then it is the root (absolute, and as
        /// the scenario writes it), not the scenario's folder — the directory the scenario names is what it owns.
        var confRoot: (absolute: String, written: String)? = nil
    }

    /// One `.js` entry of `rules`: the field naming it, its resolved path and text.
    struct Entry {
        let field: Field
        let path: String
        let resolved: String
        let text: String
    }

    /// The scenario's folder, absolute.
    static func root(of scenarioFile: String) -> String {
        let directory = (scenarioFile as NSString).deletingLastPathComponent
        return URL(fileURLWithPath: directory.isEmpty ? "." : directory).standardizedFileURL.path
    }

    /// Loads the entries in order; returns, per entry, the rules it registered (`nil` where it failed).
    /// Without Node.js, `issues` is told once (the scenario cannot run; exit 69) and no rules come back.
    static func load(_ entries: [Entry], context: Context, issues: IssueCollector) -> [[Rule]?] {
        guard !entries.isEmpty else { return [] }
        let root = context.confRoot?.absolute ?? root(of: context.scenarioFile)
        var files: [JSScriptFile] = []
        for entry in entries {
            let absolute = URL(fileURLWithPath: entry.path, relativeTo: URL(fileURLWithPath: root + "/")).standardizedFileURL.path
            guard absolute.hasPrefix(root + "/") else {
                entry.field.problem("\(UserText.quoted(entry.path)) is outside the scenario's folder; the twin reads no JavaScript there.",
                                    hint: "keep script files under the scenario's folder, e.g. \"automation/js/heating.js\".")
                return entries.map { _ in nil }
            }
            files.append(JSScriptFile(path: String(absolute.dropFirst(root.count + 1)), source: entry.text))
        }
        let conf = confDirectory(of: files[0].path, root: root)
        let setup = JSSetup(root: root, conf: conf, zone: context.calendar.identifier, seed: context.seed,
                            startMilliseconds: context.start?.unixMilliseconds ?? 0)
        let results: [JavaScriptCollector.FileResult]
        do {
            results = try JavaScriptCollector.collect(files, setup: setup, items: seeds(context.items))
        } catch {
            if error.code == .nodeMissing {
                issues.unavailable = error.message
            } else {
                entries[0].field.problem("\(error.code.rawValue): \(error.message)", hint: error.hint)
            }
            return entries.map { _ in nil }
        }
        let session = JavaScriptSession(setup: setup, files: files)
        let directory = context.confRoot.map { ScenarioDecoder.resolvedSidePath($0.written, scenarioFile: context.scenarioFile) }
            ?? (context.scenarioFile as NSString).deletingLastPathComponent
        let shown = { (path: String) in directory.isEmpty ? path : "\(directory)/\(path)" }
        var loaded: [[Rule]?] = []
        var carried = false
        for (entry, result) in zip(entries, results) {
            let fileIssues = IssueCollector(file: entry.resolved)
            if let error = result.error {
                let (file, line) = split(error.location, fallback: result.file.path)
                let located = IssueCollector(file: shown(file))
                located.add("", line: line, "\(error.code.rawValue): \(error.message)\(column(error.location))", hint: hint(for: error))
                issues.absorb(located)
                loaded.append(nil)
                continue
            }
            var rules: [Rule] = []
            for spec in result.rules {
                rules += rulesOf(spec, file: result.file.path, resolved: entry.resolved, session: session, issues: fileIssues)
            }
            carried = carried || !rules.isEmpty
            issues.absorb(fileIssues)
            loaded.append(rules)
        }
        if !carried, !loaded.contains(where: { $0 == nil }), let first = entries.first, context.confRoot != nil {
            // A conf directory's automation/js may hold scripts that register no rule (a test, a cache set-up):
            // openHAB runs them once as they load, and so did the collection.
            issues.notice(first.field.path, line: first.field.node.line,
                          "the JavaScript files of automation/js register no rule: they ran once as they loaded, as openHAB runs them; nothing of theirs runs later.",
                          hint: "register rules with rules.JSRule to have the twin run them on triggers.")
        } else if !carried, !loaded.contains(where: { $0 == nil }), let first = entries.first {
            first.field.problem("the JavaScript files register no rule (rules.JSRule); the twin runs script files for their rules.",
                                hint: "register at least one rules.JSRule; code outside rules runs when its file loads.")
        }
        return loaded
    }

    /// The conf directory: the folder above the file's `automation/`, else the scenario's folder.
    static func confDirectory(of path: String, root: String) -> String {
        if let range = path.range(of: "automation/js/") {
            let above = String(path[..<range.lowerBound])
            return above.isEmpty ? root : "\(root)/\(above.hasSuffix("/") ? String(above.dropLast()) : above)"
        }
        return root
    }

    private static func seeds(_ items: [VirtualItemSpec]) -> [JavaScriptCollector.ItemSeed] {
        var groups: [String: [String]] = [:]
        for spec in items { for member in spec.members { groups[member, default: []].append(spec.name) } }
        return items.map { spec in
            JavaScriptCollector.ItemSeed(name: spec.name, type: spec.type.rawValue, label: spec.label, state: spec.state ?? "NULL",
                                         groups: groups[spec.name] ?? [], members: spec.members)
        }
    }

    /// `automation/js/x.js:12:5` → (`automation/js/x.js`, 12).
    private static func split(_ location: String?, fallback: String) -> (String, Int?) {
        guard let location else { return (fallback, nil) }
        let parts = location.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count >= 3, let line = Int(parts[parts.count - 2]), Int(parts[parts.count - 1]) != nil {
            return (parts.dropLast(2).joined(separator: ":"), line)
        }
        if parts.count >= 2, let line = Int(parts[parts.count - 1]) { return (parts.dropLast().joined(separator: ":"), line) }
        return (location, nil)
    }

    private static func column(_ location: String?) -> String {
        guard let location, let last = location.split(separator: ":").last, Int(last) != nil,
              location.split(separator: ":").count >= 3 else { return "" }
        return " (column \(last))"
    }

    private static func hint(for error: JavaScriptError) -> String? {
        switch error.code {
        case .unsupported: return "Docs/JAVASCRIPT.md lists what the twin runs."
        case .require: return "put your modules in automation/js/node_modules (or next to the script) under the scenario's folder."
        case .runtime: return "code outside rules runs at validation with the scenario's own Items only."
        default: return error.hint
        }
    }

    /// The engine rules of one registered rule: the rule itself, and for a `SwitchableJSRule` its switch.
    private static func rulesOf(_ spec: JSRuleSpec, file: String, resolved: String, session: JavaScriptSession,
                                issues: IssueCollector) -> [Rule] {
        var triggers: [RuleTrigger] = []
        for trigger in spec.triggers {
            let dto = "{\"id\": \(JSONString.quoted(trigger.id)), \"type\": \(JSONString.quoted(trigger.type)), \"configuration\": {"
                + trigger.configuration.map { "\(JSONString.quoted($0.key)): \(JSONString.quoted($0.value))" }.joined(separator: ", ") + "}}"
            let scratch = IssueCollector(file: resolved)
            guard let node = try? JSONParser.parse(dto) else { continue }
            if let decoded = RuleFileDecoder.decodeTrigger(Field(node: node, path: "", issues: scratch)) { triggers.append(decoded) }
            for problem in scratch.issues {
                issues.add("", line: trigger.line ?? spec.line, "rule \(UserText.quoted(spec.name)), \(trigger.type): \(problem.message)", hint: problem.hint)
            }
        }
        let source = "\(resolved)\(spec.line.map { ":\($0)" } ?? "")"
        var rule = Rule(uid: spec.id, name: spec.name, description: spec.description, tags: spec.tags, triggers: triggers,
                        actions: [RuleAction(id: "script", .script(JSRuleScript(session: session, ruleUID: spec.id, triggers: spec.triggers, file: file)))],
                        source: source)
        rule.isEditable = false
        guard let item = spec.switchItem else { return [rule] }
        var switchRule = Rule(uid: "\(spec.id)-switch", name: "\(spec.name) (switch)", triggers: [
            RuleTrigger(id: "1", .itemStateChange(ItemNamePattern(item), previousState: nil, state: nil)),
            RuleTrigger(id: "2", .systemStartlevel(100)),
        ], actions: [RuleAction(id: "switch", .script(JSSwitchScript(ruleUID: spec.id, item: item)))], source: source)
        switchRule.isEditable = false
        return [rule, switchRule]
    }
}
