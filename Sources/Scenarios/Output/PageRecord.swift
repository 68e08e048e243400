import Foundation
import Rules
import ScenarioFormat
import Simulation

/// What a run's page (``ReportPage``) shows that the scenario file and the other reports do not say: the
/// steps as they ran, the automations' actions, the rules' logged runs, the outbox, each stay's listing,
/// per listing its commanded-setpoint overlay and its energy figures, and the rule coverage.
///
/// One run makes it (``init(_:steps:)``); the parts of a run each make theirs and ``merged(_:)`` joins them
/// into the value one run of the whole scenario makes, so `run --jobs N`, `run --partition K/N` and `merge`
/// write the page one run writes, byte for byte. Its order is the page's, not the order a world recorded
/// things in (which only orders one listing's records at one instant): steps by instant and index, the
/// automations by instant and listing. A partition directory holds it as ``fileName`` (``text``, ``read(_:path:)``); parts
/// merged in the process that ran them hand theirs over in memory.
public struct PageRecord: Sendable, Equatable {
    /// Its file name in a partition directory.
    public static let fileName = "page-record.json"
    /// The file's format; a merge refuses others.
    static let format = 1

    /// A timeline step as it ran: its index in the whole scenario's timeline, how it ended when not as
    /// expected (the log's words), what the devices made of it.
    struct Step: Sendable, Equatable {
        let at: SimInstant
        let step: Int
        let failed: String?
        let note: String?
    }

    /// An automation's action: the listing acted on and the log's text (`preheat flat-1: … — …`).
    struct Automation: Sendable, Equatable {
        let at: SimInstant
        let listing: String
        let text: String
    }

    /// A rule run the engine logged: the rule's name, the Items it touched (``ReportPage/ruleItems(_:)``), its log text.
    struct RuleEvent: Sendable, Equatable {
        let at: SimInstant
        let rule: String
        let items: [String]
        let text: String
    }

    /// A message the rules sent (`outbox.csv`'s columns).
    struct Message: Sendable, Equatable {
        let at: SimInstant
        let rule: String
        let channel: String
        let action: String
        let recipient: String
        let text: String
    }

    /// One listing's part of the page: the commanded setpoints drawn over its chart (SVG, empty for none),
    /// each device's energy over the run in kWh as the page shows it (`–` when unknown), in the listing's
    /// device order, and the listing's total.
    struct Listing: Sendable, Equatable {
        let id: String
        let overlay: String
        let deviceKWh: [String]
        let totalKWh: String
    }

    /// The timeseries' interval (ms; 0 without one), for the measured rows around a failure.
    var intervalMilliseconds: Int64 = 0
    var steps: [Step] = []
    var automations: [Automation] = []
    var rules: [RuleEvent] = []
    var outbox: [Message] = []
    var outboxDropped = 0
    /// Runs of the scenario's rules (every one, also those not logged).
    var ruleRuns = 0
    /// Each stay's reservation and listing, by reservation then listing.
    var stays: [(reservation: String, listing: String)] = []
    /// The listings, by id.
    var listings: [Listing] = []
    /// The rule files' coverage (merged per file), `nil` when not counted.
    var coverage: [RuleFileCoverage]?

    init() {}

