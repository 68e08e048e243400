import Devices
import Booking
import Foundation
import Reports
import Simulation
import SmartHome
import Weather

/// Turns scenario text into a ``Scenario``, reporting every problem with file, JSON path, line,
/// what was expected and a hint. Structure and types are checked here; cross-references (owners,
/// cities, items, reservations) by ``ScenarioValidator``.
public enum ScenarioDecoder {
    static let topKeys = ["version", "name", "description", "seed", "timeZone", "start", "end", "weather", "cities", "users",
                          "listings", "automations", "timeline", "expect", "tariff", "co2KgPerKWh", "items", "rules",
                          "itemFiles", "itemBindings", "persistence", "responses", "transformFiles", "scriptFiles", "ephemeris", "openhabConf"]

    /// Decodes and validates `text`, read from `file`; `seed` (if given) replaces the file's seed.
    /// - Parameter sideFiles: texts to read instead of the files the scenario names (`epw`, `calendars`,
    ///   `rules`, prices), keyed by the path as resolved against `file`'s directory — the fuzzer's seam
    ///   for a mutated side file; any other side file is read from disk.
    /// - Parameter strict: `--strict`: what openHAB refuses with a warning (a file of `openhabConf` it skips) is an issue.
    /// - Throws: ``ScenarioError`` `scenario.invalid` with one ``ScenarioIssue`` per problem.
    public static func decode(_ text: String, file: String, seed seedOverride: UInt64? = nil,
                              sideFiles: [String: String] = [:], strict: Bool = false) throws(ScenarioError) -> Scenario {
        let issues = IssueCollector(file: file, sideFiles: sideFiles, strict: strict)
        let root: JSONNode
        do {
            root = try JSONParser.parse(text)
        } catch {
            issues.add("", line: error.line, "this is not valid JSON: \(error.message) (column \(error.column)).", hint: error.hint)
            throw ScenarioError.invalid(file: file, issues: issues.issues)
        }
        let scenario = decodeRoot(Field(node: root, path: "", issues: issues), seedOverride: seedOverride)
        if let missing = issues.unavailable {
            throw ScenarioError(.unavailable, missing, file: file)
        }
        if let scenario, issues.issues.isEmpty {
            ScenarioValidator.validate(scenario, root: root, issues: issues)
        }
        guard var scenario, issues.issues.isEmpty else {
            throw ScenarioError.invalid(file: file, issues: issues.issues)
        }
        scenario.notices = issues.notices.map(\.description)
        scenario.warnings = issues.warnings.map(\.description)
        return scenario
    }

    /// Reads and decodes the file at `path`.
    /// - Throws: ``ScenarioError`` `scenario.unreadable` or `scenario.invalid`.
    public static func load(path: String, seed: UInt64? = nil, strict: Bool = false) throws(ScenarioError) -> Scenario {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScenarioError(.unreadable, "cannot read \(path): there is no such file.", file: path)
        }
        if isDirectory.boolValue {
            throw ScenarioError(.unreadable, "cannot read \(path): it is a directory, not a scenario file (suite runs a directory).", file: path)
        }
        guard let data = files.contents(atPath: path) else {
            let type = (try? files.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            let why = !files.isReadableFile(atPath: path) ? "permission denied"
                : type != .typeRegular ? "it is not a regular file" : "reading it failed"
            throw ScenarioError(.unreadable, "cannot read \(path): \(why).", file: path)
        }
        guard !data.isEmpty else {
            throw ScenarioError(.unreadable, "cannot read \(path): the file is empty; a scenario is a JSON object (see Docs/SCENARIO-FORMAT.md).",
                                file: path)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(.unreadable, "\(path) is not UTF-8 text.", file: path)
        }
        return try decode(text, file: path, seed: seed, strict: strict)
    }

