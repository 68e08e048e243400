import Simulation
import Synchronization

/// openHAB's `expire` metadata (openhab-core `ExpireManager`): an Item that receives no state update or
/// command for a while is given a state (`UNDEF` by default) or sent a command.
///
/// `expire="1h30m"`, `expire="5m,state=OFF"`, `expire="10m,command=OFF"`, `expire="2m,OFF"`, with the
/// configuration keys `ignoreStateUpdates` and `ignoreCommands`. Every update, command or change of the
/// Item restarts its timer, unless it is the expire state or command itself, which stops it until the
/// next one. The timer is a kernel timer at the exact instant (openHAB looks once a second, so it fires
/// up to a second later).
public final class ExpireManager: Sendable {
    /// One Item's expire configuration (`ExpireManager.ExpireConfig`).
    public struct Config: Sendable, Hashable {
        public var duration: SimDuration
        /// What to send when it expires; else ``state``.
        public var command: Command?
        /// What to post when it expires (`UNDEF` by default).
        public var state: State?
        public var ignoreStateUpdates: Bool
        public var ignoreCommands: Bool

        /// Parses the metadata of an Item of `type` (in `calendar` for DateTime texts).
        /// - Returns: the configuration, or a sentence saying what is wrong.
        public static func parse(_ metadata: ItemMetadata, type: ItemType, calendar: LocalCalendar = .utc) -> Result<Config, ExpireError> {
            let text = metadata.value
            let comma = text.firstIndex(of: ",")
            var durationText = String(comma.map { text[..<$0] } ?? text[...]).trimmingBlanks
            let known: Set<String> = ["duration", "command", "state", "ignoreStateUpdates", "ignoreCommands"]
            if let unknown = metadata.config.keys.sorted().first(where: { !known.contains($0) }) {
                return .failure(ExpireError("unknown configuration key \"\(unknown)\"; known: \(known.sorted().joined(separator: ", "))."))
            }
            if let configured = metadata.config["duration"] {
                guard durationText.isEmpty else { return .failure(ExpireError("the duration is given twice.")) }
                durationText = configured
            }
            guard let duration = parseDuration(durationText) else {
                return .failure(ExpireError("\"\(durationText.prefix(40))\" is not a duration such as 1h30m, 15m, 30s or PT10M."))
            }
            var rest = comma.map { String(text[text.index(after: $0)...]).trimmingBlanks } ?? ""
            var commandText = metadata.config["command"], stateText = metadata.config["state"]
            if commandText != nil, stateText != nil { return .failure(ExpireError("it gives both a command and a state.")) }
            if !rest.isEmpty {
                guard commandText == nil, stateText == nil else {
                    return .failure(ExpireError("the state or command is given twice."))
                }
                if rest.hasPrefix("command=") {
                    commandText = String(rest.dropFirst(8))
                } else {
                    if rest.hasPrefix("state=") { rest = String(rest.dropFirst(6)) }
                    stateText = rest
                }
            }
            let flag = { (key: String) in metadata.config[key]?.lowercased() == "true" }
            var config = Config(duration: duration, command: nil, state: .undef, ignoreStateUpdates: flag("ignoreStateUpdates"),
                                ignoreCommands: flag("ignoreCommands"))
            if let commandText {
                guard let command = type.parseCommand(commandText, in: calendar) else {
                    return .failure(ExpireError("\"\(commandText.prefix(40))\" is not a command a \(type) Item takes."))
                }
                config.command = command
                config.state = nil
            } else if let stateText {
                // 'NULL' and 'UNDEF' in single quotes are the strings, as ExpireConfig reads them.
                if stateText == "'NULL'" || stateText == "'UNDEF'" {
                    config.state = .string(String(stateText.dropFirst().dropLast()))
                } else if let state = type.parseState(stateText, in: calendar) {
                    config.state = state
                } else {
                    return .failure(ExpireError("\"\(stateText.prefix(40))\" is not a state a \(type) Item takes."))
                }
            }
            return .success(config)
        }