    /// The record of `result` (a run with reports), whose timeline step `i` is step `steps(i)` of the whole
    /// scenario (the identity for a run of the whole).
    init(_ result: ScenarioResult, steps index: (Int) -> Int = { $0 }) {
        let scenario = result.scenario
        let records = result.stepRecords
        intervalMilliseconds = result.reports?.stream.interval.milliseconds ?? 0
        steps = records.map { Step(at: $0.at, step: index($0.step), failed: $0.failed, note: $0.note) }
            .sorted { ($0.at, $0.step) < ($1.at, $1.step) }
        let entries = result.automationEntries
        automations = Self.inPageOrder(entries.map { entry in
            Automation(at: entry.at, listing: entry.listing.rawValue,
                       text: "\(entry.automation) \(entry.listing): \(entry.action) — \(entry.reason)")
        })
        rules = result.ruleRunRecords.map { RuleEvent(at: $0.at, rule: $0.ruleName, items: ReportPage.ruleItems($0), text: $0.logText) }
        outbox = result.outbox.map { m in
            Message(at: m.instant, rule: m.rule, channel: m.channel.rawValue, action: m.action, recipient: m.recipient, text: m.text)
        }
        outboxDropped = result.outboxDropped
        ruleRuns = result.ruleRuns
        stays = Self.sorted(result.stays.map { ($0.reservation, $0.listing) })
        // Each listing's own records once (a portfolio year has a hundred thousand automation entries), and of
        // the steps only those that can set a setpoint (a portfolio year has fifty thousand bookings).
        let automationsByListing = Dictionary(grouping: entries, by: \.listing.rawValue)
        let setting = records.filter { record in
            switch scenario.timeline[record.step].action {
            case .command, .update: true
            default: false
            }
        }
        listings = scenario.listings.sorted { $0.id < $1.id }.map { spec in
            var overlay = ""
            if let trace = result.reports?.stream.trace(listing: spec.id) {
                let setpoints = ReportPage.commandedSetpoints(spec, scenario: scenario, steps: setting,
                                                              automations: automationsByListing[spec.id] ?? [], rules: result.ruleRunRecords)
                overlay = ReportPage.setpointOverlay(setpoints, trace: trace, scenario: scenario)
            }
            func kWh(_ value: Double?) -> String { value.map { Figures.decimal($0, 3) } ?? "–" }
            return Listing(id: spec.id, overlay: overlay, deviceKWh: spec.devices.map { kWh(result.energyKWh(listing: spec.id, device: $0.id)) },
                           totalKWh: kWh(result.energyKWh(listing: spec.id, device: nil)))
        }
        coverage = result.ruleCoverage.map { RuleFileCoverage.merge([$0]) }
    }

    /// The record one run of the whole scenario makes, from its parts' (in part order): a city-wide step
    /// several parts ran once (the first part's), everything else joined in the page's order, counts added.
    /// Coverage only when every part counted it.
    static func merged(_ parts: [PageRecord]) -> PageRecord {
        var merged = PageRecord()
        var seenSteps = Set<Int>()
        for part in parts {
            merged.steps += part.steps.filter { seenSteps.insert($0.step).inserted }
            merged.automations += part.automations
            merged.rules += part.rules
            merged.outbox += part.outbox
            merged.outboxDropped += part.outboxDropped
            merged.ruleRuns += part.ruleRuns
            merged.stays += part.stays
            merged.listings += part.listings
            merged.intervalMilliseconds = max(merged.intervalMilliseconds, part.intervalMilliseconds)
        }
        merged.steps.sort { ($0.at, $0.step) < ($1.at, $1.step) }
        merged.automations = inPageOrder(merged.automations)
        // The rules run in one part (ScenarioPartition keeps a scenario with rules whole); in time order all the same.
        merged.rules = stableSorted(merged.rules) { $0.at < $1.at }
        merged.outbox = stableSorted(merged.outbox) { $0.at < $1.at }
        merged.stays = sorted(merged.stays)
        merged.listings.sort { $0.id < $1.id }
        let coverages = parts.compactMap(\.coverage)
        merged.coverage = coverages.count == parts.count && !parts.isEmpty ? RuleFileCoverage.merge(coverages) : nil
        return merged
    }

    /// Automations by instant, then listing, each listing's in the order given (a world numbers its
    /// records as it makes them, which orders only one listing's at one instant).
    private static func inPageOrder(_ entries: [Automation]) -> [Automation] {
        stableSorted(entries) { ($0.at, $0.listing) < ($1.at, $1.listing) }
    }

    private static func stableSorted<T>(_ values: [T], by less: (T, T) -> Bool) -> [T] {
        values.enumerated().sorted { a, b in less(a.element, b.element) || (!less(b.element, a.element) && a.offset < b.offset) }.map(\.element)
    }

    private static func sorted(_ pairs: [(reservation: String, listing: String)]) -> [(reservation: String, listing: String)] {
        pairs.sorted { ($0.reservation, $0.listing) < ($1.reservation, $1.listing) }
    }

    public static func == (a: PageRecord, b: PageRecord) -> Bool {
        a.intervalMilliseconds == b.intervalMilliseconds && a.steps == b.steps && a.automations == b.automations && a.rules == b.rules && a.outbox == b.outbox && a.outboxDropped == b.outboxDropped
            && a.ruleRuns == b.ruleRuns && a.stays.elementsEqual(b.stays, by: { $0 == $1 }) && a.listings == b.listings && a.coverage == b.coverage
    }
}

// MARK: The file

