import Foundation
import Reports
import Rules
import ScenarioFormat
import Simulation
import Synchronization

/// The parts of one partitioned run, checked to belong together, and their merge: the printed
/// result (``summary``) and the reports, byte for byte what one run of the whole scenario writes.
public struct PartitionSet: Sendable {
    /// The parts in order (part 1 first), each with the directory holding its reports (nil in memory).
    let parts: [(directory: String?, summary: PartitionSummary)]
    /// The parts' page records in the same order when they ran in this process and kept them in memory (their
    /// directories then hold no ``PageRecord/fileName``); `nil`: each directory holds its part's.
    var records: [PageRecord]? = nil

    /// What one run would print.
    public var summary: RunSummary { RunSummary.merged(parts.map(\.summary)) }

    /// The plan's notes (the same in every part).
    public var notes: [String] { parts[0].summary.notes }

    /// Listings in the whole scenario.
    public var listingCount: Int { parts[0].summary.allListings }

    /// The scenario file as the first part named it.
    public var file: String { parts[0].summary.file }

    /// Reads the manifests of `directories` (in any order) and checks that they are the parts of one run.
    /// - Throws: ``PartitionError``: `merge.unreadable`, `merge.corrupt`, `merge.mismatch`, `merge.incomplete`.
    public static func read(_ directories: [String]) throws(PartitionError) -> PartitionSet {
        var parts: [(directory: String?, summary: PartitionSummary)] = []
        for directory in directories {
            let path = (directory as NSString).appendingPathComponent(PartitionSummary.manifestName)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw PartitionError(.unreadable, "\(directory) is not a directory.", file: directory,
                                 hint: "Name the directories that rental-twin run FILE --partition K/N --report DIR wrote.")
            }
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw PartitionError(.unreadable, "\(directory) has no readable \(PartitionSummary.manifestName).", file: path,
                                 hint: "Name the directories that rental-twin run FILE --partition K/N --report DIR wrote.")
            }
            parts.append((directory, try PartitionSummary.read(manifest: text, path: path)))
        }
        return try check(parts)
    }

    /// Checks that `parts` are every part of one run, once each, and orders them (and `records`, each given part's
    /// page record kept in memory, with them).
    static func check(_ given: [(directory: String?, summary: PartitionSummary)], records: [PageRecord]? = nil) throws(PartitionError) -> PartitionSet {
        guard let first = given.first?.summary else {
            throw PartitionError(.incomplete, "there are no partitions to merge.", file: "", hint: "Name every partition directory.")
        }
        let where1 = given[0].directory ?? "part 1"
        for (directory, part) in given {
            let place = directory ?? "part \(part.part)"
            func differs(_ what: String, _ mine: String, _ theirs: String) -> PartitionError {
                PartitionError(.mismatch, "\(place) is a partition of \(what) \(mine), \(where1) of \(theirs); they are not parts of one run.",
                           file: place, hint: "Merge the partitions of one scenario file run with one seed and one N.")
            }
            if part.scenarioHash != first.scenarioHash || part.name != first.name || part.allListings != first.allListings
                || part.simulatedMilliseconds != first.simulatedMilliseconds || part.notes != first.notes {
                throw differs("the scenario", "\"\(part.name)\" (\(PartitionSummary.hex(part.scenarioHash)))",
                              "\"\(first.name)\" (\(PartitionSummary.hex(first.scenarioHash)))")
            }
            if part.seed != first.seed { throw differs("seed", String(part.seed), String(first.seed)) }
            if part.parts != first.parts { throw differs("N =", String(part.parts), String(first.parts)) }
            guard (1...1000).contains(part.parts) else {
                throw PartitionError(.corrupt, "\(place) says the run had \(part.parts) parts; a run has 1 to 1000.", file: place,
                                     hint: "Run the partition again; do not edit its files.")
            }
            guard (1...max(1, part.parts)).contains(part.part), !part.listings.isEmpty || part.allListings == 0 else {
                throw PartitionError(.corrupt, "\(place) says it is part \(part.part) of \(part.parts) with \(part.listings.count) listing(s).",
                                 file: place, hint: "Run the partition again; do not edit its files.")
            }
            if (part.reports.isEmpty) != (first.reports.isEmpty) {
                throw PartitionError(.mismatch, "\(place) has \(part.reports.isEmpty ? "no " : "")reports and \(where1) \(first.reports.isEmpty ? "none" : "has"); "
                                 + "every part must be run with --report.", file: place, hint: "Run every partition with --report DIR.")
            }
        }
        var byPart: [Int: Int] = [:]
        for (index, entry) in given.enumerated() {
            if let other = byPart[entry.summary.part] {
                throw PartitionError(.incomplete, "part \(entry.summary.part) of \(first.parts) is given twice: \(given[other].directory ?? "?") and \(entry.directory ?? "?").",
                                 file: entry.directory ?? "", hint: "Name each partition directory once.")
            }
            byPart[entry.summary.part] = index
        }
        let missing = (1...max(1, first.parts)).filter { byPart[$0] == nil }
        guard missing.isEmpty else {
            throw PartitionError(.incomplete, "part\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(first.parts) "
                             + "\(missing.count == 1 ? "is" : "are") missing.", file: where1,
                             hint: "Run rental-twin run FILE --partition K/\(first.parts) --report DIR for every K and name every DIR.")
        }
        let order = (1...max(1, first.parts)).compactMap { byPart[$0] }
        let ordered = order.map { given[$0] }
        var seen = Set<String>()
        var count = 0
        for (directory, part) in ordered {
            for listing in part.listings where !seen.insert(listing).inserted {
                throw PartitionError(.corrupt, "listing \"\(listing)\" is in two parts (again in \(directory ?? "part \(part.part)")).",
                                 file: directory ?? "", hint: "Run the partitions again; do not edit their files.")
            }
            count += part.listings.count
        }
        guard count == first.allListings else {
            throw PartitionError(.corrupt, "the parts hold \(count) listing(s), the scenario \(first.allListings).", file: where1,
                             hint: "Run the partitions again; do not edit their files.")
        }
        return PartitionSet(parts: ordered, records: records.map { records in order.map { records[$0] } })
    }

    // MARK: Reports

    /// What the merged reports end with.
    public enum Page: Sendable {
        /// The run's page, `index.html`, of the whole scenario (as the parts ran it): what one run writes.
        case html(Scenario)
        /// The parts' page records merged (``PageRecord/fileName``): what one part writes, for a merge later.
        case record
        /// Neither (the scenario is not at hand).
        case none
    }

    /// Writes the whole run's reports, merged from the parts', and `page` into `directory` (created if
    /// needed), all or none as ``ReportWriter`` writes them.
    /// - Returns: the names written, in writing order (as ``ReportWriter/writeWithPage(_:to:)`` returns them).
    /// - Throws: ``PartitionError`` for parts that do not merge; ``ScenarioError`` `scenario.writeFailed`.
    public func writeReports(to directory: String, page: Page) throws -> [String] {
        let failure = MergeFailure()
        let files = try reportFiles(failure: failure, page: page)
        do {
            try ReportWriter.writeFiles(files, to: directory)
        } catch {
            if let merge = failure.error.withLock({ $0 }) { throw merge }
            throw error
        }
        return files.map(\.name)
    }

    /// The report files of the whole run, in the order one run writes them, each merged from the parts'
    /// files as it is written. Checks first that every part holds exactly the files its manifest names,
    /// with their sizes and hashes.
    /// - Throws: ``PartitionError`` `merge.corrupt` or `merge.unreadable`.
    func reportFiles(failure: MergeFailure, page: Page) throws(PartitionError) -> [(name: String, content: OutputFiles.Content)] {
        let allListings = parts.flatMap(\.summary.listings).sorted()
        var partNames: [[String: (chart: String, calendar: String)]] = []
        var checks: [(path: String, report: PartitionSummary.ReportFile)] = []
        for (directory, part) in parts {
            guard let directory else { throw PartitionError(.unreadable, "part \(part.part) has no directory.", file: "") }
            var charts = Set<String>(), calendars = Set<String>()
            var names: [String: (chart: String, calendar: String)] = [:]
            var expected = ["energy-daily.csv", "stays.csv", "timeseries.csv", "kpi.csv"]
            // A scenario with rules writes outbox.csv after kpi.csv; such a scenario keeps every listing in one part.
            if part.reports.contains(where: { $0.name == OutboxReport.fileName }) { expected.append(OutboxReport.fileName) }
            for listing in part.listings.sorted() {
                let pair = (ReportWriter.listingFileName("chart", listing, "svg", taken: &charts),
                            ReportWriter.listingFileName("calendar", listing, "ics", taken: &calendars))
                names[listing] = pair
                expected += [pair.0, pair.1]
            }
            if records == nil { expected.append(PageRecord.fileName) }
            guard part.reports.map(\.name) == expected else {
                throw PartitionError(.corrupt, "\(directory)'s manifest does not name the reports of its listings.", file: directory,
                                 hint: "Run the partition again; do not edit its files.")
            }
            for report in part.reports { checks.append(((directory as NSString).appendingPathComponent(report.name), report)) }
            partNames.append(names)
        }
        // Every file's size and hash, on every core (a 1000-flat year's parts hold 2 GB), then checked in order, so the first bad file named is the same on every run.
        let paths = checks.map(\.path)
        let measured = Mutex([Result<(Int, UInt64), PartitionError>?](repeating: nil, count: paths.count))
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let result: Result<(Int, UInt64), PartitionError>
            do throws(PartitionError) { result = .success(try ChunkReader(path: paths[index]).sizeAndHash()) } catch { result = .failure(error) }
            measured.withLock { $0[index] = result }
        }
        for (index, (path, report)) in checks.enumerated() {
            guard let result = measured.withLock({ $0[index] }) else { continue }
            let (count, hash) = try result.get()
            guard count == report.bytes, hash == report.hash else {
                throw PartitionError(.corrupt, "\(path) has \(count) bytes, not the \(report.bytes) its manifest names, or other bytes "
                                 + "(truncated or edited).", file: path, hint: "Copy the partition directory again, or run the partition again.")
            }
        }
        let directories = parts.map { $0.directory ?? "" }
        let listingSets = parts.map { Set($0.summary.listings) }
        func made(_ name: String, _ merge: @escaping @Sendable ([CSVRecords], (String) -> Void) throws(PartitionError) -> Void) -> OutputFiles.Content {
            .pieces { write throws(ScenarioError) in
                do throws(PartitionError) {
                    let inputs = try directories.map { (directory: String) throws(PartitionError) -> CSVRecords in
                        try CSVRecords(path: (directory as NSString).appendingPathComponent(name))
                    }
                    try merge(inputs, write)
                } catch {
                    failure.error.withLock { $0 = error }
                    throw ScenarioError(.reportFailed, error.message, file: error.file)
                }
            }
        }
        var files: [(name: String, content: OutputFiles.Content)] = []
        files.append(("energy-daily.csv", made("energy-daily.csv") { inputs, write throws(PartitionError) in
            try CSVRecords.merge(inputs, header: EnergyDailyReport.header, listings: listingSets, write: write) { fields in [fields[0], fields[1]] } listing: { $0[1] }
        }))
        files.append(("stays.csv", made("stays.csv") { inputs, write throws(PartitionError) in
            try CSVRecords.merge(inputs, header: StaysReport.header, listings: listingSets, write: write) { fields in [fields[0], fields[1]] } listing: { $0[1] }
        }))
        let partListings = parts.map { $0.summary.listings.sorted() }
        files.append(("timeseries.csv", .pieces { write throws(ScenarioError) in
            do throws(PartitionError) {
                let readers = try directories.map { (directory: String) throws(PartitionError) -> RecordReader in
                    try RecordReader(path: (directory as NSString).appendingPathComponent("timeseries.csv"))
                }
                try RecordReader.mergeTicks(readers, listings: partListings, write: write)
            } catch {
                failure.error.withLock { $0 = error }
                throw ScenarioError(.reportFailed, error.message, file: error.file)
            }
        }))
        files.append(("kpi.csv", made("kpi.csv") { inputs, write throws(PartitionError) in
            try CSVRecords.mergeKPI(inputs, listings: listingSets, write: write)
        }))
        // outbox.csv: the rules run in one part (ScenarioPartition keeps a scenario with rules whole), whose
        // file is the whole run's; two parts with one cannot be merged exactly (the order of sends across
        // parts is not in the files).
        let outboxParts = parts.indices.filter { parts[$0].summary.reports.contains(where: { $0.name == OutboxReport.fileName }) }
        if outboxParts.count > 1 {
            throw PartitionError(.corrupt, "\(outboxParts.count) parts hold an \(OutboxReport.fileName); a scenario with rules runs in one part.",
                                 file: directories[outboxParts[1]], hint: "Run the partitions again with this rental-twin; do not edit their files.")
        }
        if let part = outboxParts.first {
            let path = (directories[part] as NSString).appendingPathComponent(OutboxReport.fileName)
            files.append((OutboxReport.fileName, .pieces { write throws(ScenarioError) in
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ScenarioError(.reportFailed, "\(path) went away during the merge.", file: path)
                }
                write(String(decoding: data, as: UTF8.self))
            }))
        }
        var charts = Set<String>(), calendars = Set<String>()
        var chartPaths: [String: String] = [:]
        for listing in allListings {
            guard let part = parts.firstIndex(where: { $0.summary.listings.contains(listing) }), let names = partNames[part][listing] else { continue }
            let directory = directories[part]
            for (kind, ext, source) in [("chart", "svg", names.chart), ("calendar", "ics", names.calendar)] {
                let name = kind == "chart" ? ReportWriter.listingFileName(kind, listing, ext, taken: &charts)
                    : ReportWriter.listingFileName(kind, listing, ext, taken: &calendars)
                let path = (directory as NSString).appendingPathComponent(source)
                files.append((name, .pieces { write throws(ScenarioError) in
                    guard let data = FileManager.default.contents(atPath: path) else {
                        throw ScenarioError(.reportFailed, "\(path) went away during the merge.", file: path)
                    }
                    write(String(decoding: data, as: UTF8.self))
                }))
                if kind == "chart" { chartPaths[listing] = path }
            }
        }
        let names = files.map(\.name)
        let summary = self.summary
        let merged = { () throws(ScenarioError) -> PageRecord in
            do throws(PartitionError) { return try mergedRecord() } catch {
                failure.error.withLock { $0 = error }
                throw ScenarioError(.reportFailed, error.message, file: error.file)
            }
        }
        switch page {
        case .none:
            break
        case .record:
            files.append((PageRecord.fileName, .pieces { write throws(ScenarioError) in write(try merged().text) }))
        case .html(let scenario):
            let sources = PartSources(directories: directories, chartPaths: chartPaths, listings: listingSets, failure: failure)
            files.append((ReportPage.fileName, .pieces { write throws(ScenarioError) in
                write(try ReportPage.html(scenario, summary: summary, record: try merged(), files: names, sources: sources))
            }))
        }
        return files
    }

    /// The parts' page records (``PageRecord``) merged into the whole run's.
    /// - Throws: ``PartitionError`` `partition.unreadable`, `partition.corrupt` or `partition.mismatch`.
    func mergedRecord() throws(PartitionError) -> PageRecord {
        if let records { return PageRecord.merged(records) }
        var records: [PageRecord] = []
        for (directory, part) in parts {
            guard let directory else { throw PartitionError(.unreadable, "part \(part.part) has no directory.", file: "") }
            records.append(try Self.record(in: directory))
        }
        return PageRecord.merged(records)
    }

    /// The page record a partition directory holds.
    /// - Throws: ``PartitionError`` `partition.unreadable`, `partition.corrupt` or `partition.mismatch`.
    static func record(in directory: String) throws(PartitionError) -> PageRecord {
        let path = (directory as NSString).appendingPathComponent(PageRecord.fileName)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PartitionError(.unreadable, "\(path) is missing or unreadable.", file: path, hint: "Copy the whole partition directory.")
        }
        return try PageRecord.read(String(decoding: data, as: UTF8.self), path: path)
    }

    /// The rule coverage of the whole run, merged from the parts' (`nil` when they were run without `--coverage`).
    /// - Throws: ``PartitionError`` as ``writeReports(to:page:)`` does for the parts' page records.
    public func coverage() throws(PartitionError) -> [RuleFileCoverage]? {
        try mergedRecord().coverage
    }

    /// The scenario the parts ran, read again from the file their manifests name (as named then, so from
    /// the same working directory) and checked to be the same bytes: what `merge` builds the page from.
    /// - Throws: ``PartitionError`` `partition.unreadable` when the file cannot be read or decoded here,
    ///   `partition.mismatch` when it changed since the parts ran.
    public func scenario() throws(PartitionError) -> Scenario {
        let first = parts[0].summary
        let loaded: PortfolioRun.Loaded
        do { loaded = try PortfolioRun.load(first.file, seed: first.seed) } catch {
            throw PartitionError(.unreadable, "the scenario file \(first.file) the parts ran cannot be read here: \(error.message)", file: first.file,
                                 hint: "Run merge from the directory the parts ran in, with the scenario file and the files it loads at hand.")
        }
        guard loaded.hash == first.scenarioHash else {
            throw PartitionError(.mismatch, "the scenario file \(first.file) changed since the parts ran (its hash is \(PartitionSummary.hex(loaded.hash)), "
                                 + "theirs \(PartitionSummary.hex(first.scenarioHash))).", file: first.file,
                                 hint: "Merge with the scenario file the parts ran, or run the parts again.")
        }
        return loaded.scenario
    }
}

