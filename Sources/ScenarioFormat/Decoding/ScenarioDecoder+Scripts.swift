import Rules
import Simulation

extension ScenarioDecoder {
    /// `scriptFiles`: openHAB script files (`scripts/<name>.script`, a Rules DSL body) relative to the
    /// scenario, which rules run with `callScript("<name>")`. Every problem of a script is reported, located.
    /// A script of the `openhabConf` directory (`confFiles`, as listed) with a problem is left out with located
    /// warnings instead, as a refused `.rules` file is: openHAB refuses it too (a syntax error, openHAB 2's API),
    /// or openHAB loads it and the twin cannot run it — then nothing runs it unless a rule calls it, and such a
    /// call is refused (`rules.dslUnknownScript`), so the construct never runs unseen.
    static func decodeScriptFiles(_ field: Field, confFiles: Set<String> = []) -> DSLScripts? {
        guard let list = field.array else { return nil }
        var files: [(file: String, text: String)] = []
        var names: [String: String] = [:]
        var fromConf = Set<String>()
        for f in list {
            guard let path = f.name else { continue }
            guard path.lowercased().hasSuffix(".script") else {
                f.problem("\(UserText.quoted(path)) is not a .script file.", hint: "name openHAB script files *.script, e.g. \"scripts/lights-off.script\".")
                continue
            }
            guard let text = readSideFile(f, path: path, what: "script", example: "scripts/lights-off.script") else { continue }
            let resolved = resolvedSidePath(path, scenarioFile: field.issues.file)
            let name = DSLScripts.name(ofFile: resolved)
            if let other = names[name] {
                f.problem("\(UserText.quoted(path)) has the same script name \(UserText.quoted(name)) as \(UserText.quoted(other)).",
                          hint: "callScript finds a script by its file name: give each script file its own name.")
                continue
            }
            names[name] = path
            files.append((resolved, text))
            if confFiles.contains(path) { fromConf.insert(resolved) }
        }
        let (scripts, problems) = DSLScripts.compile(files)
        var byFile: [String: [RulesError]] = [:]
        for error in problems {
            byFile[files.first { error.message.hasPrefix($0.file + ":") }?.file ?? "", default: []].append(error)
        }
        for file in [""] + files.map(\.file) {
            guard let fileProblems = byFile[file] else { continue }
            let issues = IssueCollector(file: file.isEmpty ? field.issues.file : file, strict: field.issues.strict)
            if fromConf.contains(file) {
                let refused = fileProblems.contains(where: DSLCompiler.openHABRefuses)
                let scratch = IssueCollector(file: file)
                for error in fileProblems { RuleScripts.report(error, file: file, issues: scratch) }
                for issue in scratch.issues {
                    issues.warning("", line: issue.line, issue.message + (refused
                        ? " — openHAB refuses this script too; it is skipped, the rest loads."
                        : " — the twin cannot run this script, so it leaves it out; a rule that calls it is refused (rules.dslUnknownScript)."),
                                   hint: issue.hint)
                }
            } else {
                for error in fileProblems { RuleScripts.report(error, file: file, issues: issues) }
            }
            field.issues.absorb(issues)
        }
        return scripts
    }
}
