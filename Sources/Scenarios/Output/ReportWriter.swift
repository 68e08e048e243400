import Foundation
import Reports
import Simulation

/// Writes a run's reports into a directory: `energy-daily.csv`, `stays.csv`, `timeseries.csv` and
/// one `chart-<listing>.svg` per listing. Every file is written to a temporary name and renamed into
/// place, so a failed run never leaves a half-written report behind.
public enum ReportWriter {
    /// Writes every report of `result` into `directory` (created if needed).
    /// - Parameter interval: the timeseries interval the run recorded with.
    /// - Returns: the names of the files written, in writing order.
    /// - Throws: ``ScenarioError`` `scenario.reportFailed`.
    @discardableResult
    public static func write(_ result: ScenarioResult, to directory: String, interval: SimDuration) throws(ScenarioError) -> [String] {
        let files = try render(result, interval: interval)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ScenarioError(.reportFailed, "cannot create the report directory \(directory): \(error.localizedDescription)", file: result.scenario.file)
        }
        for (name, text) in files { try writeAtomically(text, to: "\(directory)/\(name)") }
        return files.map(\.name)
    }

    /// Builds every report of `result` in memory, in writing order: what ``write(_:to:interval:)`` writes.
    /// - Throws: ``ScenarioError`` `scenario.reportFailed`.
    public static func render(_ result: ScenarioResult, interval: SimDuration) throws(ScenarioError) -> [(name: String, text: String)] {
        let scenario = result.scenario
        let ledger = result.ledger
        var files: [(name: String, text: String)] = []
        do {
            files.append(("energy-daily.csv", try EnergyDailyReport.csv(ledger: ledger, calendar: scenario.calendar,
                                                                        start: scenario.start, end: scenario.end)))
            files.append(("stays.csv", try StaysReport.csv(ledger: ledger, stays: result.stays, start: scenario.start, end: scenario.end)))
            files.append(("timeseries.csv", try TimeseriesReport.csv(ledger: ledger, listings: scenario.listings.map(\.id),
                                                                     interval: interval, start: scenario.start, end: scenario.end,
                                                                     calendar: scenario.calendar)))
            for listing in scenario.listings.map(\.id).sorted() {
                let stays = result.stays.filter { $0.listing == listing }
                files.append(("chart-\(listing).svg", try ListingChart.svg(listing: listing, ledger: ledger, stays: stays,
                                                                           calendar: scenario.calendar, start: scenario.start,
                                                                           end: scenario.end)))
            }
        } catch {
            throw ScenarioError(.reportFailed, "cannot build the reports of \(scenario.file): \(error.message)", file: scenario.file)
        }
        return files
    }

    /// Writes `text` to `path` via a temporary file in the same directory and a rename.
    /// - Throws: ``ScenarioError`` `scenario.reportFailed`.
    public static func writeAtomically(_ text: String, to path: String) throws(ScenarioError) {
        let temporary = "\(path).partial"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw ScenarioError(.reportFailed, "cannot write \(path): \(error.localizedDescription)", file: path)
        }
    }
}
