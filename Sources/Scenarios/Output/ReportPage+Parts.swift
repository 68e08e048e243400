import Foundation
import ScenarioFormat
import Simulation

extension ReportPage {
    /// The page of a run made of parts (`run` of a portfolio on several cores, `merge`), written after the
    /// merged reports into `directory`: the verdict, every expectation, each failure with its expected and
    /// actual values, the charts (read from the merged SVG files, within the byte budget, the rest linked),
    /// the KPI table (from the merged `kpi.csv`) and the log's lines when the parts kept it (`--log`). The
    /// parts' worlds are gone by then, so the timeline's filters, the events around a failure and the
    /// outbox table are only on the page of a run in one world.
    /// - Throws: ``ScenarioError`` `scenario.reportFailed` when a merged report cannot be read back.
    public static func html(summary: RunSummary, scenario: Scenario, files: [String], directory: String,
                            parts: Int) throws(ScenarioError) -> String {
        let e = HTMLPage.escape
        let calendar = scenario.calendar
        var failedPaths: [String: ScenarioFailure] = [:]
        for failure in summary.failures where failedPaths[failure.path] == nil { failedPaths[failure.path] = failure }
        let names = Names(scenario, stays: [])
        var page = HTMLPage.open(title: "\(summary.passed ? "PASS" : "FAIL") — \(scenario.name)")
        page += "<header>\n<h1>\(e(scenario.name))</h1>\n"
        page += "<p><span id=\"verdict\" class=\"verdict \(summary.passed ? "pass" : "fail")\">\(summary.passed ? "PASS" : "FAIL")</span> "
        page += "<span class=\"meta\">\(e(scenario.file)) · \(e(calendar.localDateTime(at: scenario.start).description)) to "
        page += "\(e(calendar.localDateTime(at: scenario.end).description)) (\(e(calendar.identifier))) · \(number(summary.simulatedSeconds / 3600)) h simulated · "
        page += "\(summary.stepsRun) step(s) · \(summary.expectationsChecked) expectation(s), \(summary.failures.count) failed · run in \(parts) parts</span></p>\n"
        page += "<nav><a href=\"#expectations\">Expectations</a><a href=\"#charts\">Charts</a><a href=\"#timeline\">Timeline</a>"
        page += "<a href=\"#energy\">KPIs</a><a href=\"#files\">Files</a></nav>\n</header>\n"
        if !summary.failures.isEmpty {
            page += "<section id=\"failures\">\n<h2>\(summary.failures.count) failure(s)</h2>\n"
            for (index, failure) in summary.failures.enumerated() {
                page += "<div class=\"failure\" id=\"failure-\(index + 1)\">\n<p><b>\(e(failure.path))</b>\(failure.line.map { " (line \($0))" } ?? "")"
                page += " at <b>\(e(failure.at))</b></p>\n<p>expected <code>\(e(failure.expected))</code><br>actual <span class=\"actual\">\(e(failure.actual))</span></p>\n</div>\n"
            }
            page += "</section>\n"
        }
        page += expectationsSection(scenario, failures: summary.failures, failedPaths: failedPaths, moments: false)
        let fileSet = Set(files)
        page += try chartsSection(scenario, failedPaths: failedPaths, names: names) { listing throws(ScenarioError) in
            var taken = Set<String>()
            let name = ReportWriter.listingFileName("chart", listing, "svg", taken: &taken)
            guard fileSet.contains(name) else { return nil }
            return try readBack(name, in: directory)
        }
        page += "<h2 id=\"timeline\">Timeline</h2>\n"
        if let log = summary.log {
            page += "<p class=\"meta\">The run went in \(parts) parts; its log (\(log.count) line(s)\(log.count > maxTimelineRows ? ", the first \(maxTimelineRows) shown" : "")):</p>\n<pre>"
            page += log.prefix(maxTimelineRows).map(e).joined(separator: "\n") + "</pre>\n"
        } else {
            page += "<p class=\"meta\">The run went in \(parts) parts, whose worlds are gone: its timeline is in "
                + "<code>rental-twin run \(e(scenario.file)) --log</code>, the measurements in <a href=\"timeseries.csv\">timeseries.csv</a>.</p>\n"
        }
        page += "<h2 id=\"energy\">KPIs</h2>\n<p>Daily energy per device: <a href=\"energy-daily.csv\">energy-daily.csv</a>.</p>\n"
        if fileSet.contains("kpi.csv") { page += kpiTable(try readBack("kpi.csv", in: directory)) }
        page += "<h2 id=\"files\">Files</h2>\n<p>" + files.map { "<a href=\"\(HTMLPage.href($0))\">\(e($0))</a>" }.joined(separator: " · ") + "</p>\n"
        return page + HTMLPage.close
    }

    /// A merged report's text, read back from `directory`.
    private static func readBack(_ name: String, in directory: String) throws(ScenarioError) -> String {
        let path = (directory as NSString).appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError(.reportFailed, "cannot read back \(path) for the report page.", file: path)
        }
        return String(decoding: data, as: UTF8.self)
    }
}