    private static func decodeRoot(_ field: Field, seedOverride: UInt64?) -> Scenario? {
        guard let root = field.object(topKeys) else { return nil }
        let version = root.required("version")?.integer
        if let version, version != 1, let f = root.value("version") {
            f.problem("is \(version) but this rental-twin reads version 1.", hint: "write \"version\": 1.")
        }
        let name = root.required("name")?.name
        let description = root.optional("description")?.string
        var seed: UInt64 = 0
        if let f = root.optional("seed") {
            if case .number(_, let text) = f.node.value, let value = UInt64(text) { seed = value } else {
                f.problem("expected a whole number from 0 to 18446744073709551615, found \(f.node.kindDescription).")
            }
        }
        if let seedOverride { seed = seedOverride }
        var calendar: LocalCalendar?
        if let f = root.required("timeZone"), let zone = f.string {
            do { calendar = try LocalCalendar(identifier: zone) } catch {
                f.problem("\(UserText.quoted(zone)) is not an IANA time zone known on this machine.",
                          hint: "use a name like \"Europe/Budapest\" (see /usr/share/zoneinfo).")
            }
        }
        guard let calendar else {
            // Without a time zone no time can be read; report the other top-level keys' shapes only.
            return nil
        }
        let start = root.required("start")?.instant(calendar)
        let end = root.required("end")?.instant(calendar)
        if let start, let end, end <= start, let f = root.value("end") {
            f.problem("is not after start (\(calendar.localDateTime(at: start))).", hint: "end must be later than start.")
        }
        checkSpan(root, start: start, end: end, calendar: calendar)
        let span = start.flatMap { s in end.map { (s, $0) } }
        let weather = root.optional("weather").flatMap { decodeWeather($0, seed: seed, calendar: calendar, span: span) } ?? []
        let cities = root.optional("cities").flatMap(decodeCities) ?? [:]
        let users = root.optional("users")?.array?.compactMap(decodeUser) ?? []
        let listings = root.optional("listings")?.array?.compactMap(decodeListing) ?? []
        let automations = decodeAutomations(root.optional("automations"))
        let timeline = root.optional("timeline")?.array?.compactMap { decodeStep($0, calendar) } ?? []
        let expectations = root.optional("expect")?.array?.compactMap { decodeExpectation($0, calendar) } ?? []
        let tariff = root.optional("tariff").flatMap { decodeTariff($0, calendar: calendar) }
        let co2 = root.optional("co2KgPerKWh")?.number(in: 0...5, unit: " kg/kWh")
        // `openhabConf`: a `$OPENHAB_CONF` directory; its files join the keys that name files one by one.
        let conf = root.optional("openhabConf").flatMap(listOpenHABConf)
        var items = root.optional("items").flatMap { decodeItems($0, calendar: calendar) } ?? []
        let itemFiles = joined(root, "itemFiles", conf?.itemFiles).flatMap { decodeItemFiles($0, virtualItems: items) }
        items += itemFiles?.items ?? []
        let itemBindings = root.optional("itemBindings").flatMap(decodeItemBindings) ?? []
        let persistence = root.optional("persistence").flatMap(decodePersistence)
        let scripts = joined(root, "scriptFiles", conf?.scriptFiles).flatMap { decodeScriptFiles($0, confFiles: Set(conf?.scriptFiles ?? [])) } ?? .none
        var javaScript = JavaScriptRuleFiles.Context(scenarioFile: field.issues.file, items: items, seed: seed, calendar: calendar, start: start)
        // automation/js's scripts load as `.js` entries of `rules` do, with the conf directory as their root, in the session
        // the UI rules' JavaScript modules share (one world, one child).
        let confScripts = confJavaScript(conf, field: root.value("openhabConf"), javaScript: &javaScript)
        var rules = (root.optional("rules").flatMap { decodeRules($0, scripts: scripts, javaScript: javaScript, confScripts: confScripts) }
            ?? (confScripts.isEmpty ? nil : decodeRules(nil, javaScript: javaScript, confScripts: confScripts)))
            ?? ([], [], ([], []))
        let responses = root.optional("responses").flatMap(decodeResponses) ?? []
        let transforms = joined(root, "transformFiles", conf?.transformFiles).flatMap { decodeTransformFiles($0, confFiles: Set(conf?.transformFiles ?? [])) }
        let confLoaded = conf.map { listing in
            let deviceItems = listings.flatMap { listing in
                listing.devices.flatMap { device in
                    device.kind.channels.map { (try? ItemName(path: "\(listing.id)/\(device.id)/\($0)"))?.rawValue ?? "" }
                }
            }
            return decodeOpenHABConf(listing, scripts: scripts, knownItems: Set(items.map(\.name) + deviceItems))
        }
        if let confLoaded {
            rules.files += confLoaded.ruleFiles
            rules.rules += confLoaded.rules
            rules.files += rules.conf.files
            rules.rules += rules.conf.rules
            if let f = root.value("openhabConf") { noteUnknownThings(f, items: items, things: confLoaded.things) }
        }
        let bankHolidays = root.optional("ephemeris").flatMap(decodeEphemeris)
        guard let version, let name, let start, let end, let automations else { return nil }
        // Sort the timeline stably by time: equal instants keep file order.
        // (Indices are sorted, not the steps: a step is a large value, and a portfolio year has half a million.)
        let instants = timeline.map(\.at)
        let sorted = timeline.indices.sorted { (instants[$0], $0) < (instants[$1], $1) }.map { timeline[$0] }
        var scenario = Scenario(file: field.issues.file, version: version, name: name, description: description, seed: seed,
                        calendar: calendar, start: start, end: end, weather: weather, cities: cities, users: users, listings: listings,
                        automations: automations, timeline: sorted, expectations: expectations, tariff: tariff, co2KgPerKWh: co2,
                        items: items, itemFiles: itemFiles?.files ?? [], itemBindings: itemBindings, persistence: persistence,
                        ruleFiles: rules.files, rules: rules.rules)
        scenario.responses = responses
        scenario.transformFiles = transforms?.paths ?? []
        scenario.transforms = transforms?.files ?? []
        scenario.bankHolidays = bankHolidays
        if let conf, let confLoaded {
            scenario.openhabConf = conf.directory
            scenario.thingFiles = confLoaded.thingFiles
            scenario.things = confLoaded.things
            scenario.persistFiles = confLoaded.persistFiles
            scenario.persistenceServices = confLoaded.persistenceServices
            if confLoaded.persistenceServices.isEmpty, persistence == nil, conf.persistFiles.isEmpty, let f = root.value("openhabConf") {
                scenario.persistenceServices = [defaultRRD4J(f)]
            }
            scenario.loadLog = conf.log
        }
        return scenario
    }

