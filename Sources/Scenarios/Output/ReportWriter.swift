import Foundation
import Reports
import Simulation

/// Writes a run's reports into a directory: `energy-daily.csv`, `stays.csv`, `timeseries.csv`,
/// `kpi.csv`, and per listing `chart-<listing>.svg` and `calendar-<listing>.ics`, all or none (``OutputFiles``): a failed write never leaves
/// a half-written or partial set of reports behind, and nothing that is not a report file is replaced.
public enum ReportWriter {
    /// Writes every report of `result` into `directory` (created if needed).
    /// - Parameter interval: the timeseries interval the run recorded with.
    /// - Returns: the names of the files written, in writing order.
    /// - Throws: ``ScenarioError`` `scenario.reportFailed` when a report cannot be built,
    ///   `scenario.writeFailed` when the files cannot be written.
    @discardableResult
    public static func write(_ result: ScenarioResult, to directory: String, interval: SimDuration) throws(ScenarioError) -> [String] {
        let files = try contents(result, interval: interval)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ScenarioError(.writeFailed, "cannot create the report directory \(directory): \(error.localizedDescription)", file: directory)
        }
        try OutputFiles.write(files.map { (path: "\(directory)/\($0.name)", content: $0.content) })
        return files.map(\.name)
    }

    /// Builds every report of `result` in memory, in writing order: what ``write(_:to:interval:)`` writes.
    /// - Throws: ``ScenarioError`` `scenario.reportFailed`.
    public static func render(_ result: ScenarioResult, interval: SimDuration) throws(ScenarioError) -> [(name: String, text: String)] {
        var files: [(name: String, text: String)] = []
        for file in try contents(result, interval: interval) { files.append((file.name, try file.content.wholeText())) }
        return files
    }

    /// Every report of `result`, in writing order; `timeseries.csv` (the one whose size grows with the
    /// run's length and the number of listings) is handed out in pieces as it is written.
    static func contents(_ result: ScenarioResult, interval: SimDuration) throws(ScenarioError) -> [(name: String, content: OutputFiles.Content)] {
        let scenario = result.scenario
        let ledger = result.ledger
        var files: [(name: String, content: OutputFiles.Content)] = []
        func failed(_ error: ReportsError) -> ScenarioError {
            ScenarioError(.reportFailed, "cannot build the reports of \(scenario.file): \(error.message)", file: scenario.file)
        }
        do {
            files.append(("energy-daily.csv", .text(try EnergyDailyReport.csv(ledger: ledger, calendar: scenario.calendar,
                                                                        start: scenario.start, end: scenario.end))))
            files.append(("stays.csv", .text(try StaysReport.csv(ledger: ledger, stays: result.stays, start: scenario.start, end: scenario.end))))
            files.append(("timeseries.csv", .pieces { piece throws(ScenarioError) in
                do throws(ReportsError) {
                    try TimeseriesReport.write(ledger: ledger, listings: scenario.listings.map(\.id), interval: interval,
                                               start: scenario.start, end: scenario.end, calendar: scenario.calendar, piece: piece)
                } catch {
                    throw failed(error)
                }
            }))
            var heaters: [String: Set<String>] = [:]
            for listing in scenario.listings {
                heaters[listing.id] = Set(listing.devices.compactMap { device in
                    if case .heating = device.kind { return device.id } else { return nil }
                })
            }
            files.append(("kpi.csv", .text(try KPIReport.csv(ledger: ledger, listings: scenario.listings.map(\.id), stays: result.stays,
                                                       heaters: heaters, tariff: scenario.tariff, co2KgPerKWh: scenario.co2KgPerKWh,
                                                       interval: interval, start: scenario.start, end: scenario.end,
                                                       calendar: scenario.calendar))))
            var chartNames = Set<String>(), calendarNames = Set<String>()
            for listing in scenario.listings.map(\.id).sorted() {
                let stays = result.stays.filter { $0.listing == listing }
                files.append((listingFileName("chart", listing, "svg", taken: &chartNames),
                              .text(try ListingChart.svg(listing: listing, ledger: ledger, stays: stays, calendar: scenario.calendar,
                                                   start: scenario.start, end: scenario.end))))
                files.append((listingFileName("calendar", listing, "ics", taken: &calendarNames),
                              .text(StayCalendar.ics(listing: listing, stays: stays, stamp: scenario.end))))
            }
        } catch {
            throw failed(error)
        }
        return files
    }

    /// `<kind>-<listing>.<ext>` (`chart-flat-1.svg`), with every character a file name cannot safely hold
    /// (`/`, control characters, …) replaced by `_`, and `-2`, `-3`, … where two listings would share a name.
    public static func listingFileName(_ kind: String, _ listing: String, _ ext: String, taken: inout Set<String>) -> String {
        let safe = String(String.UnicodeScalarView(listing.unicodeScalars.map { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "-_.".unicodeScalars.contains(scalar) ? scalar : "_"
        }))
        var name = "\(kind)-\(safe).\(ext)", counter = 1
        while !taken.insert(name).inserted {
            counter += 1
            name = "\(kind)-\(safe)-\(counter).\(ext)"
        }
        return name
    }
}