/// The report files of a run's parts, as the page of the merged run reads them: each listing's chart and
/// `timeseries.csv` rows from its part (the rows of one listing all come from one part, in tick order), `kpi.csv`
/// merged again.
struct PartSources: ReportPage.Sources {
    let directories: [String]
    /// Each listing's chart file in its part.
    let chartPaths: [String: String]
    /// Each part's listings.
    let listings: [Set<String>]
    let failure: MergeFailure

    private func failed(_ error: PartitionError) -> ScenarioError {
        failure.error.withLock { $0 = error }
        return ScenarioError(.reportFailed, error.message, file: error.file)
    }

    func chart(_ listing: String) throws(ScenarioError) -> String? {
        guard let path = chartPaths[listing] else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError(.reportFailed, "\(path) went away during the merge.", file: path)
        }
        return String(decoding: data, as: UTF8.self)
    }

    func timeseries(_ piece: (String) -> Void) throws(ScenarioError) -> Bool {
        do throws(PartitionError) {
            for directory in directories {
                let reader = try RecordReader(path: (directory as NSString).appendingPathComponent("timeseries.csv"))
                while let record = try reader.next() { piece(String(decoding: record, as: UTF8.self)) }
            }
        } catch { throw failed(error) }
        return true
    }

    func kpi() throws(ScenarioError) -> String? {
        var text = ""
        do throws(PartitionError) {
            let inputs = try directories.map { (directory: String) throws(PartitionError) -> CSVRecords in
                try CSVRecords(path: (directory as NSString).appendingPathComponent("kpi.csv"))
            }
            try CSVRecords.mergeKPI(inputs, listings: listings) { text += $0 }
        } catch { throw failed(error) }
        return text
    }
}

