import Booking
import Devices
import Rules
import Simulation
import SmartHome
import Weather

/// Cross-reference checks of a structurally valid scenario: every id a step or expectation names
/// exists, every listing's city has weather, times lie within `start…end`, Item names do not collide.
/// A step with `expectError` may name unknown things on purpose (that is what it tests), so its
/// references are not checked.
enum ScenarioValidator {
    static func validate(_ scenario: Scenario, root: JSONNode, issues: IssueCollector) {
        var checker = Checker(scenario: scenario, root: root, issues: issues)
        checker.run()
    }

    /// Every error code a step may expect.
    static var knownErrorCodes: [String] { BookingError.Code.allCases.map(\.rawValue).sorted() }

    private struct Checker {
        let scenario: Scenario
        let root: JSONNode
        let issues: IssueCollector
        let users: [String]
        let listings: [String: ListingSpec]
        let cities: [String]
        let reservations: [String]
        /// The same ids, for membership: a generated portfolio year has tens of thousands of
        /// bookings and twice as many steps naming them (an array search made validating quadratic).
        let userSet: Set<String>, reservationSet: Set<String>
        /// `listing/device/channel` → device.
        var items: [String: DeviceSpec] = [:]
        /// openHAB Item name → the path that took it.
        var itemNames: [String: String] = [:]

