import Simulation

/// An EnergyPlus weather file (EPW, the format of TMY/IWEC typical-year data): eight header lines,
/// then one comma-separated line per hour.
///
/// Read fields (1-based, as the EnergyPlus Auxiliary Programs manual numbers them): 2 month, 3 day,
/// 4 hour (1–24, the hour *ending* at that time, in local standard time), 7 dry-bulb temperature
/// °C, 9 relative humidity %, 10 station pressure Pa, 21 wind direction °, 22 wind speed m/s,
/// 23 total sky cover (tenths), 34 liquid precipitation depth mm (over the hour). The header's
/// `LOCATION` line gives the place and the time zone (hours from UTC, standard time). Missing
/// values are the manual's codes (99.9 °C, 999 %, 999999 Pa, 999 °, 999 m/s, 99 tenths, 999 mm):
/// a missing temperature is an error (it is what the twin needs); any other missing field takes
/// the ``WeatherSample`` default. A value outside the manual's range for its field (that is not the
/// missing code) is refused as out of range, as are non-numeric bytes in a number, more than 35 fields
/// and records that do not go forward in time.
public struct EPWFile: Sendable, Equatable {
    /// The `LOCATION` header.
    public struct Location: Sendable, Equatable {
        /// City name as written.
        public let city: String
        /// Country (often an ISO 3166 alpha-3 code, e.g. `HUN`).
        public let country: String
        /// Latitude, degrees north.
        public let latitude: Double
        /// Longitude, degrees east.
        public let longitude: Double
        /// The file's time zone: hours from UTC of local standard time (no daylight saving).
        public let timeZoneHours: Double
        /// Elevation, m.
        public let elevationM: Double
    }

    /// One hourly record.
    public struct Hour: Sendable, Equatable {
        /// Month 1–12, day 1–31 and hour 1–24 (the hour ending then) in local standard time.
        public let month: Int, day: Int, hour: Int
        /// The weather of that hour.
        public let sample: WeatherSample
    }

    /// Where the file says it is.
    public let location: Location
    /// The hours in file order.
    public let hours: [Hour]

    /// Parses the text of an EPW file.
    /// - Parameter name: the file's name for messages (`weather/BUD.epw`).
    /// - Throws: ``WeatherError`` `weather.invalidSource` with the line (and field) of the first
    ///   problem: a missing `LOCATION` header, a line with too few fields, a number that does not
    ///   parse, a date outside the calendar, a missing temperature, or a file without data.
    public init(text: String, name: String) throws(WeatherError) {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first, first.hasPrefix("LOCATION") else {
            throw Self.problem(name, line: 1, "does not start with a LOCATION line, so it is not an EPW file (EnergyPlus weather: 8 header lines, then hourly data).")
        }
        let loc = first.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard loc.count >= 10 else { throw Self.problem(name, line: 1, "LOCATION has \(loc.count) fields; it needs 10 (city, state, country, source, WMO, latitude, longitude, time zone, elevation).") }
        func header(_ index: Int, _ what: String, _ range: ClosedRange<Double>) throws(WeatherError) -> Double {
            guard let value = Double(loc[index].trimmingBlanks), range.contains(value) else {
                throw Self.problem(name, line: 1, "LOCATION field \(index + 1) (\(what)) is \"\(loc[index])\"; give a number from \(NumberText.plain(range.lowerBound)) to \(NumberText.plain(range.upperBound)).")
            }
            return value
        }
        location = Location(city: loc[1].trimmingBlanks, country: loc[3].trimmingBlanks,
                            latitude: try header(6, "latitude", -90...90), longitude: try header(7, "longitude", -180...180),
                            timeZoneHours: try header(8, "time zone", -12...14), elevationM: try header(9, "elevation", -1_000...9_000))
        guard lines.count > 8 else { throw Self.problem(name, line: lines.count, "has no hourly data after its 8 header lines.") }
        var hours: [Hour] = []
        hours.reserveCapacity(lines.count - 8)
        for (offset, line) in lines.enumerated().dropFirst(8) {
            let record = try Self.hour(line, lineNumber: offset + 1, name: name)
            // Records go forward in time, one hour after another (a typical year runs 1/1 1:00 to 12/31 24:00).
            if let previous = hours.last, (previous.month, previous.day, previous.hour) >= (record.month, record.day, record.hour) {
                throw Self.problem(name, line: offset + 1, "is \(record.month)/\(record.day) hour \(record.hour), not after the line before "
                                   + "(\(previous.month)/\(previous.day) hour \(previous.hour)); EPW records go forward in time, hour by hour.")
            }
            hours.append(record)
        }
        self.hours = hours
    }

