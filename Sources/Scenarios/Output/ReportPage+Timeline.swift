import Booking
import Reports
import Rules
import ScenarioFormat
import Simulation

extension ReportPage {
    /// One row of the page's timeline: what happened when, and what it concerns (for the filters).
    struct Event {
        /// The kinds, in the order they sort at one instant: what the timeline did, the automations, the
        /// rules, what the rules sent, the checks that wait for all of them.
        enum Kind: Int, Comparable {
            case step, automation, rule, outbox, check

            var name: String {
                switch self {
                case .step: "step"
                case .automation: "automation"
                case .rule: "rule"
                case .outbox: "outbox"
                case .check: "check"
                }
            }

            static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
        }

        let at: SimInstant
        let kind: Kind
        /// The position among its kind's records (file order for steps and checks).
        let index: Int
        let listing: String
        let items: [String]
        let rule: String
        let text: String
        /// `pass`/`fail` for checks, `fail` for a step that did not behave as expected.
        let status: String?
        /// The row's id (a check's, so the expectation table links to its moment).
        let anchor: String?

        /// An event; a rule's name is shown as the run log shows it (``Rule/shown(_:)``) and a text past 2,000
        /// characters is cut, so no input makes a page that no browser opens (a rule named with a megabyte,
        /// logging a megabyte a run, would otherwise write gigabytes).
        init(at: SimInstant, kind: Kind, index: Int, listing: String, items: [String], rule: String, text: String,
             status: String?, anchor: String?) {
            self.at = at
            self.kind = kind
            self.index = index
            self.listing = listing
            self.items = items
            self.rule = Rule.shown(rule)
            self.text = Self.clipped(text)
            self.status = status
            self.anchor = anchor
        }

        /// `text`, or its first 2,000 characters and its length.
        static func clipped(_ text: String) -> String {
            guard text.utf8.count > 2_000, let cut = text.index(text.startIndex, offsetBy: 2_000, limitedBy: text.endIndex),
                  cut < text.endIndex else { return text }
            return "\(text[..<cut])… (\(text.utf8.count) bytes)"
        }

        static func inOrder(_ a: Event, _ b: Event) -> Bool { (a.at, a.kind, a.index) < (b.at, b.kind, b.index) }
    }

    /// What the page knows about the scenario's names: listings, and reservations to listings.
    struct Names {
        let listings: Set<String>
        let reservationListing: [String: String]
        /// Listing ids as they open rule-side Item names (`flat-1` → `flat_1`).
        let ruleNamed: [String: String]

        init(_ scenario: Scenario, stays: [(reservation: String, listing: String)]) {
            listings = Set(scenario.listings.map(\.id))
            var reservations: [String: String] = [:]
            for step in scenario.timeline { if case .book(let id, _, let listing, _, _, _) = step.action { reservations[id] = listing } }
            for stay in stays where reservations[stay.reservation] == nil { reservations[stay.reservation] = stay.listing }
            reservationListing = reservations
            var ruleNamed: [String: String] = [:]
            for id in scenario.listings.map(\.id).sorted() where ruleNamed[Names.ruleSide(id)] == nil { ruleNamed[Names.ruleSide(id)] = id }
            self.ruleNamed = ruleNamed
        }

        /// The listing an Item belongs to: its name's first path segment when that is a listing
        /// (`flat-1/heating/switch`), else the listing whose id opens the name as the twin names Items for rules
        /// (`flat_1_heating_switch`: `-` and `/` as `_`).
        func listing(ofItem item: String) -> String {
            if let slash = item.firstIndex(of: "/") {
                let prefix = String(item[..<slash])
                return listings.contains(prefix) ? prefix : ""
            }
            var best = ""
            for (index, character) in item.enumerated() where character == "_" {
                if let listing = ruleNamed[String(item.prefix(index))], listing.count > best.count { best = listing }
            }
            return best
        }


        /// An Item name with `-` and `/` as `_`, so `flat-1/heating/setpoint` and `flat_1_heating_setpoint` compare equal.
        static func ruleSide(_ name: String) -> String {
            String(name.map { $0 == "-" || $0 == "/" ? "_" : $0 })
        }
    }

