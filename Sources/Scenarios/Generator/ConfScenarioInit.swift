import Foundation
import Simulation
import SmartHome

/// `rental-twin init --openhab DIR`: a scenario that loads an openHAB configuration directory as it is, with
/// listings and devices read from openHAB's semantic model.
///
/// openHAB's semantic model (openhab-core's `SemanticTags.csv`) tags Groups as Locations and Equipment and
/// Items as Points with a Property. `init` reads every `items/*.items` file of the directory and maps:
/// - each top-level **Location** (a Location Group in no other Location) that holds mapped Equipment to one
///   listing; Equipment outside any Location goes to one listing named after the directory;
/// - **Equipment** tagged `Thermostat`, `RadiatorControl`, `FloorHeating`, `Boiler`, `Furnace`, `HeatPump` or
///   `HVAC` to a heating thermostat, `AirConditioner` to a cooling one, `Lock` to a smart lock and `PowerOutlet`
///   to a smart plug;
/// - the Equipment's **Points** (its members) to the device's channels by tags and Item type: `Setpoint` +
///   `Temperature` → `setpoint`, `Measurement` + `Temperature` → `temperature`, a Switch tagged `Switch` or
///   `Control` (+ `Power`) → `switch` (a lock's `lock`), `Measurement` + `Power` → `power`, `Measurement` +
///   `Energy` → `energy`, a Contact tagged `OpenState` → `door`, a Number tagged `Battery`/`LowBattery` → `battery`;
///   each becomes an `itemBindings` entry.
///
/// Everything else stays as the directory has it: virtual Items, linked to their Things' channels. The scenario
/// has a week of diurnal winter weather and no expectations; what was mapped, and why, is returned as notes.
public enum ConfScenarioInit {
    /// What `init` made: the scenario text and what it mapped and left virtual, one line each.
    public struct Result: Sendable {
        /// The scenario file's text (JSON, keys in the order the format documents them).
        public var scenario: String
        /// What was mapped and why, and what was left virtual.
        public var notes: [String]
    }

