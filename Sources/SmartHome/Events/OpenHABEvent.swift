import Simulation
/// An event on the bus, with openHAB's topic, type name and JSON payload.
public struct OpenHABEvent: Sendable, Hashable {
    /// What happened, with typed details so listeners need not parse JSON.
    public enum Kind: Sendable, Hashable {
        /// A command was sent to an Item (`ItemCommandEvent`).
        case itemCommand(ItemName, Command)
        /// A state update was posted to an Item (`ItemStateEvent`): the state as posted, before the
        /// Item accepts, converts or drops it.
        case itemState(ItemName, State)
        /// An Item took a state, changed or not (`ItemStateUpdatedEvent`, what "received update" rule
        /// triggers see), with the time of the update before this one.
        case itemStateUpdated(ItemName, State, lastStateUpdate: EventTime?)
        /// Autoupdate predicts the state a command will give (`ItemStatePredictedEvent`);
        /// `isConfirmation` when no linked Thing can take the command and the current state is restated.
        case itemStatePredicted(ItemName, State, isConfirmation: Bool)
        /// An Item's state changed (`ItemStateChangedEvent`), with the update and change times before this one.
        case itemStateChanged(ItemName, state: State, oldState: State, lastStateUpdate: EventTime?, lastStateChange: EventTime?)
        /// A Thing reported its status, changed or not (`ThingStatusInfoEvent`).
        case thingStatus(ThingUID, status: ThingStatusInfo)
        /// A Thing's status changed (`ThingStatusInfoChangedEvent`).
        case thingStatusChanged(ThingUID, status: ThingStatusInfo, oldStatus: ThingStatusInfo)
    }

    /// A time in an event payload: an instant and the zone it is written in
    /// (``LocalCalendar/isoZonedText(at:)``, as openHAB's `ZonedDateTimeAdapter`).
    public struct EventTime: Sendable, Hashable {
        /// When.
        public let instant: SimInstant
        /// The zone the text is written in.
        public let calendar: LocalCalendar

        /// `instant` written in `calendar`'s zone.
        public init(_ instant: SimInstant, in calendar: LocalCalendar) {
            self.instant = instant
            self.calendar = calendar
        }

        /// E.g. `2026-01-09T15:00:00+01:00[Europe/Budapest]`.
        public var text: String { calendar.isoZonedText(at: instant) }
    }

    /// What happened.
    public let kind: Kind

    /// Creates an event.
    public init(_ kind: Kind) { self.kind = kind }

    /// openHAB's event type name, e.g. `ItemStateChangedEvent`.
    public var type: String {
        switch kind {
        case .itemCommand: return "ItemCommandEvent"
        case .itemState: return "ItemStateEvent"
        case .itemStateUpdated: return "ItemStateUpdatedEvent"
        case .itemStatePredicted: return "ItemStatePredictedEvent"
        case .itemStateChanged: return "ItemStateChangedEvent"
        case .thingStatus: return "ThingStatusInfoEvent"
        case .thingStatusChanged: return "ThingStatusInfoChangedEvent"
        }
    }

    /// The topic, e.g. `openhab/items/flat_1_heating_switch/statechanged`.
    public var topic: String {
        let (family, id, action) = topicSegments
        return "openhab/\(family)/\(id)/\(action)"
    }

    /// The topic's segments after `openhab`: `items` or `things`, the Item name or Thing UID, the action.
    var topicSegments: (family: String, id: String, action: String) {
        switch kind {
        case .itemCommand(let name, _): return ("items", name.rawValue, "command")
        case .itemState(let name, _): return ("items", name.rawValue, "state")
        case .itemStateUpdated(let name, _, _): return ("items", name.rawValue, "stateupdated")
        case .itemStatePredicted(let name, _, _): return ("items", name.rawValue, "statepredicted")
        case .itemStateChanged(let name, _, _, _, _): return ("items", name.rawValue, "statechanged")
        case .thingStatus(let uid, _): return ("things", uid.rawValue, "status")
        case .thingStatusChanged(let uid, _, _): return ("things", uid.rawValue, "statuschanged")
        }
    }

    /// The JSON payload, keys in openHAB's order; absent times are left out (Gson omits nulls).
    public var payload: String {
        switch kind {
        case .itemCommand(_, let command):
            return JSONString.object([("type", command.typeName), ("value", command.description)])
        case .itemState(_, let state):
            return JSONString.object([("type", state.typeName), ("value", state.description)])
        case .itemStateUpdated(_, let state, let lastUpdate):
            var pairs = [("type", state.typeName), ("value", state.description)]
            if let lastUpdate { pairs.append(("lastStateUpdate", lastUpdate.text)) }
            return JSONString.object(pairs)
        case .itemStatePredicted(_, let state, let isConfirmation):
            return "{\"predictedType\":\(JSONString.quoted(state.typeName)),\"predictedValue\":\(JSONString.quoted(state.description)),"
                + "\"isConfirmation\":\(isConfirmation)}"
        case .itemStateChanged(_, let state, let old, let lastUpdate, let lastChange):
            var pairs = [("type", state.typeName), ("value", state.description),
                         ("oldType", old.typeName), ("oldValue", old.description)]
            if let lastUpdate { pairs.append(("lastStateUpdate", lastUpdate.text)) }
            if let lastChange { pairs.append(("lastStateChange", lastChange.text)) }
            return JSONString.object(pairs)
        case .thingStatus(_, let info):
            return Self.statusJSON(info)
        case .thingStatusChanged(_, let new, let old):
            return "[\(Self.statusJSON(new)),\(Self.statusJSON(old))]"
        }
    }

    /// The `data:` line of openHAB's SSE stream: `{"topic":…,"payload":"…","type":…}`.
    public var serverSentEventData: String {
        JSONString.object([("topic", topic), ("payload", payload), ("type", type)])
    }

    /// The Item this event is about, if any.
    public var itemName: ItemName? {
        switch kind {
        case .itemCommand(let n, _), .itemState(let n, _), .itemStateUpdated(let n, _, _), .itemStatePredicted(let n, _, _),
             .itemStateChanged(let n, _, _, _, _):
            return n
        case .thingStatus, .thingStatusChanged: return nil
        }
    }

    private static func statusJSON(_ info: ThingStatusInfo) -> String {
        var pairs = [("status", info.status.rawValue), ("statusDetail", info.statusDetail.rawValue)]
        if let d = info.description { pairs.append(("description", d)) }
        return JSONString.object(pairs)
    }
}