    /// Every event of the run, in time order: steps as they ran, the automations' actions, the rules' logged
    /// runs (trigger, conditions, effects), the outbox, and each expectation's check at its moment.
    static func events(_ scenario: Scenario, record run: PageRecord, names: Names, failedPaths: [String: ScenarioFailure]) -> [Event] {
        let calendar = scenario.calendar
        var events: [Event] = []
        for record in run.steps {
            let step = scenario.timeline[record.step]
            var listing = "", items: [String] = [], rule = ""
            switch step.action {
            case .book(_, _, let l, _, _, _): listing = l
            case .cancel(let r), .arrive(let r), .depart(let r): listing = names.reservationListing[r] ?? ""
            case .unlock(let item, _), .lock(let item, _), .command(let item, _), .update(let item, _):
                items = [item]
                listing = names.listing(ofItem: item)
            case .rate(_, let l, _, _): listing = l
            case .message(_, let r, _): listing = names.reservationListing[r] ?? ""
            case .runRule(let r), .enableRule(let r, _): rule = ruleName(r, in: scenario)
            case .weather, .thing, .feed, .trigger: break
            }
            var text = "\(step.action.summary) (\(step.path), line \(step.line))"
            if let note = record.note { text += ": \(note)" }
            let failed = failedPaths[step.path]
            if let outcome = record.failed { text += " — \(outcome)" }
            events.append(Event(at: record.at, kind: .step, index: record.step, listing: listing, items: items, rule: rule, text: text,
                                status: failed == nil ? nil : "fail", anchor: "t-" + HTMLPage.anchor(step.path)))
        }
        for (offset, entry) in run.automations.enumerated() {
            events.append(Event(at: entry.at, kind: .automation, index: offset, listing: entry.listing, items: [], rule: "",
                                text: entry.text, status: nil, anchor: nil))
        }
        for (offset, rule) in run.rules.enumerated() {
            let listing = rule.items.lazy.map(names.listing(ofItem:)).first { !$0.isEmpty } ?? ""
            events.append(Event(at: rule.at, kind: .rule, index: offset, listing: listing, items: rule.items, rule: rule.rule,
                                text: rule.text, status: nil, anchor: nil))
        }
        for (offset, message) in run.outbox.enumerated() {
            events.append(Event(at: message.at, kind: .outbox, index: offset, listing: "", items: [], rule: message.rule,
                                text: "\(message.action) → \(message.recipient): \(message.text)", status: nil, anchor: nil))
        }
        for (index, expectation) in scenario.expectations.enumerated() {
            let concern = concerns(expectation, names: names, scenario: scenario)
            let failure = failedPaths[expectation.path]
            let at = expectation.at ?? scenario.end
            var text = "\(expectation.path) (line \(expectation.line)): \(failure?.expected ?? describe(expectation, calendar: calendar))"
            text += failure.map { " — FAILED, actual \($0.actual)" } ?? " — holds"
            events.append(Event(at: at, kind: .check, index: index, listing: concern.listing, items: concern.item.map { [$0] } ?? [],
                                rule: concern.rule, text: text, status: failure == nil ? "pass" : "fail",
                                anchor: "t-" + HTMLPage.anchor(expectation.path)))
        }
        return events.sorted(by: Event.inOrder)
    }

    /// The rule named by a step (UID or name) as the timeline names rules: by name.
    static func ruleName(_ uidOrName: String, in scenario: Scenario) -> String {
        Rule.shown(scenario.rules.first { $0.uid == uidOrName }?.name ?? uidOrName)
    }

    /// The Items a rule run touched: the one its trigger names, and each one its effects commanded or updated
    /// (`Item ← ON`, `Item := 21`), in order, once each.
    static func ruleItems(_ run: RuleRun) -> [String] {
        var items: [String] = []
        func add(_ name: Substring) {
            let trimmed = String(name.drop { " \"'".contains($0) }.reversed().drop { " \"'".contains($0) }.reversed())
            if !trimmed.isEmpty, !trimmed.contains(" "), !items.contains(trimmed) { items.append(trimmed) }
        }
        if let range = run.trigger.range(of: "Item ") {
            add(run.trigger[range.upperBound...].prefix { $0 != " " })
        }
        for effect in run.effects {
            for arrow in [" ← ", " := "] {
                if let range = effect.range(of: arrow) { add(effect[..<range.lowerBound]) }
            }
        }
        return items
    }

    /// The listing, Item and rule an expectation is about (empty when it names none).
    static func concerns(_ e: Expectation, names: Names, scenario: Scenario) -> (listing: String, item: String?, rule: String) {
        switch e.check {
        case .itemState(let item, _), .itemBetween(let item, _, _): return (names.listing(ofItem: item), item, "")
        case .reservationStatus(let r, _): return (names.reservationListing[r] ?? "", nil, "")
        case .energy(let listing, _, _, _, _, _), .discomfort(let listing, _, _, _): return (listing, nil, "")
        case .ruleRuns(let rule, _, _, _, _): return ("", nil, ruleName(rule, in: scenario))
        case .outbox(let o): return ("", nil, o.rule.map { ruleName($0, in: scenario) } ?? "")
        }
    }

    /// What an expectation asks for, in the words of its failure line.
    static func describe(_ e: Expectation, calendar: LocalCalendar) -> String {
        func window(_ from: SimInstant?, _ to: SimInstant?) -> String {
            (from.map { " from \(calendar.localDateTime(at: $0))" } ?? "") + (to.map { " to \(calendar.localDateTime(at: $0))" } ?? "")
        }
        switch e.check {
        case .itemState(let item, let state): return "\(item) = \"\(state)\""
        case .itemBetween(let item, let low, let high): return "\(item) between \(number(low)) and \(number(high))"
        case .reservationStatus(let r, let status): return "reservation \(r) \(status)"
        case .energy(let listing, let device, let from, let to, let least, let most):
            var bounds: [String] = []
            if let least { bounds.append("≥ \(number(least)) kWh") }
            if let most { bounds.append("≤ \(number(most)) kWh") }
            return "energy of \(listing)\(device.map { "/\($0)" } ?? "")\(window(from, to)) \(bounds.joined(separator: " and "))"
        case .discomfort(let listing, let from, let to, let most):
            return "discomfort of \(listing)\(window(from, to)) ≤ \(number(most)) K·h"
        case .ruleRuns(let rule, let from, let to, let runs, let atLeast):
            let times = runs.map { "\($0)" } ?? "at least \(atLeast ?? 1)"
            return "rule \"\(rule)\" runs \(times) time(s)\(window(from, to))"
        case .outbox(let o):
            return "\(o.count.map { "\($0)" } ?? "at least \(o.atLeast ?? 1)") \(o.summary)\(window(o.from, o.to))"
        }
    }

    /// A figure as a person writes it: no `.0` on whole numbers.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
