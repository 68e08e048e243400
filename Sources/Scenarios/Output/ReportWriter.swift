import ScenarioFormat
import Foundation
import Reports
import Simulation

/// Writes a run's reports into a directory: `energy-daily.csv`, `stays.csv`, `timeseries.csv`,
/// `kpi.csv`, and per listing `chart-<listing>.svg` and `calendar-<listing>.ics`, all or none (``OutputFiles``): a failed write never leaves
/// a half-written or partial set of reports behind, and nothing that is not a report file is replaced.
public enum ReportWriter {
    /// Writes every report of `result` (a run with a timeseries interval) into `directory` (created if needed).
    /// - Returns: the names of the files written, in writing order.
    /// - Throws: ``ScenarioError`` `scenario.reportFailed` when a report cannot be built,
    ///   `scenario.writeFailed` when the files cannot be written.
    @discardableResult
    public static func write(_ result: ScenarioResult, to directory: String) throws(ScenarioError) -> [String] {
        let files = try contents(result)
        try writeFiles(files, to: directory)
        return files.map(\.name)
    }

    /// Writes every report of `result` and, last, the run's page ``ReportPage`` (`index.html`, linking the
    /// others) into `directory`, all or none.
    /// - Returns: the names of the files written, in writing order.
    /// - Throws: as ``write(_:to:)``.
    @discardableResult
    public static func writeWithPage(_ result: ScenarioResult, to directory: String) throws(ScenarioError) -> [String] {
        var files = try contents(result)
        let names = files.map(\.name)
        files.append((ReportPage.fileName, .pieces { write throws(ScenarioError) in write(try ReportPage.html(result, files: names)) }))
        try writeFiles(files, to: directory)
        return files.map(\.name)
    }

    /// Writes every report of `result` and, last, `record` (``PageRecord/fileName``): what a part of a run
    /// writes, so that the merge of the parts builds the page one run writes.
    /// - Returns: the names of the files written, in writing order.
    /// - Throws: as ``write(_:to:)``.
    @discardableResult
    static func writeWithRecord(_ result: ScenarioResult, record: PageRecord, to directory: String) throws(ScenarioError) -> [String] {
        var files = try contents(result)
        files.append((PageRecord.fileName, .pieces { write in write(record.text) }))
        try writeFiles(files, to: directory)
        return files.map(\.name)
    }

    /// Writes `files` into `directory` (created if needed), all or none; the directories this call
    /// created are removed again when nothing is written.
    static func writeFiles(_ files: [(name: String, content: OutputFiles.Content)], to directory: String) throws(ScenarioError) {
        // The directories this call creates, deepest last: removed again (when empty) if no report is written,
        // since the reports are made while they are written.
        var created: [String] = []
        var missing = directory
        while !missing.isEmpty, missing != "/", OutputFiles.kind(of: missing) == nil {
            created.insert(missing, at: 0)
            missing = parent(of: missing)
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ScenarioError(.writeFailed, "cannot create the report directory \(directory): \(error.localizedDescription)", file: directory)
        }
        do {
            try OutputFiles.write(files.map { (path: "\(directory)/\($0.name)", content: $0.content) })
        } catch {
            for path in created.reversed() { rmdir(path) }
            throw error
        }
    }

    /// Builds every report of `result` in memory, in writing order: what ``write(_:to:)`` writes (which
    /// makes each file as it writes it).
    /// - Throws: ``ScenarioError`` `scenario.reportFailed`.
    public static func render(_ result: ScenarioResult) throws(ScenarioError) -> [(name: String, text: String)] {
        var files: [(name: String, text: String)] = []
        for file in try contents(result) { files.append((file.name, try file.content.wholeText())) }
        return files
    }

    /// What ``writeWithPage(_:to:)`` writes, built in memory: every report, then `index.html`.
    /// - Throws: ``ScenarioError`` `scenario.reportFailed`.
    public static func renderWithPage(_ result: ScenarioResult) throws(ScenarioError) -> [(name: String, text: String)] {
        let files = try render(result)
        return files + [(ReportPage.fileName, try ReportPage.html(result, files: files.map(\.name)))]
    }

