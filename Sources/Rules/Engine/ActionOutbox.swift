import Simulation
import Synchronization

/// What a rule's action sent out of the house: a notification, a mail, a telegram, a pushover message,
/// speech, a sound, a command line run, an HTTP request, any binding's Thing action. The twin sends none of
/// them for real: each lands in the engine's outbox, for the run log and for scenario expectations.
public struct OutboxMessage: Sendable, Hashable {
    /// The kind of action.
    public enum Channel: String, Sendable, CaseIterable {
        case notification, mail, telegram, pushover, say, sound, exec, http
        /// Any binding's Thing action through `getActions(scope, thing)` the twin has no kind of its own for
        /// (`publishMQTT`, …): the scope, the Thing, the method and its arguments.
        case action
    }

    /// When it was sent (virtual time).
    public var instant: SimInstant
    /// The name of the rule that sent it.
    public var rule: String
    public var channel: Channel
    /// The action as the rule called it (`sendNotification`, `sendMail`, `executeCommandLine`, `sendHttpGetRequest` …).
    public var action: String
    /// Who or what it went to: a user or address, `broadcast`, `log`, a chat, a Thing, an audio sink, a URL, a command.
    public var recipient: String
    /// The text: message, subject and body, spoken text, sound file, command line, request body; for a
    /// generic Thing action, its arguments joined by `, `.
    public var text: String
    /// The `getActions` scope of a Thing action (`mail`, `mqtt`, …); `nil` for the core actions.
    public var scope: String?
    /// A Thing action's arguments as the rule printed them (empty for the core actions).
    public var arguments: [String]

    public init(instant: SimInstant, rule: String, channel: Channel, action: String, recipient: String, text: String,
                scope: String? = nil, arguments: [String] = []) {
        self.instant = instant
        self.rule = rule
        self.channel = channel
        self.action = action
        self.recipient = recipient
        self.text = text
        self.scope = scope
        self.arguments = arguments
    }

    /// The action as the run log and `outbox.csv` name it: the method, with its scope first for a generic
    /// Thing action (`mqtt.publishMQTT`).
    public var actionName: String { channel == .action ? "\(scope ?? "").\(action)" : action }
}

/// What a scripted Thing action answers (`"result"` of a `responses` entry): a text, a number, a boolean or null.
public enum ScriptedResult: Sendable, Hashable {
    case text(String)
    case number(Double)
    case boolean(Bool)
    case null
}

/// An answer the scenario scripts (`responses`) for `executeCommandLine` (by command line) or an HTTP
/// action (by URL, `*` matching any run of characters, and optionally the method).
public struct ScriptedResponse: Sendable, Hashable {
    public enum Match: Sendable, Hashable {
        /// A command line (arguments joined by spaces), `*` a wildcard.
        case command(String)
        /// A URL, `*` a wildcard; `method` `GET`/`POST`/`PUT`/`DELETE` or any (nil).
        case url(String, method: String?)
        /// A Thing action: its `getActions` scope and method (`*` wildcards), and optionally the Thing UID.
        case action(scope: String, method: String, thing: String?)
    }

    public var match: Match
    /// The command's output, or the response body.
    public var output: String
    /// The HTTP status (200 when not given).
    public var status: Int
    /// What a Thing action returns (`.null` unless scripted).
    public var result: ScriptedResult

    public init(_ match: Match, output: String, status: Int = 200, result: ScriptedResult = .null) {
        self.match = match
        self.output = output
        self.status = status
        self.result = result
    }

    /// Whether `text` matches `pattern`, where `*` matches any run of characters.
    public static func matches(_ text: String, _ pattern: String) -> Bool {
        let t = Array(text.unicodeScalars), p = Array(pattern.unicodeScalars)
        var ti = 0, pi = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] != "*", p[pi] == t[ti] {
                ti += 1; pi += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}

/// What answers a rule's HTTP action for a URL the twin itself serves (its fake OpenWeatherMap, its openHAB
/// REST API), in process: `(method, url, body)` → status and body, or `nil` for a URL that is not the twin's.
public typealias TwinHTTPResponder = @Sendable (_ method: String, _ url: String, _ body: String) async -> (status: Int, body: String)?

/// The engine's outbox and the scripted answers its actions get.
final class ActionOutbox: Sendable {
    /// How many messages the outbox keeps; later ones are counted as dropped (a rule that notifies every
    /// second for a year would otherwise hold 31 million).
    static let capacity = 100_000

    private struct Content {
        var messages: [OutboxMessage] = []
        var dropped = 0
        var responses: [ScriptedResponse] = []
        var transforms: [String: TransformFile] = [:]
        var twin: TwinHTTPResponder?
        var bankHolidays: [CivilDate: String]?
        /// The rules' source of randomness (`new Random()`, `Math.random`, `UUID.randomUUID`), from the scenario's seed.
        var random = SplitMix64(seed: 0)
    }

    private let content = Mutex(Content())