extension PageRecord {
    /// The record as the JSON of ``fileName``: one array per kind of record, one record a line.
    var text: String {
        var out = "{\n  \"format\": \(Self.format),\n  \"ruleRuns\": \(ruleRuns),\n  \"outboxDropped\": \(outboxDropped),\n  \"intervalMilliseconds\": \(intervalMilliseconds)"
        func q(_ text: String) -> String {
            var quoted = ""
            JSONString.append(text, to: &quoted)
            return quoted
        }
        func optional(_ text: String?) -> String { text.map(q) ?? "null" }
        func list(_ name: String, _ rows: [String]) {
            out += ",\n  \"\(name)\": [" + rows.map { "\n    " + $0 }.joined(separator: ",") + "\n  ]"
        }
        list("steps", steps.map { "[\($0.at.unixMilliseconds), \($0.step), \(optional($0.failed)), \(optional($0.note))]" })
        list("automations", automations.map { "[\($0.at.unixMilliseconds), \(q($0.listing)), \(q($0.text))]" })
        list("rules", rules.map { "[\($0.at.unixMilliseconds), \(q($0.rule)), [\($0.items.map(q).joined(separator: ", "))], \(q($0.text))]" })
        list("outbox", outbox.map { m in
            "[\(m.at.unixMilliseconds), \(q(m.rule)), \(q(m.channel)), \(q(m.action)), \(q(m.recipient)), \(q(m.text))]"
        })
        list("stays", stays.map { "[\(q($0.reservation)), \(q($0.listing))]" })
        list("listings", listings.map { "[\(q($0.id)), \(q($0.overlay)), [\($0.deviceKWh.map(q).joined(separator: ", "))], \(q($0.totalKWh))]" })
        if let coverage {
            list("coverage", coverage.map { file in
                "[\(q(file.file)), [" + file.functions.map { "[\($0.line), \(q($0.name)), \($0.count)]" }.joined(separator: ", ") + "], ["
                    + file.lines.keys.sorted().map { "[\($0), \(file.lines[$0] ?? 0)]" }.joined(separator: ", ") + "], ["
                    + file.branches.map { "[\($0.line), \($0.block), \($0.branch), \($0.count)]" }.joined(separator: ", ") + "]]"
            })
        } else {
            out += ",\n  \"coverage\": null"
        }
        return out + "\n}\n"
    }