        init(scenario: Scenario, root: JSONNode, issues: IssueCollector) {
            self.scenario = scenario
            self.root = root
            self.issues = issues
            users = scenario.users.map(\.id)
            listings = Dictionary(scenario.listings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            cities = scenario.weather.map(\.city)
            reservations = scenario.timeline.compactMap { if case .book(let id, _, _, _, _, _) = $0.action { id } else { nil } }
                + scenario.listings.flatMap { listing in
                    listing.calendars.flatMap(\.events).filter(CalendarStays.isStay)
                        .map { CalendarStays.reservationID($0, listing: ListingID(listing.id)).rawValue }
                }
            userSet = Set(users)
            reservationSet = Set(reservations)
        }

        func report(_ path: String, _ message: String, hint: String? = nil) {
            issues.add(path, line: root.node(at: path)?.line, message, hint: hint)
        }

        func unknown(_ path: String, _ what: String, _ value: String, among candidates: [String]) {
            let hint = Suggestion.closest(to: value, in: candidates).map { "did you mean \"\($0)\"?" }
                ?? (candidates.isEmpty ? "define it first." : "known: \(candidates.sorted().prefix(12).joined(separator: ", ")).")
            report(path, "no \(what) \(UserText.quoted(value)).", hint: hint)
        }

        mutating func run() {
            duplicates(scenario.users.map(\.id), path: { "users[\($0)].id" }, what: "user")
            duplicates(scenario.listings.map(\.id), path: { "listings[\($0)].id" }, what: "listing")
            for (index, user) in scenario.users.enumerated() where user.id.isEmpty {
                report("users[\(index)].id", "must not be empty.")
            }
            for (index, listing) in scenario.listings.enumerated() { checkListing(listing, at: "listings[\(index)]") }
            checkCities()
            for step in scenario.timeline { checkStep(step) }
            var booked: [String: String] = [:]
            for step in scenario.timeline where step.expectError == nil {
                guard case .book(let id, _, _, _, _, _) = step.action else { continue }
                if let first = booked[id] {
                    report("\(step.path).book.id", "the reservation id \(UserText.quoted(id)) is already used by \(first).", hint: "give every booking its own id.")
                }
                booked[id] = step.path
            }
            checkVirtualItems()
            checkItemBindings()
            checkRules()
            for expectation in scenario.expectations { checkExpectation(expectation) }
        }

        /// Every openHAB Item name: the devices' and the virtual ones.
        var allItemNames: [String] { Array(itemNames.keys) + scenario.items.map(\.name) }

        /// Virtual Items: unique, not a device Item's name, Group members exist.
        func checkVirtualItems() {
            var seen: Set<String> = []
            for spec in scenario.items {
                if let device = itemNames[spec.name], let definition = spec.definition {
                    let fileIssues = IssueCollector(file: spec.sourceFile ?? scenario.file)
                    fileIssues.add("", line: definition.line, "column \(definition.column): items.duplicate: \(UserText.quoted(spec.name)) is already the Item of \(device).",
                                   hint: "give the Item another name, or bind it to \(device) under \"itemBindings\".")
                    issues.absorb(fileIssues)
                } else if let device = itemNames[spec.name] {
                    report("\(spec.path).name", "\(UserText.quoted(spec.name)) is already the Item of \(device).", hint: "give the virtual Item another name.")
                } else if !seen.insert(spec.name).inserted {
                    report("\(spec.path).name", "the Item \(UserText.quoted(spec.name)) is defined twice.")
                }
                for (index, member) in spec.members.enumerated() where resolvedItem(member) == nil {
                    unknown("\(spec.path).members[\(index)]", "Item", member, among: allItemNames)
                }
            }
        }

        /// `itemBindings` and `.items` channel links: the Item is the user's, the target a device channel
        /// whose Item type the user's Item can stand for (World+ItemBinding links them).
        func checkItemBindings() {
            let userItems = Dictionary(scenario.items.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            var bound: Set<String> = []
            for binding in scenario.itemBindings {
                guard let spec = userItems[binding.item] else {
                    unknown(binding.path, "Item of the .items files or items named", binding.item, among: Array(userItems.keys))
                    continue
                }
                if !bound.insert(binding.item).inserted { report(binding.path, "\"\(binding.item)\" is bound twice.") }
                guard let device = items[binding.target] else {
                    unknown(binding.path, "device channel", binding.target, among: Array(items.keys))
                    continue
                }
                let channel = binding.target.split(separator: "/").last.map(String.init) ?? ""
                if let deviceType = DeviceChannel(rawValue: channel)?.itemType,
                   let problem = TwinThings.incompatibility(spec.type, spec.definition?.aggregation, deviceType) {
                    report(binding.path, "\(binding.item) is a \(spec.type) Item but \(binding.target) (\(device.id)) is a \(deviceType) channel: \(problem)")
                }
            }
            if let persistence = scenario.persistence {
                let groups = Set(scenario.items.filter { $0.type == .groupItem }.map(\.name))
                for (index, selector) in persistence.items.enumerated() where selector != "*" {
                    let name = selector.hasSuffix("*") ? String(selector.dropLast()) : selector
                    if selector.hasSuffix("*") ? !groups.contains(name) : resolvedItem(name) == nil {
                        unknown("\(persistence.path).items[\(index)]", selector.hasSuffix("*") ? "Group" : "Item", name,
                                among: selector.hasSuffix("*") ? Array(groups) : allItemNames)
                    }
                }
            }
            let twinChannels = TwinThings.channelUIDs(scenario)
            for spec in scenario.items {
                for link in spec.definition?.channels ?? [] where link.uid.hasPrefix("twin:") && twinChannels[link.uid] == nil {
                    let fileIssues = IssueCollector(file: spec.sourceFile ?? scenario.file)
                    fileIssues.add("", line: link.line, "column \(link.column): items.unknownChannel: \(spec.name) links the channel \"\(link.uid)\", which the twin does not have.",
                                   hint: Suggestion.closest(to: link.uid, in: Array(twinChannels.keys)).map { "did you mean \"\($0)\"?" }
                                    ?? "the twin's channels are twin:<thermostat|plug|lock>:<listing>:<device>:<channel>.")
                    issues.absorb(fileIssues)
                }
            }
        }

        /// The openHAB Item name a step or expectation means: a device path or an Item name.
        func resolvedItem(_ item: String) -> String? {
            if items[item] != nil { return (try? ItemName(path: item))?.rawValue ?? item }
            if itemNames[item] != nil || scenario.items.contains(where: { $0.name == item }) { return item }
            return nil
        }

        /// Rule files: unique UIDs, every Item and Thing a rule names exists, every rule a rule names is loaded.
        func checkRules() {
            var uids: [String: String] = [:]
            let known = allItemNames
            // The Things the world builds.
            let knownThings = scenario.listings.flatMap { listing in
                listing.devices.map { TwinThings.thingUID($0.kind, listing: listing.id, device: $0.id) }
            } + scenario.things.map(\.uid)
            for rule in scenario.rules {
                if let first = uids[rule.uid] {
                    report("rules", "\(rule.source): the rule UID \(UserText.quoted(rule.uid)) is already used at \(first).", hint: "give each rule its own uid.")
                }
                uids[rule.uid] = rule.source
                var names: [String] = []
                var seen = Set<String>()
                for name in rule.triggers.flatMap(\.itemNames) {
                    // With a conf directory an Item may live in openHAB's JSON database (made in the UI): openHAB loads
                    // a trigger on an Item it does not have, which never fires. So does the twin, and says so. (A body
                    // naming such an Item makes openHAB refuse the file: the loader skips it.)
                    if scenario.openhabConf != nil, !known.contains(name) {
                        if seen.insert(name).inserted {
                            issues.notice("rules", line: nil, "\(rule.source): rule \(UserText.quoted(rule.name)) names the Item \(UserText.quoted(name)) in a trigger, which no .items file declares: the trigger never fires in the twin.",
                                          hint: Suggestion.closest(to: name, in: known).map { "did you mean \"\($0)\"?" } ?? "declare the Item in items/*.items to run it.")
                        }
                    } else {
                        names.append(name)
                    }
                }
                for condition in rule.conditions {
                    if case .itemState(let item, _, _) = condition.kind { names.append(item) }
                    if case .script(let script) = condition.kind { names += script.referencedItems }
                }
                for action in rule.actions {
                    switch action.kind {
                    case .itemCommand(let item, _), .itemStateUpdate(let item, _): names.append(item)
                    case .runRules(let ids, _), .enableRules(let ids, _):
                        for id in ids where !scenario.rules.contains(where: { $0.uid == id }) {
                            report("rules", "\(rule.source): rule \(UserText.quoted(rule.name)) (action \(action.id)) names the rule \(UserText.quoted(id)), which no rule file defines.",
                                   hint: Suggestion.closest(to: id, in: scenario.rules.map(\.uid)).map { "did you mean \"\($0)\"?" })
                        }
                    case .script(let script): names += script.referencedItems
                    case .builtIn: break
                    }
                }
                for thing in rule.triggers.compactMap(\.thingUID) where !knownThings.contains(thing) {
                    // With a conf directory a Thing may live in openHAB's JSON database (made in the UI): openHAB
                    // loads a trigger on a Thing it does not have, which never fires. So does the twin, and says so.
                    if scenario.openhabConf != nil, !thing.hasPrefix("twin:") {
                        issues.notice("rules", line: nil, "\(rule.source): rule \"\(rule.name)\" names the Thing \"\(thing)\", which no .things file declares: its trigger never fires in the twin.",
                                      hint: "declare the Thing in things/*.things to run its status changes.")
                        continue
                    }
                    report("rules", "\(rule.source): rule \"\(rule.name)\" names the Thing \"\(thing)\", which does not exist.",
                           hint: Suggestion.closest(to: thing, in: knownThings).map { "did you mean \"\($0)\"?" }
                            ?? "the twin's Things are twin:thermostat|plug|lock:<listing>:<device>.")
                }
                // A persistence extension on an Item the scenario does not persist (a Group selector
                // `gName*` is left to the run, which knows the members).
                let selectors = (scenario.persistence?.items ?? []) + scenario.persistenceServices.flatMap(\.selectorTexts)
                if !selectors.contains(where: { $0.hasSuffix("*") }) {
                    var scripts: [any RuleScript] = []
                    for condition in rule.conditions { if case .script(let script) = condition.kind { scripts.append(script) } }
                    for action in rule.actions { if case .script(let script) = action.kind { scripts.append(script) } }
                    var told = Set<String>()
                    for read in scripts.flatMap(\.persistenceReads) where known.contains(read.item) && !selectors.contains(read.item)
                        && told.insert(read.item).inserted {
                        report("rules", "\(read.location): \(read.item).\(read.method)(…) reads persistence, but the scenario's \"persistence\" does not record \(read.item) (rules.dslNotPersisted).",
                               hint: "add \"\(read.item)\" (or its Group as \"gName*\", or \"*\") to \"persistence\": {\"items\": […]}.")
                    }
                }
                checkTransforms(rule)
                for name in names where !known.contains(name) && seen.insert(name).inserted {
                    report("rules", "\(rule.source): rule \(UserText.quoted(rule.name)) names the Item \(UserText.quoted(name)), which does not exist.",
                           hint: Suggestion.closest(to: name, in: known).map { "did you mean \"\($0)\"?" }
                            ?? "device Items are named listing_device_channel (e.g. flat_1_heating_setpoint); add helper Items under \"items\".")
                }
            }
        }

        /// `transform("MAP", "en.map", …)` with a literal file the scenario's `transformFiles` do not load, a
        /// type the twin does not run, or a JSONPATH it does not run: refused where the call is.
        func checkTransforms(_ rule: Rule) {
            var scripts: [any RuleScript] = []
            for condition in rule.conditions { if case .script(let script) = condition.kind { scripts.append(script) } }
            for action in rule.actions { if case .script(let script) = action.kind { scripts.append(script) } }
            for use in scripts.flatMap(\.transformUses) {
                let kind = use.type.uppercased()
                switch kind {
                case "MAP", "SCALE":
                    let candidates = scenario.transforms.filter { $0.kind.rawValue == kind }.map(\.name)
                    guard !candidates.contains(use.function) else { continue }
                    let near = Suggestion.closest(to: use.function, in: candidates)
                    report("rules", "\(use.location): transform(\"\(use.type)\", \"\(use.function)\", …) names a \(kind) file the scenario's \"transformFiles\" do not load (rules.dslUnsupported).",
                           hint: near.map { "did you mean \"\($0)\"?" }
                            ?? "add the file (or its directory) to \"transformFiles\", e.g. \"transformFiles\": [\"openhab/transform/\(use.function)\"].")
                case "JSONPATH":
                    do throws(JSONPathTransform.Unsupported) { _ = try JSONPathTransform.transform(use.function, "{}") } catch {
                        report("rules", "\(use.location): \(error.message) (rules.dslUnsupported).", hint: "rewrite the path in that form, or parse the text with REGEX.")
                    }
                case "REGEX": continue
                default:
                    report("rules", "\(use.location): transform(\"\(use.type)\", …) is a transformation the twin does not run (rules.dslUnsupported).",
                           hint: "the twin runs MAP, SCALE, JSONPATH and REGEX.")
                }
            }
        }

        /// The rules of the run: the files' and the built-in automations' (the weather watcher is one rule per
        /// time zone, all listings share the scenario's).
        var knownRules: [(uid: String, name: String)] {
            var known = scenario.rules.map { ($0.uid, $0.name) }
            if scenario.automations.weatherWatcher != nil, !scenario.listings.isEmpty {
                let zone = scenario.calendar.identifier
                known.append((WeatherWatcher.ruleUID(zone), "Weather watcher (\(zone))"))
            }
            return known
        }

        func checkRule(_ rule: String, _ path: String) {
            let known = knownRules
            if !known.contains(where: { $0.uid == rule || $0.name == rule }) {
                unknown(path, "rule (UID or name)", rule, among: known.map(\.name))
            }
        }

        /// Every `cities` entry has weather; no two weather cities look the same to the feed.
        func checkCities() {
            for name in scenario.cities.keys.sorted() where !cities.contains(name) {
                report("cities.\(name)", "the city \(UserText.quoted(name)) has coordinates but no weather.",
                       hint: "add \(UserText.quoted(name)) under \"weather\"" + (Suggestion.closest(to: name, in: cities).map { ", or did you mean \"\($0)\"?" } ?? "."))
            }
            var seen: [String: String] = [:]
            for city in cities {
                do {
                    let info = try scenario.feedCity(named: city)
                    for key in ["id \(info.owmID)", "\(info.name.lowercased()),\(info.countryCode)"] {
                        if let other = seen[key] {
                            report("weather.\(city)", "the weather feed cannot tell \(UserText.quoted(city)) from \(UserText.quoted(other)) (same \(key)).",
                                   hint: "give each city one weather entry, spelled once.")
                            break
                        }
                        seen[key] = city
                    }
                } catch {
                    report("weather.\(city)", error.message)
                }
            }
        }

        func duplicates(_ ids: [String], path: (Int) -> String, what: String) {
            var seen: Set<String> = []
            for (index, id) in ids.enumerated() where !seen.insert(id).inserted {
                report(path(index), "the \(what) id \(UserText.quoted(id)) is used twice.", hint: "ids must be unique.")
            }
        }

        mutating func checkListing(_ listing: ListingSpec, at path: String) {
            if !userSet.contains(listing.owner) { unknown("\(path).owner", "user", listing.owner, among: users) }
            if !cities.contains(listing.city) {
                report("\(path).city", "the city \(UserText.quoted(listing.city)) has no weather.",
                       hint: "add \(UserText.quoted(listing.city)) under \"weather\"" + (Suggestion.closest(to: listing.city, in: cities).map { ", or did you mean \"\($0)\"?" } ?? "."))
            } else if let described = scenario.cities[listing.city]?.countryCode,
                      let code = WeatherService.countryCode(for: listing.country), code != described {
                report("\(path).country", "is \(UserText.quoted(listing.country)) (\(code)) but cities.\(listing.city) puts the city in \(described).",
                       hint: "make the listing's country and the city's \"country\" agree, or leave \"country\" out under cities.")
            }
            do { _ = try ThingUID(binding: "twin", type: "lock", id: listing.id) } catch {
                report("\(path).id", "\(UserText.quoted(listing.id)) cannot be part of an openHAB Thing UID.", hint: "use letters, digits, '-' and '_' only.")
            }
            checkHeatingRate(listing, at: path)
            checkCalendars(listing, at: path)
            var deviceIDs: Set<String> = []
            for (index, device) in listing.devices.enumerated() {
                if !deviceIDs.insert(device.id).inserted {
                    report("\(path).devices[\(index)].id", "the device id \(UserText.quoted(device.id)) is used twice in \(listing.id).")
                }
                do { _ = try ThingUID(binding: "twin", type: "lock", id: device.id) } catch {
                    report("\(path).devices[\(index)].id", "\(UserText.quoted(device.id)) cannot be part of an openHAB Thing UID.", hint: "use letters, digits, '-' and '_' only.")
                }
                for channel in device.kind.channels {
                    let itemPath = "\(listing.id)/\(device.id)/\(channel)"
                    let name = (try? ItemName(path: itemPath))?.rawValue ?? itemPath
                    if let clash = itemNames[name], clash != itemPath {
                        report("\(path).devices[\(index)].id", "its Item \(name) has the same openHAB name as \(clash)'s.",
                               hint: "openHAB names replace every character outside A-Z, a-z, 0-9, _ by _; pick ids that differ after that.")
                    }
                    itemNames[name] = itemPath
                    items[itemPath] = device
                }
            }
        }

        /// Each calendar books as a guest of its own, registered under the file's name (``CalendarStays``):
        /// the same file twice in one listing, or a scenario user with a calendar guest's id, would make
        /// the world fail to build, so both are refused here, located.
        func checkCalendars(_ listing: ListingSpec, at path: String) {
            var files: [String: Int] = [:]
            for (index, feed) in listing.calendars.enumerated() {
                if let first = files[feed.file] {
                    report("\(path).calendars[\(index)]", "lists \(UserText.quoted(feed.file)) again (already calendars[\(first)]).",
                           hint: "list each calendar file once per listing.")
                } else {
                    files[feed.file] = index
                }
                let guest = CalendarStays.guestID(listing: listing.id, index: index + 1)
                if let user = scenario.users.firstIndex(where: { $0.id == guest || $0.id.hasPrefix(guest + "-") }) {
                    report("users[\(user)].id", "\(UserText.quoted(scenario.users[user].id)) is the id \(path).calendars[\(index)] books its guests under.",
                           hint: "pick another user id; \"\(guest)\" and \"\(guest)-<digits>\" belong to the calendar.")
                }
            }
        }

        /// Every device at full power plus a full flat of guests must not move the room faster than
        /// ``PhysicalBounds/maxHeatingRateKPerHour`` (else it would report and switch without end).
        func checkHeatingRate(_ listing: ListingSpec, at path: String) {
            var heatW = Double(listing.capacity) * listing.thermal.gainPerGuestW
            for device in listing.devices {
                switch device.kind {
                case .heating(let powerW, _, _): heatW += powerW
                case .cooling(let powerW, let cop, _, _): heatW += powerW * cop
                case .smartPlug(let loadW, let standbyW, _): heatW += max(loadW, standbyW)
                case .lock: break
                }
            }
            let capacitanceWhPerK = listing.thermal.capacitanceKWhPerK * 1_000
            let rate = heatW / capacitanceWhPerK
            let limit = PhysicalBounds.maxHeatingRateKPerHour
            guard rate > limit else { return }
            report("\(path).thermal.capacitanceKWhPerK",
                   "its devices at full power and \(listing.capacity) guest(s) (\(format(heatW)) W) would change the room by \(format((rate * 10).rounded() / 10)) K per hour, more than the \(format(limit)) K/h any real flat manages.",
                   hint: "raise capacitanceKWhPerK (a 50 m² flat is about 2.3 kWh/K) or lower the device powers.")
        }

        func checkTime(_ instant: SimInstant, path: String) {
            if instant < scenario.start || instant > scenario.end {
                let local = scenario.calendar.localDateTime(at: instant)
                report(path, "\(local) lies outside the scenario (\(scenario.calendar.localDateTime(at: scenario.start)) … \(scenario.calendar.localDateTime(at: scenario.end))).",
                       hint: "move it inside start…end or widen them.")
            }
        }

        func checkUser(_ id: String, _ path: String) { if !userSet.contains(id) { unknown(path, "user", id, among: users) } }
        func checkListingRef(_ id: String, _ path: String) {
            if listings[id] == nil { unknown(path, "listing", id, among: Array(listings.keys)) }
        }
        func checkReservation(_ id: String, _ path: String) {
            if !reservationSet.contains(id) { unknown(path, "reservation (no book step or calendar creates it)", id, among: reservations) }
        }
        func checkCity(_ city: String, _ path: String) { if !cities.contains(city) { unknown(path, "city with weather", city, among: cities) } }

        func checkItem(_ item: String, _ path: String, lockOnly: Bool = false) {
            if !lockOnly, resolvedItem(item) != nil { return }
            guard let device = items[item] else {
                let parts = item.split(separator: "/", omittingEmptySubsequences: false)
                let hint = parts.count == 3 ? Suggestion.closest(to: item, in: Array(items.keys)).map { "did you mean \"\($0)\"?" }
                    : "write listing/device/channel, e.g. \"flat-1/heating/setpoint\"."
                report(path, "no Item \(UserText.quoted(item)).", hint: hint ?? "known Items: \(items.keys.sorted().prefix(8).joined(separator: ", ")) …")
                return
            }
            if lockOnly, !(item.hasSuffix("/lock") && device.kind.typeName == "lock") {
                report(path, "\(UserText.quoted(item)) is not a lock's lock channel.", hint: "lock and unlock take a path like \"flat-1/door/lock\".")
            }
        }

        func checkStep(_ step: Step) {
            checkTime(step.at, path: "\(step.path).at")
            if let code = step.expectError, !ScenarioValidator.knownErrorCodes.contains(code) {
                report("\(step.path).expectError", "\(UserText.quoted(code)) is not an error code any step can fail with.",
                       hint: Suggestion.closest(to: code, in: ScenarioValidator.knownErrorCodes).map { "did you mean \"\($0)\"?" })
            }
            let p = "\(step.path).\(step.action.name)"
            // Steps that expect an error may point at unknown things on purpose.
            if case .weather(let city, _, _, let condition, _) = step.action {
                checkCity(city, "\(p).city")
                if let condition { do { _ = try Weather.WeatherCondition(name: condition, fieldPath: "\(p).condition") } catch { report("\(p).condition", error.message) } }
            }
            if case .feed(let city, _) = step.action { checkCity(city, "\(p).city") }
            guard step.expectError == nil else { return }
            switch step.action {
            case .book(_, let guest, let listing, _, _, _):
                checkUser(guest, "\(p).guest")
                checkListingRef(listing, "\(p).listing")
            case .cancel(let r), .arrive(let r), .depart(let r): checkReservation(r, "\(p).reservation")
            case .unlock(let item, let by), .lock(let item, let by):
                checkItem(item, "\(p).item", lockOnly: true)
                checkUser(by, "\(p).by")
            case .command(let item, _): checkItem(item, "\(p).item")
            case .thing(let thing, _):
                let parts = thing.split(separator: "/").map(String.init)
                if parts.count != 2 || listings[parts[0]]?.devices.contains(where: { $0.id == parts[1] }) != true,
                   !scenario.things.contains(where: { $0.uid == thing }) {
                    let things = listings.values.flatMap { l in l.devices.map { "\(l.id)/\($0.id)" } } + scenario.things.map(\.uid)
                    unknown("\(p).thing", "device (listing/device) or Thing of a .things file", thing, among: things)
                }
            case .rate(let guest, let listing, _, _):
                checkUser(guest, "\(p).guest")
                checkListingRef(listing, "\(p).listing")
            case .message(let from, let r, _):
                checkUser(from, "\(p).from")
                checkReservation(r, "\(p).reservation")
            case .update(let item, _): checkItem(item, "\(p).item")
            case .runRule(let rule), .enableRule(let rule, _): checkRule(rule, "\(p).rule")
            case .weather, .feed, .trigger: break
            }
        }

        func checkExpectation(_ e: Expectation) {
            if let at = e.at { checkTime(at, path: "\(e.path).at") }
            switch e.check {
            case .itemState(let item, _), .itemBetween(let item, _, _): checkItem(item, "\(e.path).item")
            case .reservationStatus(let r, _): checkReservation(r, "\(e.path).reservation")
            case .energy(let listing, let device, let from, let to, _, _):
                checkListingRef(listing, "\(e.path).energy.listing")
                if let device, let spec = listings[listing], !spec.devices.contains(where: { $0.id == device }) {
                    unknown("\(e.path).energy.device", "device in \(listing)", device, among: spec.devices.map(\.id))
                }
                if let from { checkTime(from, path: "\(e.path).from") }
                if let to { checkTime(to, path: "\(e.path).to") }
            case .ruleRuns(let rule, let from, let to, _, _):
                checkRule(rule, "\(e.path).rule")
                if let from { checkTime(from, path: "\(e.path).from") }
                if let to { checkTime(to, path: "\(e.path).to") }
            case .outbox(let o):
                if let rule = o.rule { checkRule(rule, "\(e.path).\(o.channel.rawValue).rule") }
                if let from = o.from { checkTime(from, path: "\(e.path).from") }
                if let to = o.to { checkTime(to, path: "\(e.path).to") }
            case .discomfort(let listing, let from, let to, _):
                checkListingRef(listing, "\(e.path).discomfort.listing")
                if let from { checkTime(from, path: "\(e.path).from") }
                if let to { checkTime(to, path: "\(e.path).to") }
            }
        }
    }
}
