import Foundation
import Rules
import Simulation
import SmartHome

extension ScenarioDecoder {
    /// The model folders openHAB's `FolderObserver` watches, with the one extension each takes.
    static let confFolders: [(folder: String, ext: String)] = [
        ("items", "items"), ("things", "things"), ("rules", "rules"), ("scripts", "script"), ("persistence", "persist"),
    ]
    /// Script languages the twin does not run, by extension (openHAB's automation add-ons).
    static let foreignScripts: [String: String] = ["py": "Python (jsr223)", "rb": "JRuby", "groovy": "Groovy", "js": "JavaScript (outside automation/js)"]

    /// `openhabConf`: `"DIR"` or `{"dir": "DIR", "exclude": ["glob", …]}` — a `$OPENHAB_CONF` directory relative to
    /// the scenario. Lists the files openHAB would load (the model folders' files of their extension, not hidden;
    /// `transform/`'s MAP and SCALE files) and names everything else in the load log.
    static func listOpenHABConf(_ field: Field) -> ConfListing? {
        var written: String?
        var exclude: [String] = []
        if case .string = field.node.value {
            written = field.name
        } else if let o = field.object(["dir", "exclude"]) {
            written = o.required("dir")?.name
            exclude = o.optional("exclude")?.array?.compactMap(\.name) ?? []
        }
        guard let written else { return nil }
        let directory = resolvedSidePath(written, scenarioFile: field.issues.file)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            field.problem("\(UserText.quoted(directory)) is not a directory.",
                          hint: "give openHAB's configuration directory ($OPENHAB_CONF, holding items/, things/, rules/ …) relative to the scenario file.")
            return nil
        }
        var listing = ConfListing(written: written, directory: directory, node: field.node, path: field.path, issues: field.issues)
        let files = FileManager.default
        let prefix = written.hasSuffix("/") ? written : written + "/"
        func excluded(_ relative: String) -> Bool { exclude.contains { Glob.matches($0, relative) } }
        let top = ((try? files.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        var unsupported: [String] = []
        for entry in top {
            let full = "\(directory)/\(entry)"
            var entryIsDirectory: ObjCBool = false
            _ = files.fileExists(atPath: full, isDirectory: &entryIsDirectory)
            if let (folder, ext) = confFolders.first(where: { $0.folder == entry }), entryIsDirectory.boolValue {
                for name in ((try? files.contentsOfDirectory(atPath: full)) ?? []).sorted() {
                    let relative = "\(folder)/\(name)"
                    var sub: ObjCBool = false
                    _ = files.fileExists(atPath: "\(full)/\(name)", isDirectory: &sub)
                    if excluded(relative) {
                        listing.log.append("openhabConf: left out \(relative) (exclude)")
                    } else if sub.boolValue {
                        listing.log.append("openhabConf: ignored \(relative)/: openHAB reads no subfolder of \(folder)/")
                    } else if name.hasPrefix(".") || !name.hasSuffix("." + ext) || name == "." + ext {
                        listing.log.append("openhabConf: ignored \(relative): openHAB's folder watcher takes only *.\(ext) files in \(folder)/")
                    } else {
                        let path = prefix + relative
                        switch folder {
                        case "items": listing.itemFiles.append(path)
                        case "things": listing.thingFiles.append(path)
                        case "rules": listing.ruleFiles.append(path)
                        case "scripts": listing.scriptFiles.append(path)
                        default: listing.persistFiles.append(path)
                        }
                    }
                }
            } else if entry == "transform", entryIsDirectory.boolValue {
                for name in ((try? files.contentsOfDirectory(atPath: full)) ?? []).sorted() {
                    let relative = "transform/\(name)"
                    if excluded(relative) {
                        listing.log.append("openhabConf: left out \(relative) (exclude)")
                    } else if TransformFile.kind(ofFileNamed: name) != nil, !name.hasPrefix(".") {
                        listing.transformFiles.append(prefix + relative)
                    } else {
                        listing.log.append("openhabConf: ignored \(relative): the twin reads MAP (.map) and SCALE (.scale) transformations")
                    }
                }
            } else if entry == "automation", entryIsDirectory.boolValue {
                // Scripts below automation/: automation/js's JavaScript runs (as `.js` rule files do); the others are
                // named in one notice.
                let enumerator = files.enumerator(atPath: full)
                var found: [String] = []
                while let next = enumerator?.nextObject() as? String {
                    var sub: ObjCBool = false
                    _ = files.fileExists(atPath: "\(full)/\(next)", isDirectory: &sub)
                    if !sub.boolValue { found.append("automation/\(next)") }
                }
                for relative in found.sorted() {
                    if excluded(relative) {
                        listing.log.append("openhabConf: left out \(relative) (exclude)")
                    } else if relative.hasPrefix("automation/js/"), relative.contains("/node_modules/") {
                        listing.log.append("openhabConf: \(relative) is a module, loaded when a script requires it")
                    } else if relative.hasPrefix("automation/js/"), relative.hasSuffix(".js") {
                        listing.javaScriptFiles.append(prefix + relative)
                    } else if let ext = relative.split(separator: ".").last.map(String.init), foreignScripts[ext] != nil {
                        unsupported.append(relative)
                    } else {
                        listing.log.append("openhabConf: ignored \(relative): not a script openHAB's automation add-ons load")
                    }
                }
            } else if !entry.hasPrefix(".") {
                listing.log.append("openhabConf: not read \(entry)\(entryIsDirectory.boolValue ? "/" : ""): the twin reads items/, things/, rules/, scripts/, persistence/ and transform/")
            }
        }
        // An .items file openHAB refuses (any problem its parser reports) is skipped with warnings; the rest load.
        listing.itemFiles = listing.itemFiles.filter { path in
            let resolved = resolvedSidePath(path, scenarioFile: field.issues.file)
            guard let bytes = readConfBytes(field, resolved) else { return false }
            let result = ItemsFileParser.parse(bytes: bytes, file: resolved)
            guard !result.issues.isEmpty else { return true }
            let fileIssues = IssueCollector(file: resolved, strict: field.issues.strict)
            for issue in result.issues {
                fileIssues.warning("", line: issue.line, "column \(issue.column): \(issue.code.rawValue): \(issue.message) — openHAB refuses this file; it is skipped, the rest loads.",
                                   hint: issue.hint)
            }
            field.issues.absorb(fileIssues)
            return false
        }
        if !unsupported.isEmpty {
            let languages = Set(unsupported.compactMap { $0.split(separator: ".").last.flatMap { foreignScripts[String($0)] } }).sorted()
            field.issues.notice(field.path, line: field.node.line,
                                "\(unsupported.count) script(s) in \(languages.joined(separator: ", ")) are not run: the twin runs Rules DSL and JavaScript (automation/js) only: \(unsupported.prefix(20).joined(separator: ", "))\(unsupported.count > 20 ? ", …" : "").",
                                hint: "automate what the scenario checks in Rules DSL or JavaScript, or leave these out with \"exclude\".")
        }
        return listing
    }

    /// A file key's array (`itemFiles`, …) with the conf directory's files appended (written at `openhabConf`).
    static func joined(_ root: ObjectReader, _ key: String, _ extra: [String]?) -> Field? {
        let own = root.optional(key)
        guard let extra, !extra.isEmpty else { return own }
        let at = root.value("openhabConf")?.node ?? JSONNode(value: .null, line: root.line, column: 1)
        let added = extra.map { JSONNode(value: .string($0), line: at.line, column: at.column) }
        guard let own else {
            return Field(node: JSONNode(value: .array(added), line: at.line, column: at.column), path: "openhabConf", issues: root.field.issues)
        }
        guard case .array(let elements) = own.node.value else { return own }  // the key's own problem is reported
        return Field(node: JSONNode(value: .array(elements + added), line: own.node.line, column: own.node.column), path: key, issues: own.issues)
    }

    /// The conf directory's `.rules`, `.things` and `.persist` files. A file openHAB refuses to load (a syntax
    /// error, openHAB 2's Joda-Time or `receivedEvent.getEvent`, a function no openHAB 3+ core or add-on defines, an
    /// Item no `.items` file declares named in a rule's body) is skipped with a located warning, as openHAB logs it
    /// and loads the rest; a construct openHAB accepts and the twin cannot run stays an error.
    /// - Parameter knownItems: every Item the scenario has (its `.items` files', `items`' and its devices').
    static func decodeOpenHABConf(_ listing: ConfListing, scripts: DSLScripts, knownItems: Set<String>) -> ConfLoaded {
        let field = Field(node: listing.node, path: listing.path, issues: listing.issues)
        var loaded = ConfLoaded()
        for path in listing.ruleFiles {
            let resolved = resolvedSidePath(path, scenarioFile: field.issues.file)
            guard let text = readConfText(field, resolved) else { continue }
            let (rules, problems, warnings) = DSLCompiler.compileAll(text, file: resolved, scripts: scripts)
            let fileIssues = IssueCollector(file: resolved, strict: field.issues.strict)
            if !problems.contains(where: DSLCompiler.openHABRefuses) {
                for warning in warnings { RuleScripts.report(warning, file: resolved, issues: fileIssues, asWarning: true) }
            }
            let undefined = problems.isEmpty ? undefinedItems(rules, known: knownItems) : []
            if problems.contains(where: DSLCompiler.openHABRefuses) {
                let scratch = IssueCollector(file: resolved)
                for problem in problems { RuleScripts.report(problem, file: resolved, issues: scratch) }
                for issue in scratch.issues {
                    fileIssues.warning("", line: issue.line, "\(issue.message) — openHAB refuses this file too; it is skipped, the rest loads.",
                                       hint: issue.hint)
                }
            } else if !problems.isEmpty, problems.allSatisfy({ $0.code.rawValue.hasPrefix("rules.cron") }) {
                // openHAB loads the file; a rule whose cron its scheduler cannot read stays UNINITIALIZED (never runs).
                // The twin leaves that rule out and runs the others.
                let scratch = IssueCollector(file: resolved)
                for problem in problems { RuleScripts.report(problem, file: resolved, issues: scratch) }
                for issue in scratch.issues {
                    fileIssues.warning("", line: issue.line, "\(issue.message) — openHAB leaves this rule UNINITIALIZED (it never runs); the twin leaves it out, the file's other rules load.",
                                       hint: issue.hint)
                }
                loaded.ruleFiles.append(resolved)
                loaded.rules += rules
            } else if !undefined.isEmpty {
                // Xbase links a bare Item name against the Item registry: "The method or field X is undefined", and
                // openHAB ignores the file (an Item made in the UI lives in its JSON database, which the twin does not read).
                for (rule, name) in undefined {
                    fileIssues.warning("", line: rule.source.split(separator: ":").last.flatMap { Int($0) }, "rule \(UserText.quoted(rule.name)) names the Item \(UserText.quoted(name)), which no .items file declares (rules.unknownItem) — openHAB refuses this file too (\"The method or field \(name) is undefined\"); it is skipped, the rest loads.",
                                       hint: Suggestion.closest(to: name, in: Array(knownItems)).map { "did you mean \"\($0)\"?" }
                                        ?? "declare the Item in items/*.items (openHAB keeps an Item made in the UI in its JSON database, which the twin does not read).")
                }
            } else {
                for problem in problems { RuleScripts.report(problem, file: resolved, issues: fileIssues) }
                loaded.ruleFiles.append(resolved)
                loaded.rules += rules
            }
            field.issues.absorb(fileIssues)
        }
        var thingAt: [String: String] = [:]
        var repeated = 0
        for path in listing.thingFiles {
            let resolved = resolvedSidePath(path, scenarioFile: field.issues.file)
            guard let bytes = readConfBytes(field, resolved) else { continue }
            let result = ThingsFileParser.parse(bytes: bytes, file: resolved)
            let fileIssues = IssueCollector(file: resolved, strict: field.issues.strict)
            for notice in result.notices where result.issues.isEmpty {
                fileIssues.notice("", line: notice.line, "column \(notice.column): \(notice.code.rawValue): \(notice.message)", hint: notice.hint)
            }
            if !result.issues.isEmpty {
                for issue in result.issues {
                    fileIssues.warning("", line: issue.line, "column \(issue.column): \(issue.code.rawValue): \(issue.message) — openHAB refuses this file; it is skipped, the rest loads.",
                                       hint: issue.hint)
                }
                field.issues.absorb(fileIssues)
                continue
            }
            for thing in result.things {
                if let first = thingAt[thing.uid] {
                    repeated += 1
                    guard repeated <= ThingsFileParser.maxIssues else { continue }
                    fileIssues.notice("", line: thing.line, "column \(thing.column): things.duplicate: the Thing \(UserText.quoted(thing.uid)) is already declared in \(first); openHAB keeps the first it loads, and so does the twin.")
                    continue
                }
                thingAt[thing.uid] = resolved
                loaded.things.append(thing)
            }
            loaded.thingFiles.append(resolved)
            field.issues.absorb(fileIssues)
        }
        for path in listing.persistFiles {
            let resolved = resolvedSidePath(path, scenarioFile: field.issues.file)
            guard let bytes = readConfBytes(field, resolved) else { continue }
            var result = PersistenceFileParser.parse(bytes: bytes, file: resolved)
            for cron in result.definition.cronStrategies {
                do throws(RulesError) { _ = try CronExpression(cron.cron) } catch {
                    result.issues.append(PersistenceFileIssue(.invalidCron, file: resolved, line: cron.line, column: cron.column,
                                                              "the cron strategy \(cron.name) is no cron expression openHAB reads: \(error.message)",
                                                              hint: "six or seven fields, such as \"0 0 * * * ?\" (every hour)."))
                }
            }
            let fileIssues = IssueCollector(file: resolved, strict: field.issues.strict)
            if !result.issues.isEmpty {
                for issue in result.issues {
                    fileIssues.warning("", line: issue.line, "column \(issue.column): \(issue.code.rawValue): \(issue.message) — openHAB refuses this file; it is skipped, the rest loads.",
                                       hint: issue.hint)
                }
                field.issues.absorb(fileIssues)
                continue
            }
            loaded.persistFiles.append(resolved)
            loaded.persistenceServices.append(result.definition)
        }
        return loaded
    }

    /// openHAB's default persistence where a conf directory configures none: the rrd4j service (installed with
    /// openHAB) persists every Item on every change and every minute and restores it on start-up (its
    /// `getDefaultStrategies`). Said once as a notice.
    static func defaultRRD4J(_ field: Field) -> PersistenceFileDefinition {
        let text = """
            Strategies { everyMinute : "0 * * * * ?" }
            Items { * : strategy = everyChange, everyMinute, restoreOnStartup }
            """
        let parsed = PersistenceFileParser.parse(bytes: Array(text.utf8), file: "rrd4j")
        precondition(parsed.issues.isEmpty, "the default rrd4j configuration parses")
        var definition = parsed.definition
        definition.service = "rrd4j"
        field.issues.notice(field.path, line: field.node.line,
                            "no persistence/*.persist and no \"persistence\": openHAB's default service rrd4j persists every Item on every change and every minute and restores it on start-up; so does the twin.",
                            hint: "write persistence/rrd4j.persist (or another service's file) to persist less, or differently.")
        return definition
    }

    /// The Items a rule's body (its conditions and actions) names that `known` does not have, first per rule, each
    /// name once. A trigger's Item is left out: openHAB loads a trigger on an Item it does not have (it never fires).
    static func undefinedItems(_ rules: [Rule], known: Set<String>) -> [(rule: Rule, name: String)] {
        var found: [(rule: Rule, name: String)] = []
        var told = Set<String>()
        for rule in rules {
            var names: [String] = []
            for condition in rule.conditions { if case .script(let script) = condition.kind { names += script.referencedItems } }
            for action in rule.actions { if case .script(let script) = action.kind { names += script.referencedItems } }
            for name in names where !known.contains(name) && told.insert(name).inserted { found.append((rule, name)) }
        }
        return found
    }

    /// Items linked to channels of Things no `.things` file declares (a UI-managed Thing, a binding's auto-discovered
    /// one): openHAB runs them as the Thing is (ONLINE: optimistic autoupdate); the twin runs them as virtual Items,
    /// and says so once.
    static func noteUnknownThings(_ field: Field, items: [VirtualItemSpec], things: [ThingDefinition]) {
        let declared = Set(things.map(\.uid))
        var unknown: [String] = []
        var thingUIDs: Set<String> = []
        for spec in items {
            for link in spec.definition?.channels ?? [] where !link.uid.hasPrefix("twin:") {
                guard let uid = try? ChannelUID(link.uid), !declared.contains(uid.thingUID.rawValue) else { continue }
                unknown.append(spec.name)
                thingUIDs.insert(uid.thingUID.rawValue)
                break
            }
        }
        guard !unknown.isEmpty else { return }
        let shown = thingUIDs.sorted()
        field.issues.notice(field.path, line: field.node.line,
                            "\(unknown.count) Item(s) link to channels of \(shown.count) Thing(s) no .things file declares (\(shown.prefix(5).joined(separator: ", "))\(shown.count > 5 ? ", …" : "")): the twin runs them as virtual Items (commands update them), as openHAB does while such a Thing (UI-managed, in its JSON database) is ONLINE.",
                            hint: "declare the Things in things/*.things to have their status, faults and Thing triggers.")
    }

    private static func readConfBytes(_ f: Field, _ resolved: String) -> [UInt8]? {
        if let text = f.issues.sideFiles[resolved] { return Array(text.utf8) }  // the fuzzer's mutant
        let attributes = try? FileManager.default.attributesOfItem(atPath: resolved)
        guard let size = attributes?[.size] as? Int else {
            f.problem("cannot read \(resolved).")
            return nil
        }
        guard size <= maxSideFileBytes, let data = FileManager.default.contents(atPath: resolved) else {
            f.problem("cannot read \(resolved): over \(maxSideFileBytes) bytes, or unreadable.")
            return nil
        }
        return [UInt8](data)
    }

    private static func readConfText(_ f: Field, _ resolved: String) -> String? {
        guard let bytes = readConfBytes(f, resolved) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            f.problem("\(resolved) is not UTF-8 text.")
            return nil
        }
        return text
    }
}