/// The merge error a report producer met (producers can only throw ``ScenarioError``).
final class MergeFailure: Sendable {
    let error = Mutex<PartitionError?>(nil)
}

/// A CSV report file as bytes with its records (RFC 4180: a quoted field may hold line feeds).
struct CSVRecords {
    let path: String
    let bytes: [UInt8]
    /// Where each record starts, its end, the header first; `bytes.count` closes the last.
    let starts: [Int]

    init(path: String) throws(PartitionError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PartitionError(.unreadable, "\(path) is missing or unreadable.", file: path, hint: "Copy the whole partition directory.")
        }
        self.path = path
        bytes = [UInt8](data)
        var starts = [0]
        var quoted = false
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\"") { quoted.toggle() } else if byte == UInt8(ascii: "\n"), !quoted { starts.append(index + 1) }
        }
        guard starts.last == bytes.count, !quoted, starts.count >= 2 else {
            throw PartitionError(.corrupt, "\(path) does not end with a complete CSV line.", file: path, hint: "Run the partition again.")
        }
        self.starts = starts
    }

    /// Records after the header.
    var count: Int { starts.count - 2 }

    /// The bytes of record `index` (the header is -1), its line feed included.
    func record(_ index: Int) -> ArraySlice<UInt8> { bytes[starts[index + 1]..<starts[index + 2]] }

    var header: ArraySlice<UInt8> { bytes[starts[0]..<starts[1]] }

    /// The fields of record `index`, unquoted.
    func fields(_ index: Int) -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var slice = record(index)
        if slice.last == UInt8(ascii: "\n") { slice = slice.dropLast() }
        var iterator = slice.makeIterator()
        var previousQuote = false
        while let byte = iterator.next() {
            if quoted {
                if byte == UInt8(ascii: "\"") { quoted = false; previousQuote = true; continue }
                field.append(byte)
            } else if byte == UInt8(ascii: "\"") {
                if previousQuote { field.append(byte) }
                quoted = true
            } else if byte == UInt8(ascii: ",") {
                fields.append(String(decoding: field, as: UTF8.self))
                field = []
            } else {
                field.append(byte)
            }
            previousQuote = false
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }

    func corrupt(_ why: String) -> PartitionError {
        PartitionError(.corrupt, "\(path): \(why).", file: path, hint: "Run the partition again; do not edit its files.")
    }

    /// Writes `bytes` out in pieces of about a megabyte, split at record ends.
    static func emit(_ bytes: inout [UInt8], _ write: (String) -> Void, force: Bool) {
        guard force || bytes.count >= 1 << 20 else { return }
        if !bytes.isEmpty { write(String(decoding: bytes, as: UTF8.self)) }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Merges the parts' `kpi.csv`: the listings' rows first, then the stays', each by listing.
    static func mergeKPI(_ inputs: [CSVRecords], listings: [Set<String>], write: (String) -> Void) throws(PartitionError) {
        try merge(inputs, header: KPIReport.header, listings: listings, write: write) { fields in
            fields[0] == "listing" ? ["0", fields[1]] : ["1", fields[1], fields[2]]
        } listing: { $0[2] }
    }

    /// Merges files whose records are sorted by `key` (compared field by field as strings): every part's
    /// records in order, the smallest key first, ties to the lower part. Every record's `listing` must be
    /// one of its part's.
    static func merge(_ inputs: [CSVRecords], header expected: [String], listings: [Set<String>], write: (String) -> Void,
                      key: ([String]) -> [String], listing: ([String]) -> String) throws(PartitionError) {
        let header = inputs[0].header
        var keys: [[[String]]] = []
        for (part, input) in inputs.enumerated() {
            guard input.header.elementsEqual(CSVWriter.line(expected).utf8) else { throw input.corrupt("its header is not the report's") }
            let width = expected.count
            var partKeys: [[String]] = []
            partKeys.reserveCapacity(input.count)
            for index in 0..<input.count {
                let fields = input.fields(index)
                guard fields.count == width else { throw input.corrupt("line \(index + 2) has \(fields.count) fields, not \(width)") }
                guard listings[part].contains(listing(fields)) else {
                    throw input.corrupt("line \(index + 2) is about listing \"\(listing(fields))\", which is not in this part")
                }
                let k = key(fields)
                if let last = partKeys.last, k.lexicographicallyPrecedes(last) { throw input.corrupt("line \(index + 2) is out of order") }
                partKeys.append(k)
            }
            keys.append(partKeys)
        }
        var out = [UInt8](header)
        var next = [Int](repeating: 0, count: inputs.count)
        while true {
            var best: Int?
            for part in inputs.indices where next[part] < inputs[part].count {
                if let b = best, !keys[part][next[part]].lexicographicallyPrecedes(keys[b][next[b]]) { continue }
                best = part
            }
            guard let part = best else { break }
            out += inputs[part].record(next[part])
            next[part] += 1
            emit(&out, write, force: false)
        }
        emit(&out, write, force: true)
    }
}

