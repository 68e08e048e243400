import Simulation

/// One timeline step: an action at an instant, optionally expected to fail with an error code.
public struct Step: Sendable {
    /// The actions of the format.
    public enum Action: Sendable {
        case book(id: String, guest: String, listing: String, checkIn: CivilDate, checkOut: CivilDate, guests: Int)
        case cancel(reservation: String)
        case arrive(reservation: String)
        case depart(reservation: String)
        case unlock(item: String, by: String)
        case lock(item: String, by: String)
        case command(item: String, value: String)
        case weather(city: String, tempC: Double, humidity: Double?, condition: String?, windMps: Double?)
        case thing(thing: String, online: Bool)
        case feed(city: String, error: Int?)
        case rate(guest: String, listing: String, stars: Int, comment: String?)
        case message(from: String, reservation: String, text: String)
        /// Post a state update to an Item, as `PUT /rest/items/{name}/state`.
        case update(item: String, state: String)
        /// Run a rule now (UID or name), as `POST /rest/rules/{uid}/runnow`.
        case runRule(rule: String)
        /// Enable or disable a rule.
        case enableRule(rule: String, enabled: Bool)
        /// A trigger channel fires an event (openHAB's `ChannelTriggeredEvent`): `astro:sun:home:set#event` `START`.
        case trigger(channel: String, event: String)

        /// One line for logs: the action and its arguments.
        public var summary: String {
            switch self {
            case .book(let id, let guest, let listing, let checkIn, let checkOut, let guests):
                "book \(id): \(guest) at \(listing), \(checkIn) → \(checkOut), \(guests) guest(s)"
            case .cancel(let r): "cancel \(r)"
            case .arrive(let r): "arrive \(r)"
            case .depart(let r): "depart \(r)"
            case .unlock(let item, let by): "unlock \(item) by \(by)"
            case .lock(let item, let by): "lock \(item) by \(by)"
            case .command(let item, let value): "command \(item) \(value)"
            case .weather(let city, let tempC, _, let condition, _): "weather \(city) \(tempC) °C\(condition.map { " \($0)" } ?? "")"
            case .thing(let thing, let online): "thing \(thing) \(online ? "ONLINE" : "OFFLINE")"
            case .feed(let city, let error): "feed \(city) \(error.map { "error \($0)" } ?? "cleared")"
            case .rate(let guest, let listing, let stars, _): "rate \(listing) \(stars) star(s) by \(guest)"
            case .message(let from, let r, _): "message in \(r) from \(from)"
            case .update(let item, let state): "update \(item) \(state)"
            case .runRule(let rule): "run rule \(rule)"
            case .enableRule(let rule, let enabled): "\(enabled ? "enable" : "disable") rule \(rule)"
            case .trigger(let channel, let event): "trigger \(channel) \(event)"
            }
        }

        /// The action's key in the file.
        public var name: String {
            switch self {
            case .book: "book"
            case .cancel: "cancel"
            case .arrive: "arrive"
            case .depart: "depart"
            case .unlock: "unlock"
            case .lock: "lock"
            case .command: "command"
            case .weather: "weather"
            case .thing: "thing"
            case .feed: "feed"
            case .rate: "rate"
            case .message: "message"
            case .update: "update"
            case .runRule: "runRule"
            case .enableRule: "enableRule"
            case .trigger: "trigger"
            }
        }
    }

    public var at: SimInstant
    public var action: Action
    /// The error code the step must fail with, if any.
    public var expectError: String?
    /// `timeline[3]` — the step's place in the file.
    public var path: String
    /// The line of the step in the file.
    public var line: Int
}

/// One expectation, checked at `at` (after every step of that instant) or at `end`.
public struct Expectation: Sendable {
    /// What is checked.
    public enum Check: Sendable {
        case itemState(item: String, state: String)
        case itemBetween(item: String, low: Double, high: Double)
        case reservationStatus(reservation: String, status: String)
        case energy(listing: String, device: String?, from: SimInstant?, to: SimInstant?, atLeastKWh: Double?, atMostKWh: Double?)
        case discomfort(listing: String, from: SimInstant?, to: SimInstant?, atMostKh: Double)
        /// Runs of a rule whose conditions held, in `[from, to)`: exactly `runs`, or at least `atLeast`.
        case ruleRuns(rule: String, from: SimInstant?, to: SimInstant?, runs: Int?, atLeast: Int?)
        /// What the rules' actions sent of one kind, in `[from, to)`: exactly `count`, or at least `atLeast`.
        case outbox(OutboxExpectation)
    }

    /// When to check (nil = at `end`).
    public var at: SimInstant?
    public var check: Check
    /// `expect[2]`.
    public var path: String
    public var line: Int
}
