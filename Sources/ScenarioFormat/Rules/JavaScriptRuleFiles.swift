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

    /// A UI rule's JavaScript script module, and where its rule file holds it.
    struct Module {
        let script: JSUIScript
        /// The module's `script` field (in its rule file's issues).
        let field: Field
    }

    /// The world's JavaScript before it is checked: the session its script files and UI rules' script modules share.
    struct Prepared {
        let session: JavaScriptSession
        /// Whether every entry lies inside the scenario's folder (else each was told, and nothing loads).
        let valid: Bool
    }

    /// The session for `entries` (script files) and the UI rules' modules still to come; an entry outside the
    /// scenario's folder is a problem, and then no file loads.
    static func prepare(_ entries: [Entry], context: Context) -> Prepared {
        let root = context.confRoot?.absolute ?? root(of: context.scenarioFile)
        var files: [JSScriptFile] = []
        var valid = true
        for entry in entries {
            let absolute = URL(fileURLWithPath: entry.path, relativeTo: URL(fileURLWithPath: root + "/")).standardizedFileURL.path
            guard absolute.hasPrefix(root + "/") else {
                entry.field.problem("\(UserText.quoted(entry.path)) is outside the scenario's folder; the twin reads no JavaScript there.",
                                    hint: "keep script files under the scenario's folder, e.g. \"automation/js/heating.js\".")
                valid = false
                break
            }
            files.append(JSScriptFile(path: String(absolute.dropFirst(root.count + 1)), source: entry.text))
        }
        let conf = files.first.map { confDirectory(of: $0.path, root: root) } ?? root
        let setup = JSSetup(root: root, conf: conf, zone: context.calendar.identifier, seed: context.seed,
                            startMilliseconds: context.start?.unixMilliseconds ?? 0)
        return Prepared(session: JavaScriptSession(setup: setup, files: valid ? files : []), valid: valid)
    }

    /// Loads the entries in order and compiles the UI rules' JavaScript `modules` (a syntax error is a problem of
    /// the module's rule file, at its `script` field); returns, per entry, the rules it registered (`nil` where
    /// it failed). Without Node.js, `issues` is told once (the scenario cannot run; exit 69).
    static func load(_ entries: [Entry], modules: [Module], prepared: Prepared, context: Context, issues: IssueCollector) -> [[Rule]?] {
        guard prepared.valid else { return entries.map { _ in nil } }
        guard !entries.isEmpty || !modules.isEmpty else { return [] }
        let results: [JavaScriptCollector.FileResult]
        do {
            let collected = try prepared.session.collect(modules: modules.map(\.script), items: seeds(context.items))
            results = collected.files
            for (module, error) in zip(modules, collected.modules) {
                guard let error else { continue }
                let place = error.location.map(scriptPlace) ?? ""
                module.field.problem("\(error.code.rawValue): \(error.message)\(place)",
                                     hint: "fix the script of rule \(UserText.quoted(module.script.ruleUID)), module \(UserText.quoted(module.script.moduleID)).")
            }
        } catch {
            if error.code == .nodeMissing {
                issues.unavailable = error.message
            } else if let field = entries.first?.field ?? modules.first?.field {
                field.problem("\(error.code.rawValue): \(error.message)", hint: error.hint)
            }
            return entries.map { _ in nil }
        }
        let directory = context.confRoot.map { ScenarioDecoder.resolvedSidePath($0.written, scenarioFile: context.scenarioFile) }
            ?? (context.scenarioFile as NSString).deletingLastPathComponent
        let shown = { (path: String) in directory.isEmpty ? path : "\(directory)/\(path)" }
        // A conf directory's script that openHAB's add-on fails to load too (a syntax error, a `require` that
        // resolves to nothing) is skipped with a located warning, as openHAB logs it and loads the others; the
        // world's child then loads only the others.
        let skipped = Set(zip(entries, results).compactMap { entry, result in
            context.confRoot != nil && result.error.map(openHABFailsToo) == true ? result.file.path : nil
        })
        // The UI rules' modules hold the session already: it leaves the skipped files out of every world's child.
        let session = prepared.session
        session.leaveOut(skipped)
        var loaded: [[Rule]?] = []
        var carried = false, failed = false
        for (entry, result) in zip(entries, results) {
            let fileIssues = IssueCollector(file: entry.resolved)
            if let error = result.error {
                let (file, line) = split(error.location, fallback: result.file.path)
                let located = IssueCollector(file: shown(file), strict: issues.strict)
                let what = "\(error.code.rawValue): \(error.message)\(column(error.location))"
                if skipped.contains(result.file.path) {
                    located.warning("", line: line, "\(what) — openHAB fails to load this file too; it is skipped, the rest loads.",
                                    hint: context.confRoot.flatMap { packageSourcesHint(error, conf: $0.absolute) } ?? hint(for: error))
                } else {
                    located.add("", line: line, what, hint: hint(for: error))
                }
                issues.absorb(located)
                failed = failed || !skipped.contains(result.file.path)
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
        if !carried, skipped.count < entries.count, !failed, let first = entries.first, context.confRoot != nil {
            // A conf directory's automation/js may hold scripts that register no rule (a test, a cache set-up):
            // openHAB runs them once as they load, and so did the collection.
            issues.notice(first.field.path, line: first.field.node.line,
                          "the JavaScript files of automation/js register no rule: they ran once as they loaded, as openHAB runs them; nothing of theirs runs later.",
                          hint: "register rules with rules.JSRule to have the twin run them on triggers.")
        } else if !carried, !failed, let first = entries.first {
            first.field.problem("the JavaScript files register no rule (rules.JSRule); the twin runs script files for their rules.",
                                hint: "register at least one rules.JSRule; code outside rules runs when its file loads.")
        }
        return loaded
    }

    /// ` (script line 3, column 5)` of a module's `key:line:column`.
    private static func scriptPlace(_ location: String) -> String {
        let parts = location.split(separator: ":")
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) else { return "" }
        return " (script line \(line), column \(column))"
    }

    /// Whether any of `rules` runs JavaScript (a script file's rule or a UI rule's JavaScript module).
    static func runJavaScript(_ rules: [Rule]) -> Bool {
        rules.contains { rule in
            rule.actions.contains { if case .script(let s) = $0.kind { s is JSRuleScript || s is JSUIScript } else { false } }
                || rule.conditions.contains { if case .script(let s) = $0.kind { s is JSUIScript } else { false } }
        }
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

    /// Whether openHAB's JavaScript add-on fails to load a file with this error too: GraalJS reports the same
    /// syntax error, and a `require` that resolves to nothing throws there as well (the add-on logs it and
    /// loads the other files). An unsupported member or a throw is the twin's to report.
    static func openHABFailsToo(_ error: JavaScriptError) -> Bool {
        error.code == .syntax || error.code == .require
    }

    /// A `require('name')` of a package whose sources the conf directory holds beside the scripts
    /// (`automation/js/<name>/package.json` naming it, as a repository keeps a local package that `npm install`
    /// puts into `node_modules`): the hint says so.
    private static func packageSourcesHint(_ error: JavaScriptError, conf: String) -> String? {
        guard error.code == .require, let open = error.message.range(of: "require('"),
              let close = error.message[open.upperBound...].range(of: "')") else { return nil }
        let name = String(error.message[open.upperBound..<close.lowerBound])
        guard !name.hasPrefix("."), !name.contains(".."),
              let data = FileManager.default.contents(atPath: "\(conf)/automation/js/\(name)/package.json"),
              let text = String(data: data, encoding: .utf8), text.contains("\"\(name)\"") else { return nil }
        return "automation/js/\(name) holds the package's sources, not installed: `npm install` in automation/js puts it into automation/js/node_modules, where openHAB and the twin look."
    }

    private static func hint(for error: JavaScriptError) -> String? {
        switch error.code {
        case .unsupported: return "Docs/JAVASCRIPT.md lists what the twin runs."
        case .require: return "put your modules in automation/js/node_modules (or next to the script) under the scenario's folder; an npm package is installed there by `npm install` in automation/js."
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
