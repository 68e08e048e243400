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

    /// The rules of a `.rules` file.
    static func loadDSLFile(_ text: String, file: String, issues: IssueCollector) -> [Rule] {
        do {
            return try DSLCompiler.compile(text, file: file)
        } catch {
            issues.add("", line: nil, error.message, hint: error.hint)
            return []
        }
    }
}