    /// The valid range and the missing-value code of each field read, from the EnergyPlus Auxiliary
    /// Programs manual ("Field: Dry Bulb Temperature … minimum > -70, maximum < 70, missing 99.9").
    /// A value outside its range that is not its missing code is an error, named as out of range.
    struct FieldRule {
        let field: Int, what: String, unit: String
        let range: ClosedRange<Double>
        let missing: Double
    }
    /// (A scenario bounds outdoor temperatures more narrowly still, with its own message.)
    static let dryBulb = FieldRule(field: 7, what: "dry-bulb temperature", unit: " °C", range: -70...70, missing: 99.9)
    static let humidity = FieldRule(field: 9, what: "relative humidity", unit: " %", range: 0...110, missing: 999)
    static let pressure = FieldRule(field: 10, what: "station pressure", unit: " Pa", range: 31_000...120_000, missing: 999_999)
    static let windDirection = FieldRule(field: 21, what: "wind direction", unit: "°", range: 0...360, missing: 999)
    static let windSpeed = FieldRule(field: 22, what: "wind speed", unit: " m/s", range: 0...40, missing: 999)
    static let skyCover = FieldRule(field: 23, what: "total sky cover", unit: " tenths", range: 0...10, missing: 99)
    static let precipitation = FieldRule(field: 34, what: "liquid precipitation depth", unit: " mm", range: 0...500, missing: 999)

    /// The fields of an EPW data line (the manual's 35; files that stop after field 34 are read too).
    static let dataFields = 34...35

