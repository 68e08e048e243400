import ScenarioFormat
import Simulation

/// The sampling interval of `timeseries.csv` and the charts, named here so that a front end (the
/// command line) needs only this module.
public typealias ReportInterval = SimDuration

/// What a front end needs besides running scenarios: reading a report interval and suggesting the
/// nearest known name for a typo, with the same rules the scenario decoder uses.
public enum CommandLineSupport {
    /// The interval when none is given: 15 minutes.
    public static let defaultReportInterval: ReportInterval = .minutes(15)

    /// An ISO 8601 duration of at least a minute (`PT15M`, `PT1H`), or `nil`.
    public static func reportInterval(_ text: String) -> ReportInterval? {
        guard let value = try? ISODuration.parse(text), value >= .minutes(1) else { return nil }
        return value
    }

    /// The candidate nearest to `word` by edit distance, if it is close enough to be a typo.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        Suggestion.closest(to: word, in: candidates)
    }
}
