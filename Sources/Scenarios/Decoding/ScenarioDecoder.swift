import Devices
import Booking
import Foundation
import Reports
import Simulation
import Weather

/// Turns scenario text into a ``Scenario``, reporting every problem with file, JSON path, line,
/// what was expected and a hint. Structure and types are checked here; cross-references (owners,
/// cities, items, reservations) by ``ScenarioValidator``.
public enum ScenarioDecoder {
    static let topKeys = ["version", "name", "description", "seed", "timeZone", "start", "end", "weather", "cities", "users",
                          "listings", "automations", "timeline", "expect", "tariff", "co2KgPerKWh", "items", "rules",
                          "itemFiles", "itemBindings", "persistence", "responses", "transformFiles", "scriptFiles", "ephemeris"]

    /// Decodes and validates `text`, read from `file`; `seed` (if given) replaces the file's seed.
    /// - Parameter sideFiles: texts to read instead of the files the scenario names (`epw`, `calendars`,
    ///   `rules`, prices), keyed by the path as resolved against `file`'s directory — the fuzzer's seam
    ///   for a mutated side file; any other side file is read from disk.
    /// - Throws: ``ScenarioError`` `scenario.invalid` with one ``ScenarioIssue`` per problem.
    public static func decode(_ text: String, file: String, seed seedOverride: UInt64? = nil,
                              sideFiles: [String: String] = [:]) throws(ScenarioError) -> Scenario {
        let issues = IssueCollector(file: file, sideFiles: sideFiles)
        let root: JSONNode
        do {
            root = try JSONParser.parse(text)
        } catch {
            issues.add("", line: error.line, "this is not valid JSON: \(error.message) (column \(error.column)).", hint: error.hint)
            throw ScenarioError.invalid(file: file, issues: issues.issues)
        }
        let scenario = decodeRoot(Field(node: root, path: "", issues: issues), seedOverride: seedOverride)
        if let scenario, issues.issues.isEmpty {
            ScenarioValidator.validate(scenario, root: root, issues: issues)
        }
        guard var scenario, issues.issues.isEmpty else {
            throw ScenarioError.invalid(file: file, issues: issues.issues)
        }
        scenario.notices = issues.notices.map(\.description)
        return scenario
    }

    /// Reads and decodes the file at `path`.
    /// - Throws: ``ScenarioError`` `scenario.unreadable` or `scenario.invalid`.
    public static func load(path: String, seed: UInt64? = nil) throws(ScenarioError) -> Scenario {
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
        return try decode(text, file: path, seed: seed)
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
        var items = root.optional("items").flatMap { decodeItems($0, calendar: calendar) } ?? []
        let itemFiles = root.optional("itemFiles").flatMap { decodeItemFiles($0, virtualItems: items) }
        items += itemFiles?.items ?? []
        let itemBindings = root.optional("itemBindings").flatMap(decodeItemBindings) ?? []
        let persistence = root.optional("persistence").flatMap(decodePersistence)
        let scripts = root.optional("scriptFiles").flatMap(decodeScriptFiles) ?? .none
        let rules = root.optional("rules").flatMap { decodeRules($0, scripts: scripts) } ?? ([], [])
        let responses = root.optional("responses").flatMap(decodeResponses) ?? []
        let transforms = root.optional("transformFiles").flatMap(decodeTransformFiles)
        let bankHolidays = root.optional("ephemeris").flatMap(decodeEphemeris)
        guard let version, let name, let start, let end, let automations else { return nil }
        // Sort the timeline stably by time: equal instants keep file order.
        let sorted = timeline.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        var scenario = Scenario(file: field.issues.file, version: version, name: name, description: description, seed: seed,
                        calendar: calendar, start: start, end: end, weather: weather, cities: cities, users: users, listings: listings,
                        automations: automations, timeline: sorted, expectations: expectations, tariff: tariff, co2KgPerKWh: co2,
                        items: items, itemFiles: itemFiles?.files ?? [], itemBindings: itemBindings, persistence: persistence,
                        ruleFiles: rules.files, rules: rules.rules)
        scenario.responses = responses
        scenario.transformFiles = transforms?.paths ?? []
        scenario.transforms = transforms?.files ?? []
        scenario.bankHolidays = bankHolidays
        return scenario
    }

