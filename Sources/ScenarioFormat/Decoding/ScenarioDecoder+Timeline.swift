import Rules
import Simulation

extension ScenarioDecoder {
    /// The action keys of a timeline step and each action's fields (required ones first).
    static let actions: [(name: String, required: [String], optional: [String])] = [
        ("book", ["id", "guest", "listing", "checkIn", "checkOut", "guests"], []),
        ("cancel", ["reservation"], []),
        ("arrive", ["reservation"], []),
        ("depart", ["reservation"], []),
        ("unlock", ["item", "by"], []),
        ("lock", ["item", "by"], []),
        ("command", ["item", "value"], []),
        ("weather", ["city", "tempC"], ["humidity", "condition", "windMps"]),
        ("thing", ["thing", "status"], []),
        ("feed", ["city", "error"], []),
        ("rate", ["guest", "listing", "stars"], ["comment"]),
        ("message", ["from", "reservation", "text"], []),
        ("update", ["item", "state"], []),
        ("runRule", ["rule"], []),
        ("enableRule", ["rule", "enabled"], []),
        ("trigger", ["channel", "event"], []),
    ]

    static func decodeStep(_ field: Field, _ calendar: LocalCalendar) -> Step? {
        let names = actions.map(\.name)
        guard let o = field.object(["at", "expectError"] + names) else { return nil }
        let at = o.required("at")?.instant(calendar)
        let expectError = o.optional("expectError")?.name
        let present = names.filter { o.keys.contains($0) }
        guard present.count == 1, let name = present.first, let spec = actions.first(where: { $0.name == name }),
              let actionField = o.value(name) else {
            field.problem(present.isEmpty ? "has no action." : "has \(present.count) actions (\(present.joined(separator: ", "))); a step does exactly one thing.",
                          hint: "one of \(names.joined(separator: ", ")); write several steps with the same \"at\" to do several things at once.")
            return nil
        }
        guard let a = actionField.object(spec.required + spec.optional) else { return nil }
        func text(_ key: String) -> String? { a.required(key)?.name }
        let action: Step.Action?
        switch name {
        case "book":
            let id = text("id"), guest = text("guest"), listing = text("listing")
            let checkIn = a.required("checkIn")?.date, checkOut = a.required("checkOut")?.date
            let guests = a.required("guests")?.integer
            if let id, let guest, let listing, let checkIn, let checkOut, let guests {
                action = .book(id: id, guest: guest, listing: listing, checkIn: checkIn, checkOut: checkOut, guests: guests)
            } else { action = nil }
        case "cancel": action = text("reservation").map { .cancel(reservation: $0) }
        case "arrive": action = text("reservation").map { .arrive(reservation: $0) }
        case "depart": action = text("reservation").map { .depart(reservation: $0) }
        case "unlock", "lock":
            let item = text("item"), by = text("by")
            if let item, let by { action = name == "lock" ? .lock(item: item, by: by) : .unlock(item: item, by: by) } else { action = nil }
        case "update":
            let item = text("item"), value = a.required("state")?.openHABText("state")
            if let item, let value { action = .update(item: item, state: value) } else { action = nil }
        case "runRule": action = text("rule").map { .runRule(rule: $0) }
        case "enableRule":
            let rule = text("rule"), enabled = a.required("enabled")?.bool
            if let rule, let enabled { action = .enableRule(rule: rule, enabled: enabled) } else { action = nil }
        case "trigger":
            let channel = text("channel"), event = a.required("event")?.string
            if let channel, let problem = ChannelUIDSyntax.problem(channel) {
                a.value("channel")?.problem("\(UserText.quoted(channel)) is not a channel UID: \(problem).",
                                            hint: "write binding:thing-type:thing:channel, e.g. \"astro:sun:home:set#event\".")
                action = nil
            } else if let channel, let event {
                if event.isEmpty { a.value("event")?.problem("must not be empty.", hint: "write the event the channel fires, e.g. \"START\" or \"PRESSED\".") }
                action = event.isEmpty ? nil : .trigger(channel: channel, event: event)
            } else { action = nil }
        case "command":
            let item = text("item"), value = a.required("value")?.openHABText("command")
            if let item, let value { action = .command(item: item, value: value) } else { action = nil }
        case "weather":
            let city = text("city"), temp = a.required("tempC")?.outdoorCelsius
            let humidity = a.optional("humidity")?.number(in: 0...100, unit: " %")
            let condition = a.optional("condition")?.string
            let wind = a.optional("windMps")?.number(in: 0...100, unit: " m/s")
            if let city, let temp { action = .weather(city: city, tempC: temp, humidity: humidity, condition: condition, windMps: wind) } else { action = nil }
        case "thing":
            let thing = text("thing")
            var online: Bool?
            if let f = a.required("status"), let s = f.string {
                switch s {
                case "ONLINE": online = true
                case "OFFLINE": online = false
                default: f.problem("is \(UserText.quoted(s)) but must be \"ONLINE\" or \"OFFLINE\".")
                }
            }
            if let thing, let online { action = .thing(thing: thing, online: online) } else { action = nil }
        case "feed":
            let city = text("city")
            var error: Int?? = .none
            if let f = a.required("error") {
                if f.isNull { error = .some(nil) } else if let code = f.integer {
                    if [401, 404, 429, 500].contains(code) { error = .some(code) } else {
                        f.problem("is \(code) but the feed can fail with 401, 404, 429 or 500 (null clears the fault).")
                    }
                }
            }
            if let city, case .some(let code) = error { action = .feed(city: city, error: code) } else { action = nil }
        case "rate":
            let guest = text("guest"), listing = text("listing"), stars = a.required("stars")?.integer
            let comment = a.optional("comment")?.string
            if let guest, let listing, let stars { action = .rate(guest: guest, listing: listing, stars: stars, comment: comment) } else { action = nil }
        default:  // message
            let from = text("from"), reservation = text("reservation")
            let body = a.required("text")?.string
            if let from, let reservation, let body { action = .message(from: from, reservation: reservation, text: body) } else { action = nil }
        }
        guard let at, let action else { return nil }
        return Step(at: at, action: action, expectError: expectError, path: field.path, line: field.line)
    }