/// A file read in chunks of a megabyte (a part's timeseries of a portfolio year is a hundred megabytes).
final class ChunkReader {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)

    init(path: String) throws(PartitionError) {
        guard let file = fopen(path, "rb") else {
            throw PartitionError(.unreadable, "\(path) is missing or unreadable.", file: path, hint: "Copy the whole partition directory.")
        }
        self.file = file
    }

    deinit { fclose(file) }

    /// The size and hash (``PartitionSummary/hash(_:)``) of the rest of the file.
    func sizeAndHash() -> (Int, UInt64) {
        var stream = StableHash.Stream(), count = 0
        while let chunk = next() {
            count += chunk.count
            stream.add(chunk)
        }
        return (count, stream.value)
    }

    /// The next chunk, nil at the end.
    func next() -> ArraySlice<UInt8>? {
        let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        return count > 0 ? buffer[0..<count] : nil
    }
}

/// The CSV records of a file, one at a time (RFC 4180: a quoted field may hold line feeds).
final class RecordReader {
    let path: String
    private let chunks: ChunkReader
    private var pending: [UInt8] = []
    private var position = 0
    private var scanned = 0
    private var quoted = false
    private var ended = false

    init(path: String) throws(PartitionError) {
        self.path = path
        chunks = try ChunkReader(path: path)
    }