    /// `{"perKWh": 0.32}`, `{"dayPerKWh": 0.36, "nightPerKWh": 0.18, "nightFrom": "22:00", "nightTo": "06:00"}`
    /// or `{"series": "prices.csv"}` (a CSV `time,price_per_kwh` of local times, relative to the scenario).
    static func decodeTariff(_ field: Field, calendar: LocalCalendar) -> Tariff? {
        guard let o = field.object(["perKWh", "dayPerKWh", "nightPerKWh", "nightFrom", "nightTo", "series"]) else { return nil }
        let price = { (f: Field) in f.number(in: -10...100, unit: " per kWh") }
        if let f = o.value("perKWh") { return price(f).map { .flat(perKWh: $0) } }
        if let f = o.value("series") {
            guard let path = f.string, let text = readSideFile(f, path: path, what: "price CSV", example: "prices.csv") else { return nil }
            var points: [(at: SimInstant, perKWh: Double)] = []
            for (offset, line) in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
                let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingBlanks }
                if offset == 0, cells.first == "time" { continue }
                guard cells.count == 2, let local = LocalDateTime(iso: cells[0]), let value = Double(cells[1]), value.isFinite else {
                    f.problem("\(path) line \(offset + 1): \(UserText.quoted(line)) is not time,price_per_kwh (e.g. 2026-01-09T00:15,0.2841).")
                    return nil
                }
                let at = calendar.resolvedInstant(for: local)
                if let last = points.last, at <= last.at {
                    f.problem("\(path) line \(offset + 1): \(cells[0]) is not after the line before; list prices in time order.")
                    return nil
                }
                points.append((at, value))
            }
            guard !points.isEmpty else { f.problem("\(path) has no prices."); return nil }
            return .series(points)
        }
        guard let day = o.required("dayPerKWh").flatMap(price), let night = o.required("nightPerKWh").flatMap(price) else {
            field.problem("gives no price.", hint: "write {\"perKWh\": 0.32}, a day/night pair, or {\"series\": \"prices.csv\"}.")
            return nil
        }
        let from = o.optional("nightFrom").map(\.time) ?? LocalTime(hour: 22, minute: 0)
        let to = o.optional("nightTo").map(\.time) ?? LocalTime(hour: 6, minute: 0)
        guard let from, let to else { return nil }
        return .dayNight(day: day, night: night, nightFrom: from, nightTo: to)
    }

    /// Start and end lie in ``PhysicalBounds/years`` and at most ``PhysicalBounds/maxSpanYears`` apart.
    static func checkSpan(_ root: ObjectReader, start: SimInstant?, end: SimInstant?, calendar: LocalCalendar) {
        let years = PhysicalBounds.years
        for (key, instant) in [("start", start), ("end", end)] {
            guard let instant, let f = root.value(key) else { continue }
            let year = calendar.localDateTime(at: instant).date.year
            if !years.contains(year) {
                f.problem("is in year \(year), outside the years \(years.lowerBound) … \(years.upperBound) a scenario may cover.",
                          hint: "write a four-digit year in that range, e.g. \"2026-01-09T00:00\".")
            }
        }
        let maxSpan = SimDuration.hours(Int64(PhysicalBounds.maxSpanYears) * 8_766)  // 365.25 days a year
        if let start, let end, end - start > maxSpan, let f = root.value("end") {
            f.problem("is more than \(PhysicalBounds.maxSpanYears) years after start (\(calendar.localDateTime(at: start))).",
                      hint: "a scenario covers at most \(PhysicalBounds.maxSpanYears) years; split a longer study into several scenarios.")
        }
    }
}