    /// Keeps `message`; `false` when the outbox is full.
    func send(_ message: OutboxMessage) -> Bool {
        content.withLock { c in
            guard c.messages.count < Self.capacity else { c.dropped += 1; return false }
            c.messages.append(message)
            return true
        }
    }

    var messages: [OutboxMessage] { content.withLock { $0.messages } }
    var dropped: Int { content.withLock { $0.dropped } }

    func setResponses(_ responses: [ScriptedResponse]) { content.withLock { $0.responses = responses } }

    func setTwinResponder(_ responder: TwinHTTPResponder?) { content.withLock { $0.twin = responder } }
    var twinResponder: TwinHTTPResponder? { content.withLock { $0.twin } }

    func setTransforms(_ files: [TransformFile]) {
        content.withLock { c in for f in files { c.transforms[f.name] = f } }
    }

    func setBankHolidays(_ days: [CivilDate: String]?) { content.withLock { $0.bankHolidays = days } }
    /// The scenario's bank holidays (`nil`: it lists none).
    var bankHolidays: [CivilDate: String]? { content.withLock { $0.bankHolidays } }

    /// The transformation file a rule names (`en.map`).
    func transform(named name: String) -> TransformFile? { content.withLock { $0.transforms[name] } }

    /// The names of the loaded transformation files, sorted.
    var transformNames: [String] { content.withLock { $0.transforms.keys.sorted() } }

    /// The first scripted response for a command line.
    func response(command: String) -> ScriptedResponse? {
        content.withLock { c in
            c.responses.first { if case .command(let p) = $0.match { return ScriptedResponse.matches(command, p) }; return false }
        }
    }

    /// The next 64 bits of the rules' random stream (seeded by ``RuleEngine/useRandomSeed(_:)``).
    func nextRandomBits() -> UInt64 { content.withLock { $0.random.next() } }

    func setRandomSeed(_ seed: UInt64) { content.withLock { $0.random = SplitMix64.stream(seed: seed, named: "rules-dsl-random") } }

    /// The first scripted response for a Thing action.
    func response(scope: String, method: String, thing: String) -> ScriptedResponse? {
        content.withLock { c in
            c.responses.first {
                guard case .action(let s, let m, let t) = $0.match else { return false }
                return ScriptedResponse.matches(scope, s) && ScriptedResponse.matches(method, m) && t.map { ScriptedResponse.matches(thing, $0) } != false
            }
        }
    }

    /// The first scripted response for a request.
    func response(url: String, method: String) -> ScriptedResponse? {
        content.withLock { c in
            c.responses.first {
                guard case .url(let p, let m) = $0.match else { return false }
                return (m == nil || m == method) && ScriptedResponse.matches(url, p)
            }
        }
    }
}

extension RuleEngine {
    /// What the rules' actions sent, in order (at most ``ActionOutbox/capacity``).
    public var outbox: [OutboxMessage] { actionOutbox.messages }

    /// How many messages were sent after the outbox was full (not kept).
    public var outboxDropped: Int { actionOutbox.dropped }

    /// The scenario's scripted answers to `executeCommandLine` and HTTP actions (before ``start()``).
    public func useResponses(_ responses: [ScriptedResponse]) { actionOutbox.setResponses(responses) }

    /// What answers HTTP actions to the twin's own URLs (before ``start()``).
    public func useTwinHTTP(_ responder: @escaping TwinHTTPResponder) { actionOutbox.setTwinResponder(responder) }

    /// The scenario's MAP and SCALE files (`transformFiles`), by file name (before ``start()``).
    public func useTransformFiles(_ files: [TransformFile]) { actionOutbox.setTransforms(files) }

    /// The scenario's seed, from which `new Random()`, `Math.random` and `UUID.randomUUID` draw (before ``start()``).
    public func useRandomSeed(_ seed: UInt64) { actionOutbox.setRandomSeed(seed) }

    /// The scenario's bank holidays for Ephemeris (`ephemeris.bankHolidays`; `nil`: none listed), before ``start()``.
    public func useBankHolidays(_ days: [CivilDate: String]?) { actionOutbox.setBankHolidays(days) }

    /// The outbox messages of `channel` matching the filters, sent in `[from, to)`.
    public func outboxCount(_ channel: OutboxMessage.Channel, contains: String? = nil, text: String? = nil, recipient: String? = nil,
                            rule: String? = nil, from: SimInstant? = nil, to: SimInstant? = nil,
                            scope: String? = nil, method: String? = nil, arguments: [String]? = nil) -> Int {
        let ruleName = rule.map { self.rule($0)?.name ?? $0 }
        return outbox.count { m in
            m.channel == channel && contains.map { m.text.contains($0) } != false && text.map { m.text == $0 } != false
                && recipient.map { m.recipient == $0 } != false && ruleName.map { m.rule == $0 } != false
                && from.map { m.instant >= $0 } != false && to.map { m.instant < $0 } != false
                && scope.map { m.scope == $0 } != false && method.map { m.action == $0 } != false
                && arguments.map { m.arguments == $0 } != false
        }
    }
}