    /// Why `init` could not write a scenario.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The sentence a user reads.
        public let description: String
    }

    /// Equipment tags → device type.
    static let deviceTypes: [(tag: String, type: String)] = [
        ("Thermostat", "heating"), ("RadiatorControl", "heating"), ("FloorHeating", "heating"), ("Boiler", "heating"),
        ("Furnace", "heating"), ("HeatPump", "heating"), ("AirConditioner", "cooling"), ("HVAC", "heating"),
        ("Lock", "lock"), ("PowerOutlet", "smartPlug"),
    ]

    /// openHAB's Location tags (`SemanticTags.csv`, Type Location).
    static let locationTags: Set<String> = [
        "Location", "Indoor", "Apartment", "Building", "Garage", "House", "Shed", "SummerHouse", "Corridor", "Floor", "Attic",
        "Basement", "FirstFloor", "GroundFloor", "SecondFloor", "ThirdFloor", "Room", "Bathroom", "Bedroom", "BoilerRoom",
        "Cellar", "DiningRoom", "Entry", "FamilyRoom", "GuestRoom", "Kitchen", "LaundryRoom", "LivingRoom", "Office",
        "Veranda", "Outdoor", "Carport", "Driveway", "Garden", "Patio", "Porch", "Terrace",
    ]

    /// Writes the scenario for the conf directory `directory`, as the scenario file `scenarioPath` will name it.
    /// - Parameters:
    ///   - directory: the `$OPENHAB_CONF` directory.
    ///   - scenarioPath: where the scenario will be written (its `openhabConf` is relative to that file's folder).
    /// - Throws: ``Failure`` when the directory has no `items/` or no Item to map.
    public static func make(directory: String, scenarioPath: String) throws(Failure) -> Result {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure(description: "\(directory) is not a directory; give openHAB's configuration directory ($OPENHAB_CONF, holding items/, things/, rules/ …).")
        }
        let itemsDirectory = (directory as NSString).appendingPathComponent("items")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: itemsDirectory)) ?? []).filter { $0.hasSuffix(".items") && !$0.hasPrefix(".") }.sorted()
        var items: [ItemDefinition] = []
        var notes: [String] = []
        for name in names {
            let path = (itemsDirectory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let parsed = ItemsFileParser.parse(bytes: Array(data), file: "items/\(name)")
            if !parsed.issues.isEmpty {
                notes.append("items/\(name): \(parsed.issues.count) problem(s) (validate names them); its \(parsed.items.count) readable Item(s) are mapped")
            }
            items += parsed.items
        }
        let model = SemanticModel(items: items)
        let home = (directory as NSString).standardizingPath.split(separator: "/").last.map(String.init) ?? "home"
        var listings: [Listing] = []
        var bindings: [(item: String, path: String)] = []
        for equipment in model.equipment {
            let root = model.topLocation(of: equipment.item.name)
            let listingName = root.map { $0.label ?? $0.name } ?? home
            let listingID = slug(root?.name ?? home)
            if !listings.contains(where: { $0.id == listingID }) { listings.append(Listing(id: listingID, name: listingName, devices: [])) }
            let index = listings.firstIndex { $0.id == listingID } ?? 0
            var deviceID = slug(equipment.item.name)
            while listings[index].devices.contains(where: { $0.id == deviceID }) { deviceID += "-2" }
            listings[index].devices.append(Device(id: deviceID, type: equipment.type))
            let why = "\(equipment.item.name) [\(equipment.tag)]"
            notes.append("mapped \(why) in \(root.map { location in "\(location.name) [\(location.tags.first { locationTags.contains($0) } ?? "Location")]" } ?? "no Location (listing \(listingID))") → \(listingID)/\(deviceID) (\(equipment.type))")
            // An Equipment that is an Item itself (a Switch tagged PowerOutlet) is its own Point.
            let points = equipment.item.type == .groupItem ? model.members(of: equipment.item.name) : [equipment.item]
            for point in points {
                if let channel = channel(for: point, deviceType: equipment.type) {
                    bindings.append((point.name, "\(listingID)/\(deviceID)/\(channel)"))
                    notes.append("  bound \(point.name) \(tagText(point)) → \(listingID)/\(deviceID)/\(channel)")
                } else {
                    notes.append("  left virtual \(point.name) \(tagText(point)): no \(equipment.type) channel takes a \(point.type) Item with these tags")
                }
            }
        }
        // Bindings must name each Item once (a Point in two Equipment groups is bound by the first).
        var seen: Set<String> = []
        bindings = bindings.filter { seen.insert($0.item).inserted }
        if listings.isEmpty {
            listings = [Listing(id: slug(home), name: home, devices: [])]
            notes.append("no Equipment tagged \(deviceTypes.map(\.tag).joined(separator: ", ")): one listing without devices, every Item virtual")
        }
        let virtual = items.count - bindings.count
        notes.append("\(items.count) Item(s) in \(names.count) .items file(s): \(bindings.count) bound to the twin's devices, \(virtual) virtual (states from rules, the timeline and serve)")
        notes.append("assumed: Budapest, Hungary (Europe/Budapest), a week of diurnal winter weather, a flat of 80 W/K and 2.3 kWh/K; edit them to your home")
        let relative = relativePath(of: directory, from: (scenarioPath as NSString).deletingLastPathComponent)
        return Result(scenario: scenarioText(conf: relative, home: home, listings: listings, bindings: bindings), notes: notes)
    }

    // MARK: The semantic model

    struct Equipment {
        var item: ItemDefinition
        var tag: String
        var type: String
    }

    /// Locations, Equipment and their Points, from the Items' tags and Group memberships.
    struct SemanticModel {
        let byName: [String: ItemDefinition]
        let membersOf: [String: [ItemDefinition]]
        let equipment: [Equipment]

        init(items: [ItemDefinition]) {
            var byName: [String: ItemDefinition] = [:]
            var members: [String: [ItemDefinition]] = [:]
            for item in items where byName[item.name] == nil {
                byName[item.name] = item
                for group in item.groups { members[group, default: []].append(item) }
            }
            self.byName = byName
            self.membersOf = members
            equipment = items.compactMap { item in
                guard let (tag, type) = deviceTypes.first(where: { entry in item.tags.contains { $0.caseInsensitiveCompare(entry.tag) == .orderedSame } }) else { return nil }
                return Equipment(item: item, tag: tag, type: type)
            }
        }

        func members(of group: String) -> [ItemDefinition] { membersOf[group] ?? [] }

        func isLocation(_ item: ItemDefinition) -> Bool { item.tags.contains { locationTags.contains($0) } }

        /// The outermost Location Group above `name` (following Group memberships, each Group once).
        func topLocation(of name: String) -> ItemDefinition? {
            var frontier = [name]
            var visited: Set<String> = [name]
            var top: ItemDefinition?
            while let next = frontier.first {
                frontier.removeFirst()
                for group in byName[next]?.groups ?? [] where visited.insert(group).inserted {
                    guard let parent = byName[group] else { continue }
                    if isLocation(parent) { top = parent }
                    frontier.append(group)
                }
            }
            return top
        }
    }

    /// The channel of a `deviceType` device a Point Item stands for, or `nil`.
    static func channel(for point: ItemDefinition, deviceType: String) -> String? {
        let tags = Set(point.tags.map { $0.lowercased() })
        func has(_ tag: String) -> Bool { tags.contains(tag.lowercased()) }
        let isNumber: Bool
        let dimension: SmartHome.Dimension?
        if case .numberItem(let d) = point.type { isNumber = true; dimension = d } else { isNumber = false; dimension = nil }
        func number(_ wanted: SmartHome.Dimension) -> Bool { isNumber && (dimension == nil || dimension == wanted) }
        let isSwitch = point.type == .switchItem
        switch deviceType {
        case "heating", "cooling", "smartPlug":
            if has("Setpoint"), has("Temperature"), number(.temperature), deviceType != "smartPlug" { return "setpoint" }
            if has("Measurement"), has("Temperature"), number(.temperature) { return "temperature" }
            if has("Measurement"), has("Power"), number(.power) { return "power" }
            if has("Measurement"), has("Energy"), number(.energy) { return "energy" }
            if isSwitch, has("Switch") || has("Control") || has("Power") || has("PowerOutlet") { return "switch" }
        case "lock":
            if isSwitch, has("Switch") || has("Control") || has("Lock") { return "lock" }
            if point.type == .contactItem, has("OpenState") || has("Opening") { return "door" }
            if isNumber, dimension == nil || dimension == .dimensionless, has("Battery") || has("LowBattery") || has("Level") { return "battery" }
        default: break
        }
        return nil
    }

    static func tagText(_ item: ItemDefinition) -> String {
        "(\(item.type)\(item.tags.isEmpty ? "" : ", " + item.tags.joined(separator: ", ")))"
    }

    // MARK: Writing

    struct Device { var id: String; var type: String }
    struct Listing { var id: String; var name: String; var devices: [Device] }

    /// An id the scenario format takes: lowercase letters, digits and `-`.
    static func slug(_ name: String) -> String {
        var out = ""
        var lastDash = true
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(Unicode.Scalar(UInt8(scalar.value)).properties.lowercaseMapping.unicodeScalars.first ?? scalar)
                lastDash = false
            } else if !lastDash {
                out += "-"
                lastDash = true
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "home" : String(out.prefix(60))
    }

    /// `target` relative to the folder `base` (both made absolute against the working directory).
    static func relativePath(of target: String, from base: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        func parts(_ p: String) -> [String] {
            let absolute = p.hasPrefix("/") ? p : (cwd as NSString).appendingPathComponent(p.isEmpty ? "." : p)
            return (absolute as NSString).standardizingPath.split(separator: "/").map(String.init)
        }
        let t = parts(target), b = parts(base)
        var common = 0
        while common < t.count, common < b.count, t[common] == b[common] { common += 1 }
        let up = Array(repeating: "..", count: b.count - common)
        let path = (up + t[common...]).joined(separator: "/")
        return path.isEmpty ? "." : path
    }

    static func scenarioText(conf: String, home: String, listings: [Listing], bindings: [(item: String, path: String)]) -> String {
        let q = JSONString.quoted
        var out = "{\n"
        out += "  \"version\": 1,\n"
        out += "  \"name\": \(q("openHAB configuration \(home), as it is")),\n"
        out += "  \"description\": \(q("Written by rental-twin init from \(conf): listings and devices from the semantic model, everything else as the directory has it. Add bookings, a timeline and expectations.")),\n"
        out += "  \"seed\": 1,\n"
        out += "  \"timeZone\": \"Europe/Budapest\",\n"
        out += "  \"start\": \"2026-01-05T00:00\",\n"
        out += "  \"end\": \"2026-01-12T00:00\",\n"
        out += "  \"weather\": {\n    \"Budapest\": {\n      \"diurnal\": { \"meanC\": 1, \"amplitudeK\": 4, \"minAtHour\": 5, \"noiseK\": 0.5 }\n    }\n  },\n"
        out += "  \"users\": [\n    { \"id\": \"host\", \"name\": \"Host\" }\n  ],\n"
        out += "  \"listings\": [\n"
        out += listings.map { listing in
            var text = "    {\n      \"id\": \(q(listing.id)),\n      \"owner\": \"host\",\n      \"name\": \(q(listing.name)),\n"
            text += "      \"city\": \"Budapest\",\n      \"country\": \"Hungary\",\n      \"capacity\": 2,\n"
            text += "      \"thermal\": { \"uaWPerK\": 80, \"capacitanceKWhPerK\": 2.3, \"initialC\": 20 },\n"
            text += "      \"devices\": ["
            text += listing.devices.isEmpty ? "]\n" : "\n" + listing.devices.map { "        " + deviceText($0) }.joined(separator: ",\n") + "\n      ]\n"
            return text + "    }"
        }.joined(separator: ",\n")
        out += "\n  ],\n"
        out += "  \"openhabConf\": \(q(conf))"
        if !bindings.isEmpty {
            out += ",\n  \"itemBindings\": {\n"
            out += bindings.map { "    \(q($0.item)): \(q($0.path))" }.joined(separator: ",\n")
            out += "\n  }"
        }
        out += ",\n  \"timeline\": [],\n  \"expect\": []\n}\n"
        return out
    }

    static func deviceText(_ device: Device) -> String {
        let id = JSONString.quoted(device.id)
        switch device.type {
        case "heating": return "{ \"id\": \(id), \"type\": \"heating\", \"powerW\": 2000, \"setpointC\": 21 }"
        case "cooling": return "{ \"id\": \(id), \"type\": \"cooling\", \"powerW\": 2000, \"setpointC\": 25 }"
        case "smartPlug": return "{ \"id\": \(id), \"type\": \"smartPlug\", \"loadW\": 100, \"standbyW\": 0.5 }"
        default: return "{ \"id\": \(id), \"type\": \"lock\" }"
        }
    }
}