        /// `DurationUtils.parse`: `1d 2h 15m 30s 500ms` (units in that order, each optional, case-insensitive,
        /// long names too) or ISO 8601 `PT1H30M`.
        static func parseDuration(_ text: String) -> SimDuration? {
            let lower = text.lowercased()
            if lower.hasPrefix("p") { return try? ISODuration.parse(text.uppercased()) }
            let units: [(names: [String], ms: Int64)] = [
                (["days", "day", "d"], 86_400_000), (["hours", "hour", "hrs", "hr", "h"], 3_600_000),
                (["minutes", "minute", "mins", "min", "m"], 60_000), (["seconds", "second", "secs", "sec", "s"], 1_000),
                (["milliseconds", "millisecond", "ms"], 1),
            ]
            var rest = Substring(lower)
            var total: Int64 = 0
            var unitIndex = 0
            var any = false
            while true {
                rest = rest.drop { $0 == " " }
                if rest.isEmpty { break }
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, digits.count <= 12, let value = Int64(digits) else { return nil }
                rest = rest.dropFirst(digits.count).drop { $0 == " " }
                var matched = false
                while unitIndex < units.count, !matched {
                    // "ms" before "m": try the longest names of the later units too.
                    for name in units[unitIndex].names where rest.hasPrefix(name) {
                        let after = rest.dropFirst(name.count)
                        if unitIndex == 2, name == "m", after.hasPrefix("s") { continue }  // that is ms
                        if let next = after.first, next.isLetter { continue }
                        total += value * units[unitIndex].ms
                        rest = after
                        matched = true
                        break
                    }
                    unitIndex += 1
                }
                guard matched else { return nil }
                any = true
            }
            return any ? SimDuration(milliseconds: total) : nil
        }
    }

    /// A wrong `expire` configuration.
    public struct ExpireError: Error, Sendable, Equatable {
        public let message: String
        init(_ message: String) { self.message = message }
    }

    private let runtime: OpenHABRuntime
    private let configs: [ItemName: Config]
    private let timers = Mutex<[ItemName: TimerID]>([:])

    /// Watches every Item of `items` whose `expire` metadata parses (others are the validator's to refuse).
    public init(runtime: OpenHABRuntime, items: [Item]) {
        self.runtime = runtime
        var configs: [ItemName: Config] = [:]
        for item in items {
            guard let metadata = item.metadata["expire"],
                  case .success(let config) = Config.parse(metadata, type: item.type, calendar: runtime.calendar) else { continue }
            configs[item.name] = config
        }
        self.configs = configs
    }

    /// The Items it watches.
    public var itemNames: [ItemName] { configs.keys.sorted() }

    /// Starts listening to the watched Items' updates, commands and changes.
    @discardableResult
    public func start() -> EventBus.SubscriptionID? {
        guard !configs.isEmpty else { return nil }
        let topics = configs.keys.sorted().flatMap { name in ["state", "command", "statechanged"].map { "openhab/items/\(name)/\($0)" } }
        return runtime.events.subscribe(EventFilter(topics: topics)) { [self] event in
            switch event.kind {
            case .itemState(let name, let state):
                if let config = configs[name], !config.ignoreStateUpdates { process(name, state: state, command: nil, config) }
            case .itemCommand(let name, let command):
                if let config = configs[name], !config.ignoreCommands { process(name, state: nil, command: command, config) }
            case .itemStateChanged(let name, let state, _, _, _):
                if let config = configs[name] { process(name, state: state, command: nil, config) }
            default:
                break
            }
        }
    }

    /// `processEvent`: the expire state or command itself stops the timer; anything else restarts it.
    private func process(_ name: ItemName, state: State?, command: Command?, _ config: Config) {
        let scheduler = runtime.scheduler
        // Java compares the types themselves: OFF the command equals OFF the state.
        let isExpiry = config.command.map { c in command == c || (state != nil && c.impliedState == state) } ?? false
            || config.state.map { s in state == s || (command != nil && command?.impliedState == s) } ?? false
        let previous = timers.withLock { $0.removeValue(forKey: name) }
        if let previous { scheduler.cancel(previous) }
        guard !isExpiry else { return }
        let id = scheduler.schedule(after: config.duration, label: "expire \(name)") { [self] _ in
            timers.withLock { _ = $0.removeValue(forKey: name) }
            if let command = config.command {
                try? await runtime.sendCommand(command, to: name)
            } else if let state = config.state {
                try? await runtime.postUpdate(state, to: name)
            }
        }
        timers.withLock { $0[name] = id }
    }
}