    func corrupt(_ why: String) -> PartitionError {
        PartitionError(.corrupt, "\(path): \(why).", file: path, hint: "Run the partition again; do not edit its files.")
    }

    /// The next record with its line feed; nil at the end of the file.
    /// - Throws: `partition.corrupt` when the file ends inside a record.
    func next() throws(PartitionError) -> ArraySlice<UInt8>? {
        while true {
            // The next line feed by memchr; only a record with a quote in it is walked byte by byte (a line
            // feed inside quotes does not end it). Indexing the stored array would check exclusivity per byte.
            let (end, stillQuoted) = pending.withUnsafeBytes { buffer -> (Int?, Bool) in
                guard let base = buffer.baseAddress else { return (nil, quoted) }
                var quoted = quoted
                var from = scanned
                while from < buffer.count {
                    guard let hit = memchr(base + from, Int32(UInt8(ascii: "\n")), buffer.count - from) else { break }
                    let feed = base.distance(to: UnsafeRawPointer(hit))
                    if quoted || memchr(base + from, Int32(UInt8(ascii: "\"")), feed - from) != nil {
                        for index in from..<feed where buffer[index] == UInt8(ascii: "\"") { quoted.toggle() }
                    }
                    if !quoted { return (feed + 1, false) }
                    from = feed + 1
                }
                for index in from..<buffer.count where buffer[index] == UInt8(ascii: "\"") { quoted.toggle() }
                return (nil, quoted)
            }
            quoted = stillQuoted
            if let end {
                scanned = end
                let record = pending[position..<end]
                position = end
                return record
            }
            scanned = pending.count
            if ended {
                guard position == pending.count else { throw corrupt("it does not end with a complete CSV line") }
                return nil
            }
            pending.removeFirst(position)
            scanned -= position
            position = 0
            if let chunk = chunks.next() { pending += chunk } else { ended = true }
        }
    }

