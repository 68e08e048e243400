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
    }

    /// When to check (nil = at `end`).
    public var at: SimInstant?
    public var check: Check
    /// `expect[2]`.
    public var path: String
    public var line: Int
}
