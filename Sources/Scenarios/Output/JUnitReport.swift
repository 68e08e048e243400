import Reports
import ScenarioFormat

/// JUnit XML for CI: one `testcase` per scenario file; failed expectations become `failure`
/// elements with their messages, invalid files `error` elements with every problem.
///
/// Wall-clock times are left out on purpose: the file is byte-identical from run to run and
/// between `--jobs 1` and `--jobs N`.
public enum JUnitReport {
    /// The XML document for a suite run.
    public static func xml(suiteName: String, entries: [SuiteRunner.Entry]) -> String {
        let failures = entries.filter { if case .ran(let r) = $0.outcome { !r.passed } else { false } }.count
        let errors = entries.count - failures - entries.filter { if case .ran(let r) = $0.outcome { r.passed } else { false } }.count
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        let counts = "tests=\"\(entries.count)\" failures=\"\(failures)\" errors=\"\(errors)\""
        lines.append("<testsuites name=\"rental-twin\" \(counts)>")
        lines.append("  <testsuite name=\"\(XMLText.escape(suiteName))\" \(counts)>")
        for entry in entries {
            let name: String
            switch entry.outcome {
            case .ran(let result): name = result.scenario.name
            case .failed: name = entry.path
            }
            let open = "    <testcase classname=\"\(XMLText.escape(suiteName))\" name=\"\(XMLText.escape(entry.path)): \(XMLText.escape(name))\""
            switch entry.outcome {
            case .ran(let result) where result.passed:
                lines.append(open + "/>")
            case .ran(let result):
                lines.append(open + ">")
                let summary = "\(result.failures.count) expectation\(result.failures.count == 1 ? "" : "s") failed"
                let body = result.failures.map(\.description).joined(separator: "\n")
                lines.append("      <failure message=\"\(XMLText.escape(summary))\" type=\"expectation\">\(XMLText.escape(body))</failure>")
                lines.append("    </testcase>")
            case .failed(let error):
                lines.append(open + ">")
                lines.append("      <error message=\"\(XMLText.escape(error.message))\" type=\"\(error.code.rawValue)\">\(XMLText.escape(error.explanation))</error>")
                lines.append("    </testcase>")
            }
        }
        lines.append("  </testsuite>")
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }
}
