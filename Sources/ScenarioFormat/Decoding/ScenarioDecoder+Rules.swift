import Foundation
import JavaScript
import Rules
import Simulation
import SmartHome

extension ScenarioDecoder {
    /// `items`: virtual Items `{name, type, state?, label?, members?}`.
    static func decodeItems(_ field: Field, calendar: LocalCalendar) -> [VirtualItemSpec]? {
        guard let list = field.array else { return nil }
        var specs: [VirtualItemSpec] = []
        for f in list {
            guard let o = f.object(["name", "type", "state", "label", "members"]),
                  let nameField = o.required("name"), let name = nameField.name,
                  let typeField = o.required("type"), let typeText = typeField.name else { continue }
            if (try? ItemName(name)) == nil {
                nameField.problem("\(UserText.quoted(name)) is not a valid Item name.", hint: "openHAB Item names use letters, digits and underscores, e.g. \"Guest_Present\".")
                continue
            }
            guard let type = ItemType(rawValue: typeText) else {
                typeField.problem("\(UserText.quoted(typeText)) is not an Item type the twin knows.",
                                  hint: Suggestion.closest(to: typeText, in: ItemType.allNames).map { "did you mean \"\($0)\"?" }
                                    ?? "use one of \(ItemType.allNames.joined(separator: ", ")).")
                continue
            }
            var state: String?
            if let sf = o.optional("state") {
                state = sf.openHABText("state")
                if let text = state, type.parseState(text, in: calendar).flatMap({ type.accepting($0) }) == nil {
                    sf.problem("\(UserText.quoted(text)) is not a state a \(type) Item takes.", hint: stateHint(type))
                    continue
                }
            }
            let label = o.optional("label")?.string
            var members: [String] = []
            if let mf = o.optional("members") {
                guard type == .groupItem else {
                    mf.problem("only a Group has members; this Item is a \(type).")
                    continue
                }
                members = mf.array?.compactMap(\.name) ?? []
            }
            specs.append(VirtualItemSpec(name: name, type: type, state: state, label: label, members: members, path: f.path))
        }
        return specs
    }

    static func stateHint(_ type: ItemType) -> String {
        switch type {
        case .switchItem: return "a Switch holds ON or OFF."
        case .contactItem: return "a Contact holds OPEN or CLOSED."
        case .numberItem(let d?): return "write a number or a quantity such as \"21 \(d.defaultUnit.symbol)\"."
        case .numberItem(nil): return "write a number such as 21.5."
        case .dimmerItem: return "a Dimmer holds 0 to 100."
        case .dateTimeItem: return "write a date-time such as \"2026-01-09T15:00\" or \"2026-01-09T15:00:00.000+0100\"."
        case .stringItem, .groupItem: return "write the state as text."
        case .rollershutterItem: return "a Rollershutter holds 0 to 100 (UP is 0, DOWN is 100)."
        case .colorItem: return "a Color holds h,s,b such as \"120,100,50\"."
        case .locationItem: return "a Location holds latitude,longitude such as \"47.5,19.05\"."
        case .playerItem: return "a Player holds PLAY, PAUSE, REWIND or FASTFORWARD."
        case .callItem: return "a Call holds comma-separated numbers."
        case .imageItem: return "an Image holds a data: URI."
        }
    }