    /// `{"perKWh": 0.32}`, `{"dayPerKWh": 0.36, "nightPerKWh": 0.18, "nightFrom": "22:00", "nightTo": "06:00"}`
    /// or `{"series": "prices.csv"}` (a CSV `time,price_per_kwh` of local times, relative to the scenario).
    private static func decodeTariff(_ field: Field, calendar: LocalCalendar) -> Tariff? {
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
    private static func checkSpan(_ root: ObjectReader, start: SimInstant?, end: SimInstant?, calendar: LocalCalendar) {
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

    // MARK: Weather

    private static func decodeWeather(_ field: Field, seed: UInt64, calendar: LocalCalendar,
                                      span: (SimInstant, SimInstant)?) -> [CityWeatherSpec]? {
        guard case .object(let members) = field.node.value else {
            field.problem("expected an object of cities, e.g. {\"Budapest\": {\"constantC\": -2}}, found \(field.node.kindDescription).")
            return nil
        }
        var result: [CityWeatherSpec] = []
        for member in members {
            let cityField = Field(node: member.value, path: "\(field.path).\(member.key)", issues: field.issues)
            guard let object = cityField.object(["constantC", "series", "interpolation", "diurnal", "epw"]) else { continue }
            let forms = ["constantC", "series", "diurnal", "epw"].filter { object.keys.contains($0) }
            guard forms.count == 1 else {
                cityField.problem(forms.isEmpty ? "gives no weather." : "gives \(forms.joined(separator: " and ")); give exactly one.",
                                  hint: "use one of {\"constantC\": -2}, {\"series\": [...]}, {\"diurnal\": {...}}, {\"epw\": \"weather/city.epw\"}.")
                continue
            }
            do throws(WeatherError) {
                if let f = object.value("constantC") {
                    guard let value = f.outdoorCelsius else { continue }
                    result.append(CityWeatherSpec(city: member.key, source: .constant(try WeatherSample(tempC: value, fieldPath: f.path))))
                } else if let f = object.value("series") {
                    guard let points = f.array, let source = decodeSeries(points, object: object, calendar: calendar) else { continue }
                    result.append(CityWeatherSpec(city: member.key, source: .series(try source())))
                } else if let f = object.value("epw") {
                    guard let path = f.string, let span, let series = decodeEPW(f, path: path, span: span) else { continue }
                    result.append(CityWeatherSpec(city: member.key, source: .series(series)))
                } else if let f = object.value("diurnal"), let d = f.object(["meanC", "amplitudeK", "minAtHour", "noiseK"]) {
                    guard let mean = d.required("meanC")?.number else { continue }
                    let amplitude = d.optional("amplitudeK")?.number ?? 0
                    let minAt = d.optional("minAtHour")?.integer ?? 5
                    let noise = d.optional("noiseK")?.number ?? 0
                    guard checkDiurnalRange(f, meanC: mean, amplitudeK: amplitude, noiseK: noise) else { continue }
                    let diurnal = try DiurnalWeather(meanC: mean, amplitudeK: amplitude, minAtHour: minAt, noiseK: noise, seed: seed,
                                                     city: member.key, calendar: calendar, fieldPath: f.path)
                    result.append(CityWeatherSpec(city: member.key, source: .diurnal(diurnal)))
                }
            } catch {
                cityField.problem(error.message)
            }
        }
        return result.sorted { $0.city < $1.city }
    }

    /// `{"epw": "weather/BUD.epw"}`: the file, relative to the scenario's directory, laid on the
    /// scenario's years (``EPWFile/series(from:to:fieldPath:)``); a problem at the field when it cannot
    /// be read or parsed, naming the file's line.
    private static func decodeEPW(_ f: Field, path: String, span: (SimInstant, SimInstant)) -> WeatherSeries? {
        guard let text = readSideFile(f, path: path, what: "EPW", example: "weather/budapest.epw") else { return nil }
        do {
            let file = try EPWFile(text: text, name: path)
            if let i = file.hours.firstIndex(where: { !PhysicalBounds.outdoorC.contains($0.sample.tempC) }) {
                f.problem("\(path) line \(i + 9): the dry-bulb temperature \(format(file.hours[i].sample.tempC)) °C is outside \(format(PhysicalBounds.outdoorC.lowerBound)) … +\(format(PhysicalBounds.outdoorC.upperBound)) °C.",
                          hint: "EPW temperatures are °C; a file in °F or K is not an EPW file.")
                return nil
            }
            return try file.series(from: span.0, to: span.1, fieldPath: f.path)
        } catch {
            f.problem(error.message, hint: "an EPW file has 8 header lines (LOCATION first), then one line of 35 fields per hour.")
            return nil
        }
    }

    /// Reports (and returns false) when a diurnal profile can leave ``PhysicalBounds/outdoorC``: its knots lie
    /// within `meanC ± (|amplitudeK| + 9 · |noiseK|)` (nine standard deviations bound the generator's noise).
    private static func checkDiurnalRange(_ f: Field, meanC: Double, amplitudeK: Double, noiseK: Double) -> Bool {
        let swing = abs(amplitudeK) + PhysicalBounds.noiseSigmas * abs(noiseK)
        let range = PhysicalBounds.outdoorC
        guard meanC - swing < range.lowerBound || meanC + swing > range.upperBound else { return true }
        let reach = (meanC - swing).isFinite && (meanC + swing).isFinite
            ? "can reach \(format(meanC - swing)) … \(format(meanC + swing)) °C"
            : "has no finite range"
        f.problem("\(reach) (meanC \(format(meanC)) ± amplitudeK \(format(amplitudeK)) ± 9 × noiseK \(format(noiseK))), outside \(format(range.lowerBound)) … +\(format(range.upperBound)) °C.",
                  hint: "keep meanC within \(format(range.lowerBound)) … +\(format(range.upperBound)) °C with room for the daily swing: amplitudeK is typically 2–10 K, noiseK 0.5–3 K.")
        return false
    }

    /// `cities`: name → `{"country": "HU", "lat": 46.9, "lon": 18.05}` (country optional).
    private static func decodeCities(_ field: Field) -> [String: CitySpec]? {
        guard case .object(let members) = field.node.value else {
            field.problem("expected an object of cities, e.g. {\"Siófok\": {\"country\": \"HU\", \"lat\": 46.9, \"lon\": 18.05}}, found \(field.node.kindDescription).")
            return nil
        }
        var result: [String: CitySpec] = [:]
        for member in members {
            let cityField = Field(node: member.value, path: "\(field.path).\(member.key)", issues: field.issues)
            if member.key.trimmingCharacters(in: .whitespaces).isEmpty || member.key.contains(",") {
                cityField.problem("\(UserText.quoted(member.key)) is not a city name: it is empty or contains a comma.",
                                  hint: "write the plain name, e.g. \"Siófok\", and the country under \"country\".")
                continue
            }
            guard let o = cityField.object(["country", "lat", "lon"]) else { continue }
            let lat = o.required("lat")?.number(in: -90...90, unit: "°", rule: "between -90 and 90 degrees north")
            let lon = o.required("lon")?.number(in: -180...180, unit: "°", rule: "between -180 and 180 degrees east")
            var code: String?
            if let f = o.optional("country"), let text = f.string {
                if let iso = WeatherService.countryCode(for: text) { code = iso } else {
                    f.problem("\(UserText.quoted(text)) is not a two-letter ISO 3166 country code.", hint: "write e.g. \"HU\" or \"AT\".")
                    continue
                }
            }
            guard let lat, let lon else { continue }
            result[member.key] = CitySpec(name: member.key, countryCode: code, latitude: lat, longitude: lon)
        }
        return result
    }

    /// Returns a closure building the series (so that its WeatherError lands in the caller's catch).
    private static func decodeSeries(_ points: FieldList, object: ObjectReader, calendar: LocalCalendar)
        -> (() throws(WeatherError) -> WeatherSeries)?
    {
        var interpolation = WeatherSeries.Interpolation.linear
        if let f = object.optional("interpolation"), let text = f.string {
            guard let value = WeatherSeries.Interpolation(rawValue: text) else {
                f.problem("is \(UserText.quoted(text)) but must be \"linear\" or \"step\".",
                          hint: Suggestion.closest(to: text, in: ["linear", "step"]).map { "did you mean \"\($0)\"?" })
                return nil
            }
            interpolation = value
        }
        var parsed: [(SimInstant, Double, Double?, String?, Double?, String)] = []
        for point in points {
            guard let p = point.object(["at", "tempC", "humidity", "condition", "windMps"]),
                  let at = p.required("at")?.instant(calendar), let temp = p.required("tempC")?.outdoorCelsius else { continue }
            parsed.append((at, temp, p.optional("humidity")?.number, p.optional("condition")?.string,
                           p.optional("windMps")?.number, point.path))
        }
        guard parsed.count == points.count else { return nil }
        return { () throws(WeatherError) -> WeatherSeries in
            var built: [WeatherSeries.Point] = []
            for (at, temp, humidity, condition, wind, path) in parsed {
                let sample = try makeSample(tempC: temp, humidity: humidity, condition: condition, windMps: wind, path: path)
                built.append(WeatherSeries.Point(at: at, sample: sample))
            }
            return try WeatherSeries(points: built, interpolation: interpolation, fieldPath: "weather")
        }
    }

    static func makeSample(tempC: Double, humidity: Double?, condition: String?, windMps: Double?, path: String)
        throws(WeatherError) -> WeatherSample
    {
        let parsedCondition = try condition.map { name throws(WeatherError) in try WeatherCondition(name: name, fieldPath: "\(path).condition") }
        return try WeatherSample(tempC: tempC, humidity: humidity ?? 70, condition: parsedCondition ?? .clear,
                                 windMps: windMps ?? 0, fieldPath: path)
    }

    // MARK: People and flats

    private static func decodeUser(_ field: Field) -> UserSpec? {
        guard let o = field.object(["id", "name", "email"]), let id = o.required("id")?.name, let name = o.required("name")?.name else {
            return nil
        }
        return UserSpec(id: id, name: name, email: o.optional("email")?.string)
    }

    private static func decodeListing(_ field: Field) -> ListingSpec? {
        guard let o = field.object(["id", "owner", "name", "city", "country", "capacity", "checkInTime", "checkOutTime",
                                    "thermal", "devices", "address", "description", "calendars"]) else { return nil }
        let id = o.required("id")?.name
        let owner = o.required("owner")?.name
        let name = o.required("name")?.name
        let city = o.required("city")?.name
        let country = o.required("country")?.name
        let capacity = o.required("capacity")?.integer
        if let capacity, capacity < 1 { o.value("capacity")?.problem("is \(capacity) but a flat sleeps at least 1 guest.") }
        let checkIn = o.optional("checkInTime").map { $0.time } ?? Listing.defaultCheckInTime
        let checkOut = o.optional("checkOutTime").map { $0.time } ?? Listing.defaultCheckOutTime
        let thermal = o.required("thermal").flatMap(decodeThermal)
        let devices = o.optional("devices")?.array?.compactMap(decodeDevice) ?? []
        guard let id, let owner, let name, let city, let country, let capacity, capacity >= 1, let checkIn, let checkOut,
              let thermal else { return nil }
        let calendars = o.optional("calendars")?.array?.compactMap(decodeCalendarFeed) ?? []
        return ListingSpec(id: id, owner: owner, name: name, city: city, country: country, capacity: capacity,
                           checkInTime: checkIn, checkOutTime: checkOut, thermal: thermal, devices: devices, calendars: calendars)
    }

    /// How often a calendar is synced when the scenario does not say (channel managers poll every 1–3 h).
    static let defaultCalendarSync = SimDuration.hours(2)

    /// `"cal/flat-1-airbnb.ics"` or `{"file": "cal/flat-1-airbnb.ics", "syncEvery": "PT2H"}`: the file read
    /// and parsed now, relative to the scenario file.
    private static func decodeCalendarFeed(_ field: Field) -> CalendarFeedSpec? {
        let path: String?, every: SimDuration?, pathField: Field
        if case .string = field.node.value {
            (path, every, pathField) = (field.string, defaultCalendarSync, field)
        } else {
            guard let o = field.object(["file", "syncEvery"]), let f = o.required("file") else { return nil }
            (path, pathField) = (f.string, f)
            every = o.optional("syncEvery").map(\.duration) ?? defaultCalendarSync
            if let every, every < .minutes(1), let s = o.value("syncEvery") {
                s.problem("is \(every); a calendar is synced at most once a minute.", hint: "channel managers sync every 1–3 hours, e.g. \"PT2H\".")
                return nil
            }
        }
        guard let path, let every, let text = readSideFile(pathField, path: path, what: "iCalendar", example: "cal/flat-1-airbnb.ics") else { return nil }
        do {
            return CalendarFeedSpec(file: path, syncEvery: every, events: try ICalendarText.parse(text, name: path))
        } catch {
            pathField.problem(error.message, hint: "export the calendar from the platform (an .ics link) and save it next to the scenario.")
            return nil
        }
    }

    /// The largest side file read (an EPW year is about 1.6 MB, a busy calendar far less).
    static let maxSideFileBytes = 32 << 20

    /// A side file's path as the scenario writes it, resolved against the scenario file's directory.
    public static func resolvedSidePath(_ path: String, scenarioFile: String) -> String {
        let scenarioDirectory = (scenarioFile as NSString).deletingLastPathComponent
        return path.hasPrefix("/") || scenarioDirectory.isEmpty ? path : "\(scenarioDirectory)/\(path)"
    }

    /// The text of a file a scenario names (`epw`, `calendars`), relative to the scenario file's directory;
    /// a problem at `f` when it is missing, too large or not UTF-8.
    static func readSideFile(_ f: Field, path: String, what: String, example: String) -> String? {
        let resolved = resolvedSidePath(path, scenarioFile: f.issues.file)
        if let text = f.issues.sideFiles[resolved] { return text }
        let attributes = try? FileManager.default.attributesOfItem(atPath: resolved)
        guard let size = attributes?[.size] as? Int, attributes?[.type] as? FileAttributeType == .typeRegular else {
            f.problem("cannot read \(resolved): there is no such file.", hint: "give the \(what) file's path relative to the scenario file, e.g. \"\(example)\".")
            return nil
        }
        guard size <= maxSideFileBytes else {
            f.problem("\(resolved) has \(size) bytes, over the limit of \(maxSideFileBytes) for a \(what) file.")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: resolved), let text = String(data: data, encoding: .utf8) else {
            f.problem("cannot read \(resolved) as UTF-8 text.")
            return nil
        }
        return text
    }

    private static func decodeThermal(_ field: Field) -> ThermalSpec? {
        guard let o = field.object(["uaWPerK", "capacitanceKWhPerK", "initialC", "gainPerGuestW", "comfortC"]) else { return nil }
        let ua = o.required("uaWPerK")?.number(in: PhysicalBounds.uaWPerK, unit: " W/K", hint: "a 50 m² flat is about 80 W/K.")
        let c = o.required("capacitanceKWhPerK")?.number(in: PhysicalBounds.capacitanceKWhPerK, unit: " kWh/K",
                                                         hint: "a 50 m² flat is about 2.3 kWh/K (walls and furniture included).")
        let initial = o.optional("initialC").map { $0.number(in: -50...60, unit: " °C") } ?? 20
        let gain = o.optional("gainPerGuestW").map { $0.number(in: 0...1_000, unit: " W", rule: "0 W or more (80 W is typical)") } ?? 80
        let comfort = o.optional("comfortC").map { $0.number(in: 0...40, unit: " °C") } ?? 20
        guard let ua, let c, let initial, let gain, let comfort else { return nil }
        return ThermalSpec(uaWPerK: ua, capacitanceKWhPerK: c, initialC: initial, gainPerGuestW: gain, comfortC: comfort)
    }

    static let deviceTypes = ["heating", "cooling", "smartPlug", "lock"]

    private static func decodeDevice(_ field: Field) -> DeviceSpec? {
        guard case .object(let members) = field.node.value else {
            field.problem("expected an object, found \(field.node.kindDescription).")
            return nil
        }
        // The allowed keys depend on the type, so read the type first.
        let typeNode = members.first { $0.key == "type" }.map { Field(node: $0.value, path: "\(field.path).type", issues: field.issues) }
        guard let typeNode else {
            field.problem("is missing the required key \"type\".", hint: "one of \(deviceTypes.joined(separator: ", ")).")
            return nil
        }
        guard let type = typeNode.string else { return nil }
        let allowed: [String]
        switch type {
        case "heating": allowed = ["id", "type", "powerW", "setpointC", "hysteresisK"]
        case "cooling": allowed = ["id", "type", "powerW", "cop", "setpointC", "hysteresisK"]
        case "smartPlug": allowed = ["id", "type", "loadW", "standbyW", "on"]
        case "lock": allowed = ["id", "type"]
        default:
            typeNode.problem("\(UserText.quoted(type)) is not a device type; expected one of \(deviceTypes.joined(separator: ", ")).",
                             hint: Suggestion.closest(to: type, in: deviceTypes).map { "did you mean \"\($0)\"?" })
            return nil
        }
        guard let o = field.object(allowed), let id = o.required("id")?.name else { return nil }
        let kind: DeviceSpec.Kind?
        switch type {
        case "heating", "cooling":
            let maxPower = PhysicalBounds.maxDevicePowerW
            let power = o.required("powerW")?.number(in: 0...maxPower, above: 0, unit: " W", rule: "more than 0 and at most \(format(maxPower)) W",
                                                     hint: "a flat's heater or air conditioner draws 1,000–10,000 W.")
            let range = ThermostatConfiguration.setpointRange(type == "heating" ? .heating : .cooling)
            let setpoint = o.required("setpointC")?.number(in: range, unit: " °C",
                                                           hint: "a \(type) thermostat takes setpoints from \(format(range.lowerBound)) to \(format(range.upperBound)) °C.")
            let hysteresis = o.optional("hysteresisK").map {
                $0.number(in: PhysicalBounds.hysteresisK, unit: " K", hint: "0.5 K is typical; a thermostat cannot switch on finer steps.")
            } ?? 0.5
            if type == "heating" {
                kind = power.flatMap { p in setpoint.flatMap { s in hysteresis.map { .heating(powerW: p, setpointC: s, hysteresisK: $0) } } }
            } else {
                let cop = o.optional("cop").map {
                    $0.number(in: 0...PhysicalBounds.maxCOP, above: 0, rule: "more than 0 and at most \(format(PhysicalBounds.maxCOP))",
                              hint: "3.0 is typical.")
                } ?? 3.0
                if let power, let setpoint, let hysteresis, let cop {
                    kind = .cooling(powerW: power, cop: cop, setpointC: setpoint, hysteresisK: hysteresis)
                } else { kind = nil }
            }
        case "smartPlug":
            let load = o.required("loadW")?.number(in: PhysicalBounds.plugW, unit: " W", hint: "a socket supplies at most about 3,600 W.")
            let standby = o.optional("standbyW").map {
                $0.number(in: PhysicalBounds.plugW, unit: " W", hint: "standby draws are typically 0.2–2 W.")
            } ?? 0.5
            let on = o.optional("on").map { $0.bool } ?? false
            if let load, let standby, let on { kind = .smartPlug(loadW: load, standbyW: standby, on: on) } else { kind = nil }
        default:
            kind = .lock
        }
        return kind.map { DeviceSpec(id: id, kind: $0, path: field.path) }
    }

    // MARK: Automations

    private static func decodeAutomations(_ field: Field?) -> AutomationsSpec? {
        var spec = AutomationsSpec(weatherWatcher: nil, preheat: nil, setback: nil, earlyCheckIn: .zero, lateCheckOut: .zero)
        guard let field else { return spec }
        guard let o = field.object(["weatherWatcher", "preheat", "setback", "lockAccess"]) else { return nil }
        var ok = true
        if let f = o.optional("weatherWatcher") {
            if let w = f.object(["heatOnBelowC", "coolOnAboveC", "everyMinutes", "atMinute"]) {
                let heat = w.optional("heatOnBelowC")?.number
                let cool = w.optional("coolOnAboveC")?.number
                let every = w.optional("everyMinutes").map { $0.integer } ?? 60
                let at = w.optional("atMinute").map { $0.integer } ?? 5
                if heat == nil && cool == nil {
                    f.problem("gives neither heatOnBelowC nor coolOnAboveC, so it would never switch anything.",
                              hint: "add \"heatOnBelowC\": 15 and/or \"coolOnAboveC\": 26.")
                }
                if let every, let at {
                    do { try LocalCalendar.validateRecurrence(everyMinutes: every, atMinute: at) } catch { f.problem(error.message); ok = false }
                    spec.weatherWatcher = .init(heatOnBelowC: heat, coolOnAboveC: cool, everyMinutes: every, atMinute: at)
                } else { ok = false }
            } else { ok = false }
        }
        if let f = o.optional("preheat") {
            if let p = f.object(["lead", "comfortC", "mode"]) {
                let lead = p.optional("lead").map { $0.duration } ?? .hours(2)
                let comfort = p.optional("comfortC").map { $0.number(in: 5...35, unit: " °C") } ?? 21
                var mode = AutomationsSpec.Preheat.Mode.fixed
                if let m = p.optional("mode"), let text = m.string {
                    if let value = AutomationsSpec.Preheat.Mode(rawValue: text) { mode = value } else {
                        m.problem("is \(UserText.quoted(text)) but must be \"fixed\" (start `lead` before check-in) or \"smart\" (use the flat's thermal model).")
                        ok = false
                    }
                }
                if let lead, let comfort { spec.preheat = .init(mode: mode, lead: lead, comfortC: comfort) } else { ok = false }
            } else { ok = false }
        }
        if let f = o.optional("setback") {
            if let s = f.object(["setpointC"]), let value = s.optional("setpointC").map({ $0.number(in: 5...35, unit: " °C") }) ?? 16 {
                spec.setback = .init(setpointC: value)
            } else { ok = false }
        }
        if let f = o.optional("lockAccess") {
            if let l = f.object(["earlyCheckIn", "lateCheckOut"]),
               let early = l.optional("earlyCheckIn").map({ $0.duration }) ?? .zero,
               let late = l.optional("lateCheckOut").map({ $0.duration }) ?? .zero {
                spec.earlyCheckIn = early
                spec.lateCheckOut = late
            } else { ok = false }
        }
        return ok ? spec : nil
    }
}
