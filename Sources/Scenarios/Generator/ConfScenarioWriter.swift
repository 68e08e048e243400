import Foundation
import ScenarioFormat
import Simulation
import SmartHome

/// `rental-twin init --openhab DIR`: a scenario that loads an openHAB configuration directory, with its listings
/// and devices read from openHAB's semantic model in the directory's `.items` files — Locations (`Apartment`,
/// `House`, `Building`, `SummerHouse` become listings), Equipment tagged `Thermostat`, `RadiatorControl` or `HVAC`
/// (a heating device), `Lock` (a lock) or `PowerOutlet` (a smart plug), and their Points (`Setpoint` and
/// `Measurement` with `Temperature`, `Switch`/`Control`, `OpenState`, `Power`) bound to the devices' channels
/// through `itemBindings` where the Item's type fits. A week of diurnal weather, no expectations.
public enum ConfScenarioWriter {
    /// The scenario's text and what was mapped, why, and what stays virtual (one line each).
    public struct Result: Sendable {
        public var scenario: String
        public var report: [String]
    }

    static let listingTags: Set<String> = ["Apartment", "House", "Building", "SummerHouse"]
    static let locationTags: Set<String> = listingTags.union(["Location", "Indoor", "Garage", "Shed", "Floor", "GroundFloor", "FirstFloor",
        "SecondFloor", "ThirdFloor", "Attic", "Basement", "Corridor", "Room", "Bathroom", "Bedroom", "BoilerRoom", "Cellar", "DiningRoom",
        "Entry", "FamilyRoom", "GuestRoom", "Kitchen", "LaundryRoom", "LivingRoom", "Office", "Veranda", "Outdoor", "Garden", "Terrace"])

