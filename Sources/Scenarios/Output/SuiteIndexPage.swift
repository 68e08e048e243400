import Rules
import ScenarioFormat

/// `index.html` at the top of `suite --report DIR`: one row per scenario file (PASS, FAIL, INVALID or
/// ERROR, simulated duration, steps, expectations, its failures, a link to its own page), and with
/// `--coverage` the rule files' coverage over the whole suite with every rule no scenario started.
/// Deterministic and self-contained, as ``ReportPage``.
public enum SuiteIndexPage {
    /// One scenario file's row.
    public struct Row: Sendable {
        public let path: String
        /// The page's directory below the suite's report directory (`winter/01-weekend`); `nil` when no page was written.
        public let pageDirectory: String?
        public let outcome: SuiteRunner.Outcome

        public init(path: String, pageDirectory: String?, outcome: SuiteRunner.Outcome) {
            self.path = path
            self.pageDirectory = pageDirectory
            self.outcome = outcome
        }
    }

    /// The page over `rows` (in their order) for the suite of `directory`; `coverage` the merged rule coverage.
    public static func html(directory: String, rows: [Row], coverage: [RuleFileCoverage]?) -> String {
        let e = HTMLPage.escape
        var passed = 0, failed = 0
        for row in rows {
            if case .ran(let result) = row.outcome, result.passed { passed += 1 } else { failed += 1 }
        }
        var page = HTMLPage.open(title: "\(failed == 0 ? "PASS" : "FAIL") — suite \(directory)")
        page += "<h1>Suite \(e(directory))</h1>\n<p><span id=\"verdict\" class=\"verdict \(failed == 0 ? "pass" : "fail")\">"
        page += "\(passed) passed, \(failed) failed</span></p>\n"
        // What failed first, so it is on the first screen however long the suite.
        let failing = rows.filter { if case .ran(let result) = $0.outcome { !result.passed } else { true } }
        if !failing.isEmpty {
            page += "<div class=\"failure\" id=\"failed\"><p><b>Failed:</b></p><ul>\n"
            for row in failing {
                let link = row.pageDirectory.map { "<a href=\"\(HTMLPage.href($0 + "/" + ReportPage.fileName))\">\(e(row.path))</a>" } ?? e(row.path)
                switch row.outcome {
                case .ran(let result):
                    page += "<li>\(link): " + result.failures.prefix(5).map { "\(e($0.path)) at \(e($0.at)): expected \(e($0.expected)); "
                        + "actual <span class=\"actual\">\(e($0.actual))</span>" }.joined(separator: "; ")
                    page += result.failures.count > 5 ? "; … \(result.failures.count - 5) more</li>\n" : "</li>\n"
                case .failed(let error):
                    page += "<li>\(link): \(error.code == .invalid ? "invalid" : "error"): \(e(error.message))</li>\n"
                }
            }
            page += "</ul></div>\n"
        }
        page += "<table id=\"scenarios\"><tr><th>result</th><th>scenario</th><th>name</th><th>simulated</th><th>steps</th>"
        page += "<th>expectations</th><th>failures</th></tr>\n"
        for row in rows {
            let link = row.pageDirectory.map { "<a href=\"\(HTMLPage.href($0 + "/" + ReportPage.fileName))\">\(e(row.path))</a>" } ?? e(row.path)
            switch row.outcome {
            case .ran(let result):
                page += "<tr class=\"\(result.passed ? "passed" : "failed")\"><td class=\"s\">\(result.passed ? "PASS" : "FAIL")</td><td>\(link)</td>"
                page += "<td>\(e(result.scenario.name))</td><td class=\"n\">\(duration(result.simulatedSeconds))</td>"
                page += "<td class=\"n\">\(result.stepsRun)</td><td class=\"n\">\(result.expectationsChecked)</td><td>"
                page += result.failures.map { "\(e($0.path)) at \(e($0.at)): expected \(e($0.expected)); actual <b>\(e($0.actual))</b>" }
                    .joined(separator: "<br>")
                page += "</td></tr>\n"
            case .failed(let error):
                page += "<tr class=\"failed\"><td class=\"s\">\(error.code == .invalid ? "INVALID" : "ERROR")</td><td>\(e(row.path))</td>"
                page += "<td colspan=\"5\">\(e(error.message))</td></tr>\n"
            }
        }
        page += "</table>\n"
        if let coverage {
            page += "<h2 id=\"coverage\">Rule coverage over the suite</h2>\n"
            if coverage.isEmpty {
                page += "<p class=\"meta\">No scenario loads a rule file.</p>\n"
            } else {
                page += ReportPage.coverageTable(coverage)
                let never = coverage.flatMap { file in file.rulesNeverStarted.map { (file.file, $0) } }
                page += never.isEmpty ? "<p>Every rule was started by some scenario.</p>\n"
                    : "<p>Rules no scenario started:</p>\n<ul id=\"never-started\">"
                        + never.map { "<li><code>\(e($0.0)):\($0.1.line)</code> \"\(e(Rule.shown($0.1.name)))\"</li>" }.joined() + "</ul>\n"
                for file in coverage where !file.linesNeverRun.isEmpty {
                    page += "<p><code>\(e(file.file))</code>: lines never run: \(ReportPage.lineRanges(file.linesNeverRun)).</p>\n"
                }
            }
        }
        return page + HTMLPage.close
    }

    /// `72 h`, `30 d`, `45 min` of simulated time.
    static func duration(_ seconds: Double) -> String {
        if seconds >= 4 * 86_400 { return ReportPage.number((seconds / 86_400 * 10).rounded() / 10) + " d" }
        if seconds >= 3600 { return ReportPage.number((seconds / 3600 * 10).rounded() / 10) + " h" }
        return ReportPage.number((seconds / 60).rounded()) + " min"
    }
}
