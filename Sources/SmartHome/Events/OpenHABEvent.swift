import Simulation
/// An event on the bus, with openHAB's topic, type name and JSON payload.
public struct OpenHABEvent: Sendable, Hashable {
    /// What happened, with typed details so listeners need not parse JSON.
    public enum Kind: Sendable, Hashable {
        /// A command was sent to an Item (`ItemCommandEvent`).
        case itemCommand(ItemName, Command)
        /// An Item's state was updated, changed or not (`ItemStateEvent`).
        case itemState(ItemName, State)
        /// An Item's state changed (`ItemStateChangedEvent`).
        case itemStateChanged(ItemName, state: State, oldState: State)
        /// A Thing's status changed (`ThingStatusInfoChangedEvent`).
        case thingStatusChanged(ThingUID, status: ThingStatusInfo, oldStatus: ThingStatusInfo)
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
        case .itemStateChanged: return "ItemStateChangedEvent"
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
        case .itemStateChanged(let name, _, _): return ("items", name.rawValue, "statechanged")
        case .thingStatusChanged(let uid, _, _): return ("things", uid.rawValue, "statuschanged")
        }
    }

    /// The JSON payload, keys in openHAB's order.
    public var payload: String {
        switch kind {
        case .itemCommand(_, let command):
            return JSONString.object([("type", command.typeName), ("value", command.description)])
        case .itemState(_, let state):
            return JSONString.object([("type", state.typeName), ("value", state.description)])
        case .itemStateChanged(_, let state, let old):
            return JSONString.object([("type", state.typeName), ("value", state.description),
                                    ("oldType", old.typeName), ("oldValue", old.description)])
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
        case .itemCommand(let n, _), .itemState(let n, _), .itemStateChanged(let n, _, _): return n
        case .thingStatusChanged: return nil
        }
    }

    private static func statusJSON(_ info: ThingStatusInfo) -> String {
        var pairs = [("status", info.status.rawValue), ("statusDetail", info.statusDetail.rawValue)]
        if let d = info.description { pairs.append(("description", d)) }
        return JSONString.object(pairs)
    }
}