    /// Reads `directory`'s `items/*.items` and writes a scenario that names the directory as `written` (relative to
    /// the scenario file).
    public static func write(directory: String, written: String) -> Result {
        var definitions: [ItemDefinition] = []
        var report: [String] = []
        let itemsDirectory = "\(directory)/items"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: itemsDirectory)) ?? []).filter { $0.hasSuffix(".items") && !$0.hasPrefix(".") }.sorted()
        for name in names {
            guard let data = FileManager.default.contents(atPath: "\(itemsDirectory)/\(name)") else { continue }
            let parsed = ItemsFileParser.parse(bytes: [UInt8](data), file: "items/\(name)")
            if !parsed.issues.isEmpty { report.append("items/\(name): \(parsed.issues.count) problem(s); openHAB skips the file, so does the scenario") }
            else { definitions += parsed.items }
        }
        var byName: [String: ItemDefinition] = [:]
        for item in definitions where byName[item.name] == nil { byName[item.name] = item }
        var members: [String: [ItemDefinition]] = [:]
        for item in definitions { for group in item.groups { members[group, default: []].append(item) } }

        // Listings: the top Locations that are a flat or a house; without one, the whole configuration is one listing.
        var listings: [(id: String, name: String, group: String?)] = []
        for item in definitions where item.type == .groupItem && !Set(item.tags).isDisjoint(with: listingTags) {
            listings.append((listingID(item.name), item.label ?? item.name, item.name))
            report.append("listing \(listingID(item.name)): Location \(item.name) (tagged \(item.tags.filter { listingTags.contains($0) }.joined(separator: ", ")))")
        }
        if listings.isEmpty {
            listings.append(("home", "Home", nil))
            report.append("listing home: no Location tagged Apartment, House, Building or SummerHouse; every Equipment is in it")
        }
        /// The listing an Item is below (through its Groups), or the first.
        func listing(of item: ItemDefinition) -> String {
            var pending = item.groups, seen: Set<String> = []
            while let group = pending.popLast() {
                guard seen.insert(group).inserted else { continue }
                if let found = listings.first(where: { $0.group == group }) { return found.id }
                pending += byName[group]?.groups ?? []
            }
            return listings[0].id
        }

        var devices: [String: [String]] = [:]  // listing → device JSON
        var bindings: [(item: String, target: String)] = []
        var counters: [String: Int] = [:]
        for equipment in definitions {
            let tags = Set(equipment.tags)
            let kind: String
            if !tags.isDisjoint(with: ["Thermostat", "RadiatorControl", "HVAC"]) { kind = "heating" }
            else if tags.contains("Lock") { kind = "lock" }
            else if tags.contains("PowerOutlet") { kind = "plug" }
            else { continue }
            let home = listing(of: equipment)
            counters[kind, default: 0] += 1
            let id = counters[kind]! > 1 ? "\(kind)-\(counters[kind]!)" : kind
            let json = switch kind {
            case "heating": #"{ "id": "\#(id)", "type": "heating", "powerW": 2000, "setpointC": 20 }"#
            case "lock": #"{ "id": "\#(id)", "type": "lock" }"#
            default: #"{ "id": "\#(id)", "type": "smartPlug", "loadW": 1000, "standbyW": 0.5 }"#
            }
            devices[home, default: []].append(json)
            report.append("device \(home)/\(id): Equipment \(equipment.name) (\(equipment.tags.joined(separator: ", ")))")
            // Its Points: the Equipment's members (a single Item tagged as Equipment is its own Point).
            let points = equipment.type == .groupItem ? (members[equipment.name] ?? []) : [equipment]
            for point in points {
                let p = Set(point.tags)
                var channel: String?
                switch kind {
                case "heating":
                    channel = p.contains("Setpoint") ? "setpoint" : p.contains("Measurement") && p.contains("Temperature") ? "temperature"
                        : !p.isDisjoint(with: ["Switch", "Control"]) ? "switch" : nil
                case "lock":
                    channel = p.contains("OpenState") ? "door" : !p.isDisjoint(with: ["Switch", "Control"]) ? "lock" : nil
                default:
                    channel = p.contains("Power") && p.contains("Measurement") ? "power" : !p.isDisjoint(with: ["Switch", "Control"]) ? "switch" : nil
                }
                if channel == nil, equipment.type != .groupItem, point.type == .switchItem {
                    channel = kind == "lock" ? "lock" : "switch"  // a Switch that is Equipment and its own Point
                }
                guard let channel, let channelType = channelTypes[channel] else {
                    report.append("  virtual \(point.name): no Point tag the twin maps (\(point.tags.joined(separator: ", ")))")
                    continue
                }
                if let why = TwinThings.incompatibility(point.type, point.aggregation, channelType) {
                    report.append("  virtual \(point.name): \(why)")
                    continue
                }
                guard !bindings.contains(where: { $0.target == "\(home)/\(id)/\(channel)" }) else {
                    report.append("  virtual \(point.name): \(home)/\(id)/\(channel) is bound already")
                    continue
                }
                bindings.append((point.name, "\(home)/\(id)/\(channel)"))
                report.append("  bound \(point.name) → \(home)/\(id)/\(channel)")
            }
        }
        let listingJSON = listings.map { listing in
            """
                {
                  "id": \(JSONString.quoted(listing.id)), "owner": "host", "name": \(JSONString.quoted(listing.name)),
                  "city": "Berlin", "country": "Germany", "capacity": 4,
                  "thermal": { "uaWPerK": 90, "capacitanceKWhPerK": 2.5, "initialC": 18 },
                  "devices": [\((devices[listing.id] ?? []).map { "\n        \($0)" }.joined(separator: ","))\((devices[listing.id] ?? []).isEmpty ? "" : "\n      ")]
                }
            """
        }.joined(separator: ",\n")
        let bindingJSON = bindings.map { "    \(JSONString.quoted($0.item)): \(JSONString.quoted($0.target))" }.joined(separator: ",\n")
        let scenario = """
            {
              "version": 1,
              "name": "openHAB configuration \(written.replacingOccurrences(of: "\"", with: ""))",
              "description": "Written by rental-twin init from the directory's semantic model: a week of diurnal winter weather, no expectations yet.",
              "seed": 1,
              "timeZone": "Europe/Berlin",
              "start": "2026-01-05T00:00",
              "end": "2026-01-12T00:00",
              "weather": { "Berlin": { "diurnal": { "meanC": 1, "amplitudeK": 4, "minAtHour": 5, "noiseK": 0.5 } } },
              "users": [ { "id": "host", "name": "Host" } ],
              "listings": [
            \(listingJSON)
              ],
              "openhabConf": \(JSONString.quoted(written)),
              "itemBindings": {\(bindings.isEmpty ? "" : "\n\(bindingJSON)\n  ")}
            }

            """
        return Result(scenario: scenario, report: report)
    }

    /// The Item types of the device channels the Points are bound to (the Devices library's `DeviceChannel`).
    static let channelTypes: [String: ItemType] = ["switch": .switchItem, "lock": .switchItem, "setpoint": .numberItem(.temperature),
                                                   "temperature": .numberItem(.temperature), "power": .numberItem(.power), "door": .contactItem]

    /// A listing id from a Location's name (`gApartment_1` → `apartment-1`).
    static func listingID(_ name: String) -> String {
        var text = name
        if text.count > 1, text.first == "g", text.dropFirst().first?.isUppercase == true { text.removeFirst() }
        let id = text.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        return id.isEmpty ? "home" : id
    }
}
