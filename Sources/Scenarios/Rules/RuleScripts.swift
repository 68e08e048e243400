import Rules

/// The Rules DSL glue (temporary until the DSL lands): scripts are refused with a located problem.
enum RuleScripts {
    static func compile(_ source: String, file: String, line: Int, issues: IssueCollector, path: String) -> (any RuleScript)? {
        issues.add(path, line: line, "Rules DSL scripts cannot run yet.")
        return nil
    }

    static func loadDSLFile(_ text: String, file: String, issues: IssueCollector) -> [Rule] {
        issues.add("", line: 1, "Rules DSL files cannot run yet.")
        return []
    }
}
