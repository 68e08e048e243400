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
        let (rules, problems) = DSLCompiler.compileAll(text, file: file, scripts: scripts)
        for error in problems { report(error, file: file, issues: issues) }
        return rules
    }

    /// A located problem of a DSL file as an issue: `file:line:column: what` → the issue's own file and line,
    /// and "column N: what".
    static func report(_ error: RulesError, file: String, issues: IssueCollector) {
        let rest = !file.isEmpty && error.message.hasPrefix(file + ":") ? error.message.dropFirst(file.count + 1) : Substring(error.message)
        let parts = rest.split(separator: ":", maxSplits: 2)
        if parts.count == 3, let line = Int(parts[0]), let column = Int(parts[1]) {
            issues.add("", line: line, "column \(column):\(parts[2])", hint: error.hint)
        } else {
            issues.add("", line: nil, error.message, hint: error.hint)
        }
    }
}