    /// Merges `timeseries.csv` as it reads it: each part has one record per listing (sorted) at each
    /// tick; the whole run's tick holds every listing's, sorted.
    static func mergeTicks(_ readers: [RecordReader], listings: [[String]], write: (String) -> Void) throws(PartitionError) {
        let header = Array(CSVWriter.line(TimeseriesReport.header).utf8)
        for reader in readers {
            guard let line = try reader.next(), line.elementsEqual(header) else { throw reader.corrupt("its header is not the report's") }
        }
        // The whole run's order of (part, position in part) within a tick.
        let order = listings.enumerated().flatMap { part, ids in ids.enumerated().map { (id: $0.element, part: part, offset: $0.offset) } }
            .sorted { $0.id < $1.id }
        // Each record must start with "<time>,<listing>,": the listing's field bytes as written.
        let expected = order.map { Array((CSVWriter.field($0.id) + ",").utf8) }
        let comma = UInt8(ascii: ",")
        var out = [UInt8](header)
        var tick = 0
        var rows = listings.map { [ArraySlice<UInt8>](repeating: [], count: $0.count) }
        while true {
            var ended = 0
            for (part, reader) in readers.enumerated() {
                for offset in 0..<listings[part].count {
                    guard let record = try reader.next() else {
                        guard offset == 0 else { throw reader.corrupt("tick \(tick + 1) ends before its last listing") }
                        ended += 1
                        break
                    }
                    rows[part][offset] = record
                }
            }
            if ended == readers.count { break }
            guard ended == 0 else { throw readers[0].corrupt("the parts hold different numbers of ticks") }
            var time: ArraySlice<UInt8>?
            for (position, entry) in order.enumerated() {
                let record = rows[entry.part][entry.offset]
                let reader = readers[entry.part]
                guard let cut = record.firstIndex(of: comma) else { throw reader.corrupt("a row of tick \(tick + 1) has no fields") }
                guard record[(cut + 1)...].starts(with: expected[position]) else {
                    throw reader.corrupt("tick \(tick + 1) does not hold listing \"\(entry.id)\" where it should")
                }
                let stamp = record[..<cut]
                if let time, time != stamp { throw reader.corrupt("tick \(tick + 1) is at another time than in the other parts") }
                time = stamp
                out += record
            }
            tick += 1
            CSVRecords.emit(&out, write, force: false)
        }
        CSVRecords.emit(&out, write, force: true)
    }
}