    /// `rules`: rule files relative to the scenario — `.json` UI rules, `.rules` DSL files or `.js` JavaScript
    /// (openhab-js) script files, whose rules come in the list's order — and `confScripts`, an `openhabConf`'s
    /// automation/js scripts (``confJavaScript(_:field:javaScript:)``), whose rules come back apart (`conf`). The `.js`
    /// files and the UI rules' JavaScript script modules share one session (the world's Node.js child).
    static func decodeRules(_ field: Field?, scripts: DSLScripts = .none, javaScript: JavaScriptRuleFiles.Context? = nil,
                            confScripts: [JavaScriptRuleFiles.Entry] = [])
        -> (files: [String], rules: [Rule], conf: (files: [String], rules: [Rule]))? {
        var list: [Field] = []
        if let field {
            guard let array = field.array else { return nil }
            list = Array(array)
        }
        // First the files as written, so the JavaScript session exists before a UI rule's module needs it.
        var read: [(f: Field, path: String, lower: String, text: String, resolved: String)] = []
        for f in list {
            guard let path = f.name else { continue }
            let lower = path.lowercased()
            guard lower.hasSuffix(".json") || lower.hasSuffix(".rules") || (lower.hasSuffix(".js") && javaScript != nil) else {
                f.problem("\(UserText.quoted(path)) is neither a .rules file (Rules DSL), a .json file (UI rules) nor a .js file (JavaScript).",
                          hint: "name Rules DSL files *.rules, exported UI rules *.json and JavaScript script files *.js.")
                continue
            }
            if lower.hasSuffix(".js"), !confScripts.isEmpty {
                // One world has one JavaScript root: the conf directory's.
                f.problem("\(UserText.quoted(path)) is a .js file in \"rules\", and the scenario's openhabConf has automation/js scripts; one world runs one set of JavaScript files.",
                          hint: "move the script into the conf directory's automation/js (openHAB loads it from there), or leave the conf's scripts out with \"exclude\".")
                continue
            }
            guard let text = readSideFile(f, path: path, what: "rule", example: "rules/heating.rules") else { continue }
            read.append((f, path, lower, text, resolvedSidePath(path, scenarioFile: field?.issues.file ?? "")))
        }
        let jsEntries = read.enumerated().filter { $0.element.lower.hasSuffix(".js") }.map { index, entry in
            (index: index, entry: JavaScriptRuleFiles.Entry(field: entry.f, path: entry.path, resolved: entry.resolved, text: entry.text))
        }
        let prepared = javaScript.map { JavaScriptRuleFiles.prepare(jsEntries.map(\.entry) + confScripts, context: $0) }
        var files: [String] = []
        var loaded: [[Rule]?] = []
        var modules: [JavaScriptRuleFiles.Module] = []
        // Rule files with JavaScript modules: their issues join after the modules are compiled.
        var deferred: [IssueCollector] = []
        for entry in read {
            files.append(entry.resolved)
            if entry.lower.hasSuffix(".js") {
                loaded.append([])
                continue
            }
            let fileIssues = IssueCollector(file: entry.resolved)
            let rules: [Rule]
            if entry.lower.hasSuffix(".json") {
                let before = modules.count
                rules = RuleFileDecoder.decode(entry.text, issues: fileIssues) { module in
                    guard module.isJavaScript else {
                        return RuleScripts.compile(module.source, file: entry.resolved, line: module.field.line, issues: fileIssues, path: module.field.path)
                    }
                    guard let prepared else {
                        module.field.problem("JavaScript scripts cannot run here.")
                        return nil
                    }
                    let script = JSUIScript(session: prepared.session, ruleUID: module.ruleUID, moduleID: module.moduleID, source: module.source,
                                            mediaType: module.type, isCondition: module.isCondition, file: entry.path)
                    modules.append(JavaScriptRuleFiles.Module(script: script, field: module.field))
                    return script
                }
                if modules.count > before {
                    deferred.append(fileIssues)
                    loaded.append(rules)
                    continue
                }
            } else {
                rules = RuleScripts.loadDSLFile(entry.text, file: entry.resolved, issues: fileIssues, scripts: scripts)
            }
            entry.f.issues.absorb(fileIssues)
            loaded.append(rules)
        }
        var conf: (files: [String], rules: [Rule]) = ([], [])
        if let javaScript, let prepared, let issues = field?.issues ?? confScripts.first?.field.issues,
           !jsEntries.isEmpty || !modules.isEmpty || !confScripts.isEmpty {
            let results = JavaScriptRuleFiles.load(jsEntries.map(\.entry) + confScripts, modules: modules, prepared: prepared,
                                                   context: javaScript, issues: issues)
            for (slot, rules) in zip(jsEntries.map(\.index), results) { loaded[slot] = rules ?? [] }
            for (entry, rules) in zip(confScripts, results.dropFirst(jsEntries.count)) {
                guard let rules else { continue }  // told: an error, or a file openHAB fails to load too (skipped)
                conf.files.append(entry.resolved)
                conf.rules += rules
            }
        }
        for fileIssues in deferred { field?.issues.absorb(fileIssues) }
        return (files, loaded.flatMap { $0 ?? [] }, conf)
    }

    /// An `openhabConf`'s automation/js scripts, read, with `javaScript`'s root set to the conf directory (absolute, and
    /// as the scenario writes it); none when the directory has none.
    static func confJavaScript(_ conf: ConfListing?, field: Field?, javaScript: inout JavaScriptRuleFiles.Context) -> [JavaScriptRuleFiles.Entry] {
        guard let conf, let field, !conf.javaScriptFiles.isEmpty else { return [] }
        javaScript.confRoot = (URL(fileURLWithPath: conf.directory).standardizedFileURL.path, conf.written)
        return conf.javaScriptFiles.compactMap { path -> JavaScriptRuleFiles.Entry? in
            let resolved = resolvedSidePath(path, scenarioFile: field.issues.file)
            guard let text = readSideFile(field, path: path, what: "JavaScript", example: "conf/automation/js/heating.js") else { return nil }
            return JavaScriptRuleFiles.Entry(field: field, path: URL(fileURLWithPath: resolved).standardizedFileURL.path, resolved: resolved, text: text)
        }
    }
}