    static func decodeExpectation(_ field: Field, _ calendar: LocalCalendar) -> Expectation? {
        guard let o = field.object(["at", "item", "state", "between", "reservation", "status", "energy", "discomfort",
                                    "from", "to", "atMostKWh", "atLeastKWh", "atMostKh", "rule", "runs", "atLeastRuns", "count", "atLeast"]
                                   + OutboxMessage.Channel.allCases.map(\.rawValue)) else { return nil }
        let at = o.optional("at").map { $0.instant(calendar) }
        if case .some(.none) = at { return nil }
        let subjects = (["item", "reservation", "energy", "discomfort", "rule"] + OutboxMessage.Channel.allCases.map(\.rawValue)).filter { o.keys.contains($0) }
        guard subjects.count == 1, let subject = subjects.first else {
            field.problem(subjects.isEmpty ? "says nothing to check." : "checks \(subjects.joined(separator: " and ")) at once; write one expectation each.",
                          hint: "an expectation has one of \"item\", \"reservation\", \"energy\", \"discomfort\", \"rule\" or an outbox kind (\(OutboxMessage.Channel.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))).")
            return nil
        }
        func unexpected(_ keys: [String]) -> Bool {
            let extra = keys.filter { o.keys.contains($0) }
            for key in extra { o.value(key)?.problem("does not belong to a \"\(subject)\" expectation.") }
            return !extra.isEmpty
        }
        if subject != "rule", unexpected(["runs", "atLeastRuns"]) { return nil }
        let outboxChannel = OutboxMessage.Channel(rawValue: subject)
        if outboxChannel == nil, unexpected(["count", "atLeast"]) { return nil }
        let from = o.optional("from")?.instant(calendar)
        let to = o.optional("to")?.instant(calendar)
        let check: Expectation.Check?
        switch subject {
        case _ where outboxChannel != nil:
            guard let channel = outboxChannel, !unexpected(["state", "between", "status", "atMostKWh", "atLeastKWh", "atMostKh"]),
                  let f = o.required(subject), let filter = f.object(["contains", "text", "recipient", "rule", "scope", "method", "arguments"]) else { return nil }
            var arguments: [String]?
            if let list = filter.optional("arguments") {
                guard let values = list.array else { return nil }
                let texts = values.compactMap(\.string)
                guard texts.count == values.count else { list.problem("must list the arguments as texts, as the rule printed them."); return nil }
                arguments = texts
            }
            let count = o.optional("count")?.integer, least = o.optional("atLeast")?.integer
            if count != nil, least != nil { field.problem("gives both \"count\" and \"atLeast\"; give one."); return nil }
            if let n = count ?? least, n < 0 { o.value(count == nil ? "atLeast" : "count")?.problem("must be 0 or more."); return nil }
            if at != nil { o.value("at")?.problem("does not belong to an outbox expectation; use \"from\" and \"to\"."); return nil }
            check = .outbox(OutboxExpectation(channel: channel, contains: filter.optional("contains")?.string, text: filter.optional("text")?.string,
                                              recipient: filter.optional("recipient")?.string, rule: filter.optional("rule")?.string,
                                              scope: filter.optional("scope")?.string, method: filter.optional("method")?.string, arguments: arguments,
                                              from: from, to: to, count: count, atLeast: least))
        case "item":
            guard !unexpected(["status", "from", "to", "atMostKWh", "atLeastKWh", "atMostKh"]), let item = o.required("item")?.name else { return nil }
            let hasState = o.keys.contains("state"), hasBetween = o.keys.contains("between")
            guard hasState != hasBetween else {
                field.problem(hasState ? "gives both \"state\" and \"between\"; give one." : "needs \"state\" (exact text) or \"between\" ([low, high]).")
                return nil
            }
            if hasState {
                check = o.value("state")?.string.map { .itemState(item: item, state: $0) }
            } else if let f = o.value("between"), let bounds = f.array {
                let numbers = bounds.compactMap(\.number)
                guard numbers.count == 2, bounds.count == 2 else {
                    f.problem("expected two numbers [low, high].")
                    return nil
                }
                guard numbers[0] <= numbers[1] else {
                    f.problem("low \(format(numbers[0])) is above high \(format(numbers[1])).", hint: "write [low, high].")
                    return nil
                }
                check = .itemBetween(item: item, low: numbers[0], high: numbers[1])
            } else { check = nil }
        case "reservation":
            guard !unexpected(["state", "between", "from", "to", "atMostKWh", "atLeastKWh", "atMostKh"]),
                  let reservation = o.required("reservation")?.name, let f = o.required("status"), let status = f.string else { return nil }
            let statuses = ["confirmed", "checkedIn", "checkedOut", "cancelled"]
            guard statuses.contains(status) else {
                f.problem("\(UserText.quoted(status)) is not a reservation status; expected one of \(statuses.joined(separator: ", ")).",
                          hint: Suggestion.closest(to: status, in: statuses).map { "did you mean \"\($0)\"?" })
                return nil
            }
            check = .reservationStatus(reservation: reservation, status: status)
        case "rule":
            guard !unexpected(["state", "between", "status", "atMostKWh", "atLeastKWh", "atMostKh"]),
                  let rule = o.required("rule")?.name else { return nil }
            let runs = o.optional("runs")?.integer, least = o.optional("atLeastRuns")?.integer
            guard (runs == nil) != (least == nil) else {
                field.problem(runs == nil ? "gives no count." : "gives both \"runs\" and \"atLeastRuns\"; give one.",
                              hint: "write \"runs\": 3 (exactly) or \"atLeastRuns\": 1.")
                return nil
            }
            if let n = runs ?? least, n < 0 { o.value(runs == nil ? "atLeastRuns" : "runs")?.problem("must be 0 or more."); return nil }
            if at != nil { o.value("at")?.problem("does not belong to a rule expectation; use \"from\" and \"to\"."); return nil }
            check = .ruleRuns(rule: rule, from: from, to: to, runs: runs, atLeast: least)
        case "energy":
            guard !unexpected(["state", "between", "status", "atMostKh"]), let f = o.required("energy"),
                  let e = f.object(["listing", "device"]), let listing = e.required("listing")?.name else { return nil }
            let device = e.optional("device")?.name
            let most = o.optional("atMostKWh")?.number(in: 0...1e9, unit: " kWh", rule: "0 kWh or more")
            let least = o.optional("atLeastKWh")?.number(in: 0...1e9, unit: " kWh", rule: "0 kWh or more")
            guard most != nil || least != nil else {
                field.problem("gives no bound.", hint: "add \"atMostKWh\" and/or \"atLeastKWh\".")
                return nil
            }
            check = .energy(listing: listing, device: device, from: from, to: to, atLeastKWh: least, atMostKWh: most)
        default:
            guard !unexpected(["state", "between", "status", "atMostKWh", "atLeastKWh"]), let f = o.required("discomfort"),
                  let d = f.object(["listing"]), let listing = d.required("listing")?.name,
                  let most = o.required("atMostKh")?.number(in: 0...1e9, unit: " K·h", rule: "0 K·h or more") else { return nil }
            check = .discomfort(listing: listing, from: from, to: to, atMostKh: most)
        }
        if let from, let to, to <= from { o.value("to")?.problem("is not after \"from\".") }
        guard let check else { return nil }
        return Expectation(at: at ?? nil, check: check, path: field.path, line: field.line)
    }
}
