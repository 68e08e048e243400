import Devices
import Booking
import Foundation
import Reports
import Simulation
import Weather

/// `weather` (constant, diurnal, series or EPW weather per city) and `cities` (cities beyond the built-in ones).
extension ScenarioDecoder {
    static func decodeWeather(_ field: Field, seed: UInt64, calendar: LocalCalendar,
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
    static func decodeEPW(_ f: Field, path: String, span: (SimInstant, SimInstant)) -> WeatherSeries? {
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
    static func checkDiurnalRange(_ f: Field, meanC: Double, amplitudeK: Double, noiseK: Double) -> Bool {
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
    static func decodeCities(_ field: Field) -> [String: CitySpec]? {
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
    static func decodeSeries(_ points: FieldList, object: ObjectReader, calendar: LocalCalendar)
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
}
