import Devices
import Booking
import Foundation
import Reports
import Simulation
import Weather

/// `users` and `listings`: people, flats, their thermal models, devices and calendar feeds.
extension ScenarioDecoder {
    static func decodeUser(_ field: Field) -> UserSpec? {
        guard let o = field.object(["id", "name", "email"]), let id = o.required("id")?.name, let name = o.required("name")?.name else {
            return nil
        }
        return UserSpec(id: id, name: name, email: o.optional("email")?.string)
    }

    static func decodeListing(_ field: Field) -> ListingSpec? {
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
    static func decodeCalendarFeed(_ field: Field) -> CalendarFeedSpec? {
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

    static func decodeThermal(_ field: Field) -> ThermalSpec? {
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

    static func decodeDevice(_ field: Field) -> DeviceSpec? {
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
}
