import Rules

/// Rules DSL files and scripts of a scenario, compiled by the `Rules` module; a problem becomes a located
/// issue of the scenario (the message names the rule file, line and column).
enum RuleScripts {
    /// A UI rule's `script.ScriptAction` / `script.ScriptCondition` body.
    static func compile(_ source: String, file: String, line: Int, issues: IssueCollector, path: String) -> (any RuleScript)? {
        do {
            return try DSLCompiler.compileScript(source, location: "\(file) \(path) (script line")
        } catch {
            issues.add(path, line: line, error.message, hint: error.hint)
            return nil
        }
    }

    /// The rules of a `.rules` file; every problem of the file becomes an issue (a rule with a problem is
    /// not loaded, and its problem says why).
    static func loadDSLFile(_ text: String, file: String, issues: IssueCollector, scripts: DSLScripts = .none) -> [Rule] {
        let (rules, problems, warnings) = DSLCompiler.compileAll(text, file: file, scripts: scripts)
        for error in problems { report(error, file: file, issues: issues) }
        for warning in warnings { report(warning, file: file, issues: issues, asWarning: true) }
        return rules
    }

    /// A located problem of a DSL file as an issue (or, `asWarning`, a warning: an issue under `--strict`):
    /// `file:line:column: what` → the issue's own file and line, and "column N: what".
    static func report(_ error: RulesError, file: String, issues: IssueCollector, asWarning: Bool = false) {
        let rest = !file.isEmpty && error.message.hasPrefix(file + ":") ? error.message.dropFirst(file.count + 1) : Substring(error.message)
        let parts = rest.split(separator: ":", maxSplits: 2)
        let located = parts.count == 3 ? Int(parts[0]).flatMap { line in Int(parts[1]).map { (line, $0) } } : nil
        let line = located?.0
        let message = located.map { "column \($0.1):\(parts[2])" } ?? error.message
        if asWarning {
            issues.warning("", line: line, message, hint: error.hint)
        } else {
            issues.add("", line: line, message, hint: error.hint)
        }
    }
}
