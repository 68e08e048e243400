import Foundation

/// openHAB's `core.GenericEventTrigger` (a topic glob, an event source and a list of event types) where it
/// watches one kind of Item event, as the twin runs it: as the Item trigger that fires on the same events.
///
/// Taken: the topic `openhab/items/<name or glob>/<suffix or *>`, `openhab/items/**` or `openhab/items/*/*`,
/// an empty source, and one Item event type (`ItemStateChangedEvent`, `ItemStateEvent`, `ItemStateUpdatedEvent`,
/// `ItemCommandEvent`) — or none when the topic's suffix names it. Anything else (Thing or channel topics,
/// several types, a source filter: the twin's events carry no source) is refused with the reason.
public struct GenericItemEventFilter: Sendable, Equatable {
    /// The Item event the trigger watches (openhab-core's `items.events` class name).
    public enum Event: String, Sendable, CaseIterable {
        case stateChanged = "ItemStateChangedEvent"
        case state = "ItemStateEvent"
        case stateUpdated = "ItemStateUpdatedEvent"
        case command = "ItemCommandEvent"

        /// The topic's last segment openHAB gives this event.
        public var topicSuffix: String {
            switch self {
            case .stateChanged: "statechanged"
            case .state: "state"
            case .stateUpdated: "stateupdated"
            case .command: "command"
            }
        }
    }

    /// The Item name, or a glob of names (`*`, `?`).
    public let itemPattern: String
    public let event: Event

    /// The filter of a trigger's configuration (`topic`, `source`, `types`), or why the twin does not run it.
    public static func parse(topic: String, source: String?, types: String?) -> Result<GenericItemEventFilter, Refusal> {
        if let source, !source.isEmpty {
            return .failure(Refusal("a source filter (\"\(source)\"): the twin's events carry no source", hint: "leave the source empty."))
        }
        let prefix = "openhab/items/"
        guard topic.hasPrefix(prefix) else {
            return .failure(Refusal("the topic \"\(topic)\": the twin runs GenericEventTrigger on Item events (openhab/items/…) only",
                                    hint: "use a Thing or Channel trigger for Thing and channel events."))
        }
        let rest = String(topic.dropFirst(prefix.count))
        let name: String, suffix: String
        if rest == "**" {
            (name, suffix) = ("*", "*")
        } else {
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains("**"), !parts[0].contains("{"),
                  parts[1] == "*" || Event.allCases.contains(where: { $0.topicSuffix == parts[1] }) else {
                return .failure(Refusal("the topic \"\(topic)\" is not openhab/items/<name or glob>/<event> or openhab/items/**",
                                        hint: "e.g. openhab/items/*/statechanged, or openhab/items/** with one event type."))
            }
            (name, suffix) = (parts[0], parts[1])
        }
        let listed = (types ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard listed.count <= 1 else {
            return .failure(Refusal("several event types (\(listed.joined(separator: ", "))) in one trigger",
                                    hint: "write one GenericEventTrigger per event type."))
        }
        let event: Event
        if let type = listed.first {
            guard let named = Event(rawValue: type) else {
                return .failure(Refusal("the event type \(type): the twin runs \(Event.allCases.map(\.rawValue).joined(separator: ", "))",
                                        hint: nil))
            }
            guard suffix == "*" || suffix == named.topicSuffix else {
                return .failure(Refusal("the topic \"\(topic)\" never carries an \(type) (its topic ends in /\(named.topicSuffix))", hint: nil))
            }
            event = named
        } else {
            guard let bySuffix = Event.allCases.first(where: { $0.topicSuffix == suffix }) else {
                return .failure(Refusal("the topic \"\(topic)\" without an event type matches every Item event",
                                        hint: "name one event type, e.g. ItemStateChangedEvent."))
            }
            event = bySuffix
        }
        return .success(GenericItemEventFilter(itemPattern: name, event: event))
    }

    /// Why a generic event trigger is not run: what the twin does not take, and what to write instead.
    public struct Refusal: Error, Sendable, Equatable {
        public let reason: String
        public let hint: String?
        init(_ reason: String, hint: String?) { self.reason = reason; self.hint = hint }
    }
}
