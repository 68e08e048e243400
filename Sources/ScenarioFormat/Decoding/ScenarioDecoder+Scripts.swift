import Rules
import Simulation

extension ScenarioDecoder {
    /// `scriptFiles`: openHAB script files (`scripts/<name>.script`, a Rules DSL body) relative to the
    /// scenario, which rules run with `callScript("<name>")`. Every problem of a script is reported, located.
    static func decodeScriptFiles(_ field: Field) -> DSLScripts? {
        guard let list = field.array else { return nil }
        var files: [(file: String, text: String)] = []
        var names: [String: String] = [:]
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
        }
        let (scripts, problems) = DSLScripts.compile(files)
        for error in problems {
            let file = files.first { error.message.hasPrefix($0.file + ":") }?.file ?? ""
            let issues = IssueCollector(file: file.isEmpty ? field.issues.file : file)
            RuleScripts.report(error, file: file, issues: issues)
            field.issues.absorb(issues)
        }
        return scripts
    }
}
