import Rules
import ScenarioFormat

/// `--coverage FILE`: the rule files' coverage of one run or a suite as LCOV (``RuleFileCoverage/lcov(_:)``),
/// and the summary lines the command prints.
public enum CoverageReport {
    /// The coverage of every scenario that ran, merged per rule file in path order (the same for any `--jobs`).
    public static func merged(_ entries: [SuiteRunner.Entry]) -> [RuleFileCoverage] {
        RuleFileCoverage.merge(entries.compactMap { entry in
            if case .ran(let result) = entry.outcome { return result.ruleCoverage } else { return nil }
        })
    }

    /// The coverage of one run (none when the run counted nothing).
    public static func of(_ result: ScenarioResult) -> [RuleFileCoverage] {
        RuleFileCoverage.merge([result.ruleCoverage ?? []])
    }

    /// Writes `files` as LCOV to `path` (all or nothing, as every output).
    /// - Throws: ``ScenarioError`` `scenario.writeFailed`.
    public static func write(_ files: [RuleFileCoverage], to path: String) throws(ScenarioError) {
        try OutputFiles.write([(path: path, text: RuleFileCoverage.lcov(files))])
    }

    /// One line of totals, then each rule no run started (`file:line "name"`), control characters escaped.
    public static func summary(_ files: [RuleFileCoverage], file: String) -> String {
        let rules = files.reduce(0) { $0 + $1.functions.count }, started = files.reduce(0) { $0 + $1.functions.filter { $0.count > 0 }.count }
        let lines = files.reduce(0) { $0 + $1.lines.count }, run = files.reduce(0) { $0 + $1.lines.values.filter { $0 > 0 }.count }
        let branches = files.reduce(0) { $0 + $1.branches.count }, taken = files.reduce(0) { $0 + $1.branches.filter { $0.count > 0 }.count }
        var text = "Rule coverage: \(files.count) rule file(s), \(started) of \(rules) rule(s) started, \(run) of \(lines) line(s) run, "
            + "\(taken) of \(branches) branch(es) taken → \(TerminalText.escaped(file))\n"
        for f in files {
            for rule in f.rulesNeverStarted { text += "    never started: \(TerminalText.escaped(f.file)):\(rule.line) \"\(TerminalText.escaped(Rule.shown(rule.name)))\"\n" }
        }
        return text
    }
}
