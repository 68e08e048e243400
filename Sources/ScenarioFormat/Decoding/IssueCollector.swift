/// Collects every problem found while decoding one file (decoding goes on after a problem so that
/// the user sees them all at once).
final class IssueCollector {
    let file: String
    private(set) var issues: [ScenarioIssue] = []
    /// What openHAB accepts with a warning: located like issues, printed, never a refusal.
    private(set) var notices: [ScenarioIssue] = []
    /// What openHAB refuses with a warning and then loads the rest without (an `openhabConf` file with a
    /// syntax error): located, printed, an issue under `--strict`.
    private(set) var warnings: [ScenarioIssue] = []
    /// Side files read from here instead of the disk: resolved path → text (the fuzzer's mutants).
    let sideFiles: [String: String]
    /// `--strict`: every warning is an issue.
    let strict: Bool
    /// Why the scenario cannot run on this machine at all (a tool it needs is missing: Node.js for `.js`
    /// rules); decoding then ends with `scenario.unavailable` (exit 69), not with the file's problems.
    var unavailable: String?

    init(file: String, sideFiles: [String: String] = [:], strict: Bool = false) {
        self.file = file
        self.sideFiles = sideFiles
        self.strict = strict
    }

    /// Takes over the issues another collector found (a side file's, which name their own file).
    func absorb(_ other: IssueCollector) {
        issues += other.issues
        notices += other.notices
        warnings += other.warnings
        unavailable = unavailable ?? other.unavailable
    }

    /// A warning, or under `--strict` an issue.
    func warning(_ path: String, line: Int?, _ message: String, hint: String? = nil) {
        let issue = ScenarioIssue(file: file, path: path, line: line, message: message, hint: hint)
        if strict { issues.append(issue) } else { warnings.append(issue) }
    }

    func add(_ path: String, line: Int?, _ message: String, hint: String? = nil) {
        issues.append(ScenarioIssue(file: file, path: path, line: line, message: message, hint: hint))
    }

    func notice(_ path: String, line: Int?, _ message: String, hint: String? = nil) {
        notices.append(ScenarioIssue(file: file, path: path, line: line, message: message, hint: hint))
    }
}