    /// Every report of `result`, in writing order: the daily, stay and KPI figures from the ledger's
    /// snapshots at days', stays' and the run's ends, `timeseries.csv` as the run spooled it tick by
    /// tick, charts and the KPIs' cost, peak and cycles as the run's ``ReportStream`` gathered them.
    static func contents(_ result: ScenarioResult) throws(ScenarioError) -> [(name: String, content: OutputFiles.Content)] {
        let scenario = result.scenario
        let ledger = result.ledger
        func failed(_ error: ReportsError) -> ScenarioError {
            ScenarioError(.reportFailed, "cannot build the reports of \(scenario.file): \(error.message)", file: scenario.file)
        }
        guard let reports = result.reports else {
            throw ScenarioError(.reportFailed, "cannot build the reports of \(scenario.file): the run recorded no timeseries; run it with a report directory (--report DIR).", file: scenario.file)
        }
        let stream = reports.stream
        // Each file is made when it is written and let go after: a 1000-flat year's charts, calendars and
        // daily rows held at once were a quarter of a gigabyte on top of the run.
        func made(_ make: @escaping @Sendable () throws(ReportsError) -> String) -> OutputFiles.Content {
            .pieces { write throws(ScenarioError) in
                do throws(ReportsError) { write(try make()) } catch { throw failed(error) }
            }
        }
        let calendar = scenario.calendar, start = scenario.start, end = scenario.end, stays = result.stays
        var files: [(name: String, content: OutputFiles.Content)] = []
        files.append(("energy-daily.csv", made { () throws(ReportsError) in
            try EnergyDailyReport.csv(ledger: ledger, calendar: calendar, start: start, end: end)
        }))
        files.append(("stays.csv", made { () throws(ReportsError) in try StaysReport.csv(ledger: ledger, stays: stays, start: start, end: end) }))
        let ticks = (scenario.end - scenario.start).milliseconds / stream.interval.milliseconds + 1
        if let failure = reports.timeseriesFailure { throw failed(failure) }
        guard reports.ticksWritten == ticks else {
            throw failed(ReportsError(.noSnapshot,
                                      "the run recorded \(reports.ticksWritten) of the timeseries' \(ticks) ticks; it stopped before its end, so timeseries.csv would be incomplete."))
        }
        files.append(("timeseries.csv", .pieces { piece throws(ScenarioError) in try reports.timeseries.read(for: "timeseries.csv", piece) }))
        let listings = scenario.listings.map(\.id), co2 = scenario.co2KgPerKWh
        files.append(("kpi.csv", made { () throws(ReportsError) in
            try KPIReport.csv(ledger: ledger, stream: stream, listings: listings, stays: stays, co2KgPerKWh: co2)
        }))
        if !scenario.rules.isEmpty {
            let outbox = result.outbox, dropped = result.outboxDropped
            files.append((OutboxReport.fileName, made { () throws(ReportsError) in OutboxReport.csv(outbox, dropped: dropped, calendar: calendar) }))
        }
        let staysByListing = Dictionary(grouping: stays, by: \.listing)  // in their order, as filtering each listing would give
        var chartNames = Set<String>(), calendarNames = Set<String>()
        for listing in listings.sorted() {
            let listingStays = staysByListing[listing] ?? []
            guard let trace = stream.trace(listing: listing) else {
                throw failed(ReportsError(.invalidRange, "the chart of \"\(listing)\" needs a run that ends after it starts."))
            }
            files.append((listingFileName("chart", listing, "svg", taken: &chartNames), made { () throws(ReportsError) in
                try ListingChart.svg(listing: listing, trace: trace, stays: listingStays, calendar: calendar)
            }))
            files.append((listingFileName("calendar", listing, "ics", taken: &calendarNames), made { () throws(ReportsError) in
                StayCalendar.ics(listing: listing, stays: listingStays, stamp: end)
            }))
        }
        return files
    }

    /// The directory above `path` ("" for a bare name, "/" for a name in the root). Foundation's
    /// `deletingLastPathComponent` traps on some one-character names on Linux (`--report m`).
    static func parent(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
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