    /// Whether `text` is written as a decimal number only: sign, digits, one point, an exponent — no
    /// NUL, letters or other bytes that a C-string number parser would stop at and drop silently.
    static func isDecimalText(_ text: Substring) -> Bool {
        var digits = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): continue
            default: return false
            }
        }
        return digits > 0
    }

    /// The records of one data line.
    private static func hour(_ line: Substring, lineNumber: Int, name: String) throws(WeatherError) -> Hour {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard dataFields.contains(fields.count) else {
            throw problem(name, line: lineNumber, "has \(fields.count) fields; an EPW data line has 35 (34 at least: up to liquid precipitation depth).")
        }
        func text(_ field: Int) -> String { UserText.quoted(String(fields[field - 1]), limit: 40) }
        func number(_ field: Int, _ what: String) throws(WeatherError) -> Double {
            let trimmed = fields[field - 1].trimmingBlanks
            guard isDecimalText(trimmed[...]), let value = Double(trimmed), value.isFinite else {
                throw problem(name, line: lineNumber, "field \(field) (\(what)) is \(text(field)), not a number.")
            }
            return value
        }
        /// The field's value, `nil` when it is the missing code; out of range is an error.
        func measured(_ rule: FieldRule) throws(WeatherError) -> Double? {
            let value = try number(rule.field, rule.what)
            if value == rule.missing { return nil }
            guard rule.range.contains(value) else {
                throw problem(name, line: lineNumber, "field \(rule.field) (\(rule.what)) is \(text(rule.field))\(rule.unit), out of range: "
                              + "EPW allows \(NumberText.plain(rule.range.lowerBound)) to \(NumberText.plain(rule.range.upperBound))\(rule.unit), "
                              + "or \(NumberText.plain(rule.missing)) for missing.")
            }
            return value
        }
        func integer(_ field: Int, _ what: String, _ range: ClosedRange<Int>) throws(WeatherError) -> Int {
            guard let value = Int(fields[field - 1].trimmingBlanks), range.contains(value) else {
                throw problem(name, line: lineNumber, "field \(field) (\(what)) is \(text(field)); it must be a whole number from \(range.lowerBound) to \(range.upperBound).")
            }
            return value
        }
        let month = try integer(2, "month", 1...12), day = try integer(3, "day", 1...31), hour = try integer(4, "hour", 1...24)
        guard CivilDate(year: 2001, month: month, day: day) != nil || (month == 2 && day == 29) else {
            throw problem(name, line: lineNumber, "has the date \(month)/\(day), which no year has.")
        }
        guard let temp = try measured(dryBulb) else {
            throw problem(name, line: lineNumber, "field 7 (dry-bulb temperature) is missing (99.9); the twin needs a temperature every hour.")
        }
        let rh = try measured(humidity), pa = try measured(pressure)
        let direction = try measured(windDirection), speed = try measured(windSpeed)
        let sky = try measured(skyCover), rain = try measured(precipitation) ?? 0
        let cloudsPercent = sky.map { Int(($0 * 10).rounded()) }
        let condition: WeatherCondition = rain > 0 ? (temp <= 0 ? .snow : .rain) : (cloudsPercent ?? 0) >= 50 ? .clouds : .clear
        do {
            let sample = try WeatherSample(
                tempC: temp, humidity: rh.map { min(100, $0) } ?? 70, condition: condition,
                windMps: speed ?? 0, windDeg: direction.map { Int($0.rounded()) } ?? 0,
                pressureHPa: pa.map { min(1200, max(300, $0 / 100)) } ?? 1013, cloudsPercent: cloudsPercent,
                precipitationMmPerHour: condition == .rain || condition == .snow ? rain : 0, fieldPath: "\(name) line \(lineNumber)")
            return Hour(month: month, day: day, hour: hour, sample: sample)
        } catch {
            throw problem(name, line: lineNumber, error.message)
        }
    }

    /// The file's hours laid on every calendar year that `[start, end]` touches (a day of margin on
    /// each side), as a linear ``WeatherSeries``: a typical year repeats for a span of several
    /// years. The record of hour *h* of a day is the weather at *h*:00 local standard time (the end
    /// of the hour it describes); a 29 February the file lacks is interpolated from its neighbours,
    /// and one the year lacks is left out.
    /// - Throws: ``WeatherError`` `weather.invalidSource` if two records fall on the same hour.
    public func series(from start: SimInstant, to end: SimInstant, fieldPath: String) throws(WeatherError) -> WeatherSeries {
        let zone = Int64((location.timeZoneHours * 3_600_000).rounded())
        let firstYear = Self.year(of: start - .days(1), zoneMilliseconds: zone)
        let lastYear = Self.year(of: end + .days(1), zoneMilliseconds: zone)
        var points: [WeatherSeries.Point] = []
        for year in firstYear...max(firstYear, lastYear) {
            for record in hours {
                guard let date = CivilDate(year: year, month: record.month, day: record.day) else { continue }
                let wall = date.daysSinceEpoch * 86_400_000 + Int64(record.hour) * 3_600_000
                points.append(WeatherSeries.Point(at: SimInstant(unixMilliseconds: wall - zone), sample: record.sample))
            }
        }
        points.sort { $0.at < $1.at }
        return try WeatherSeries(points: points, interpolation: .linear, fieldPath: fieldPath)
    }

    private static func year(of instant: SimInstant, zoneMilliseconds: Int64) -> Int {
        LocalDateTime(wallMilliseconds: instant.unixMilliseconds + zoneMilliseconds).date.year
    }

    private static func problem(_ name: String, line: Int, _ message: String) -> WeatherError {
        WeatherError(.invalidSource, "\(name) line \(line): \(message)")
    }
}