    /// Reads what ``text`` wrote.
    /// - Throws: ``PartitionError`` `partition.corrupt` for anything else (the manifest's size and hash
    ///   checks come first, so this is a file edited together with its manifest), `partition.mismatch` for
    ///   another format.
    static func read(_ text: String, path: String) throws(PartitionError) -> PageRecord {
        func corrupt(_ why: String) -> PartitionError {
            PartitionError(.corrupt, "\(path) is not a page record this version wrote: \(why).", file: path,
                           hint: "Run the partition again with rental-twin run FILE --partition K/N --report DIR; do not edit its files.")
        }
        // Read a line at a time, as ``text`` writes it — a field a line, each list's records one a line — so no
        // JSON tree of the whole file is ever built (a portfolio year's record has a hundred thousand records);
        // whatever parses is then checked to be exactly what ``text`` writes.
        var fields: [String: JSONNode] = [:]
        var lists: [String: [JSONNode]] = [:]
        var current: String?
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            func parsed(_ json: Substring) throws(PartitionError) -> JSONNode {
                do { return try JSONParser.parse(String(json)) } catch { throw corrupt("line \(number): \(error.message)") }
            }
            if let name = current {
                if line == "  ]" || line == "  ]," { current = nil; continue }
                guard line.hasPrefix("    ") else { throw corrupt("line \(number) is not a record of \"\(name)\"") }
                let entry = line.dropFirst(4)
                lists[name, default: []].append(try parsed(entry.hasSuffix(",") ? entry.dropLast() : entry))
                continue
            }
            if line == "{" || line == "}" || (line.isEmpty && offset > 0) { continue }
            guard line.hasPrefix("  \""), let colon = line.range(of: "\": ") else { throw corrupt("line \(number) is not a field") }
            let key = String(line[line.index(line.startIndex, offsetBy: 3)..<colon.lowerBound])
            var value = line[colon.upperBound...]
            if value.hasSuffix(",") { value = value.dropLast() }
            if value == "[" {
                current = key
                lists[key] = []
            } else {
                fields[key] = try parsed(value)
            }
        }
        func node(_ key: String) throws(PartitionError) -> JSONNode {
            guard let node = fields[key] else { throw corrupt("\"\(key)\" is missing") }
            return node
        }
        func string(_ node: JSONNode) throws(PartitionError) -> String {
            guard case .string(let s) = node.value else { throw corrupt("a string is expected at line \(node.line)") }
            return s
        }
        func optionalString(_ node: JSONNode) throws(PartitionError) -> String? {
            if case .null = node.value { return nil }
            return try string(node)
        }
        func int(_ node: JSONNode) throws(PartitionError) -> Int {
            guard case .number(_, let t) = node.value, let i = Int(t) else { throw corrupt("a whole number is expected at line \(node.line)") }
            return i
        }
        func instant(_ node: JSONNode) throws(PartitionError) -> SimInstant { SimInstant(unixMilliseconds: Int64(try int(node))) }
        func array(_ node: JSONNode, count: Int? = nil) throws(PartitionError) -> [JSONNode] {
            guard case .array(let a) = node.value else { throw corrupt("an array is expected at line \(node.line)") }
            if let count, a.count != count { throw corrupt("the array at line \(node.line) has \(a.count) entries, not \(count)") }
            return a
        }
        func rows(_ key: String, width: Int) throws(PartitionError) -> [[JSONNode]] {
            guard let list = lists[key] else { throw corrupt("\"\(key)\" is missing") }
            var rows: [[JSONNode]] = []
            for row in list { rows.append(try array(row, count: width)) }
            return rows
        }
        guard try int(try node("format")) == format else {
            throw PartitionError(.mismatch, "\(path) was written in another page record format than this version's (\(format)).", file: path,
                                 hint: "Run every partition and the merge with the same rental-twin.")
        }
        var record = PageRecord()
        record.ruleRuns = try int(try node("ruleRuns"))
        record.outboxDropped = try int(try node("outboxDropped"))
        record.intervalMilliseconds = Int64(try int(try node("intervalMilliseconds")))
        for r in try rows("steps", width: 4) {
            record.steps.append(Step(at: try instant(r[0]), step: try int(r[1]), failed: try optionalString(r[2]), note: try optionalString(r[3])))
        }
        for r in try rows("automations", width: 3) {
            record.automations.append(Automation(at: try instant(r[0]), listing: try string(r[1]), text: try string(r[2])))
        }
        for r in try rows("rules", width: 4) {
            var items: [String] = []
            for item in try array(r[2]) { items.append(try string(item)) }
            record.rules.append(RuleEvent(at: try instant(r[0]), rule: try string(r[1]), items: items, text: try string(r[3])))
        }
        for r in try rows("outbox", width: 6) {
            record.outbox.append(Message(at: try instant(r[0]), rule: try string(r[1]), channel: try string(r[2]), action: try string(r[3]),
                                         recipient: try string(r[4]), text: try string(r[5])))
        }
        for r in try rows("stays", width: 2) { record.stays.append((try string(r[0]), try string(r[1]))) }
        for r in try rows("listings", width: 4) {
            var kWh: [String] = []
            for value in try array(r[2]) { kWh.append(try string(value)) }
            record.listings.append(Listing(id: try string(r[0]), overlay: try string(r[1]), deviceKWh: kWh, totalKWh: try string(r[3])))
        }
        if let coverageNode = fields["coverage"] {
            guard case .null = coverageNode.value else { throw corrupt("\"coverage\" is neither null nor a list") }
            record.coverage = nil
        } else {
            guard let list = lists["coverage"] else { throw corrupt("\"coverage\" is missing") }
            var files: [RuleFileCoverage] = []
            for r in list {
                let f = try array(r, count: 4)
                var file = RuleFileCoverage(file: try string(f[0]))
                for entry in try array(f[1]) {
                    let e = try array(entry, count: 3)
                    file.functions.append(.init(line: try int(e[0]), name: try string(e[1]), count: try int(e[2])))
                }
                for entry in try array(f[2]) {
                    let e = try array(entry, count: 2)
                    file.lines[try int(e[0])] = try int(e[1])
                }
                for entry in try array(f[3]) {
                    let e = try array(entry, count: 4)
                    file.branches.append(.init(line: try int(e[0]), block: try int(e[1]), branch: try int(e[2]), count: try int(e[3])))
                }
                files.append(file)
            }
            record.coverage = files
        }
        // What this version writes, and nothing else: an edit that still parses is refused too.
        guard record.text == text else { throw corrupt("it is not in the form this version writes (was it edited?)") }
        return record
    }
}
