import Rules
import SmartHome

/// The `event` object a JavaScript rule's `execute` receives, as openhab-js's `_getTriggeredData` builds it
/// from the trigger's inputs (states and commands as strings; absent fields not set), members in a fixed order.
enum JSEventObject {
    static func make(_ event: RuleTriggerEvent, rule: Rule, triggers: [JSTriggerSpec]) -> JSWireValue {
        var o: [(key: String, value: JSWireValue)] = []  // each key set once, in this order
        guard let id = event.triggerID, let spec = triggers.first(where: { $0.id == id }) else { return .object(o) }
        o.reserveCapacity(10)
        o.append(("module", .string(id)))
        let utf8 = spec.type.utf8
        let type = utf8.lastIndex(of: UInt8(ascii: ".")).map { spec.type[utf8.index(after: $0)...] } ?? spec.type[...]
        let isGroup = type.hasPrefix("Group")
        func item(_ eventName: String, _ topic: String) {
            if let name = event.itemName {
                o.append(("itemName", .string(name)))
                o.append(("eventName", .string(eventName)))
                o.append(("eventClass", .string("org.openhab.core.items.events.\(eventName)")))
                o.append(("eventTopic", .string("openhab/items/\(name)/\(topic)")))
                o.append(("eventSource", .null))
            }
            if isGroup, let group = event.groupName { o.append(("groupName", .string(group))) }
        }
        switch type {
        case "ItemStateChangeTrigger", "GroupStateChangeTrigger":
            item("ItemStateChangedEvent", "statechanged")
            o.append(("oldState", .string(event.previousState?.description ?? "NULL")))
            o.append(("newState", .string(event.newState?.description ?? "NULL")))
            o.append(("eventType", .string("change")))
            o.append(("triggerType", .string("ItemStateChangeTrigger")))
        case "ItemStateUpdateTrigger", "GroupStateUpdateTrigger":
            item("ItemStateUpdatedEvent", "stateupdated")
            o.append(("receivedState", .string(event.newState?.description ?? "NULL")))
            o.append(("eventType", .string("update")))
            o.append(("triggerType", .string("ItemStateUpdateTrigger")))
        case "ItemCommandTrigger", "GroupCommandTrigger":
            item("ItemCommandEvent", "command")
            o.append(("receivedCommand", .string(event.command?.description ?? "")))
            o.append(("eventType", .string("command")))
            o.append(("triggerType", .string("ItemCommandTrigger")))
        case "ChannelEventTrigger":
            o.append(("channelUID", .string(event.channelUID ?? spec["channelUID"] ?? "")))
            o.append(("receivedEvent", .string(event.channelEvent ?? "")))
            o.append(("eventType", .string("triggered")))
            o.append(("triggerType", .string("ChannelEventTrigger")))
            o.append(("eventName", .string("ChannelTriggeredEvent")))
        case "ThingStatusChangeTrigger":
            o.append(("thingUID", .string(event.thingUID ?? spec["thingUID"] ?? "")))
            o.append(("oldStatus", .string(event.previousThingStatus ?? "")))
            o.append(("newStatus", .string(event.thingStatus ?? "")))
            o.append(("eventType", .string("change")))
            o.append(("triggerType", .string("ThingStatusChangeTrigger")))
        case "ThingStatusUpdateTrigger":
            o.append(("thingUID", .string(event.thingUID ?? spec["thingUID"] ?? "")))
            o.append(("status", .string(event.thingStatus ?? "")))
            o.append(("eventType", .string("update")))
            o.append(("triggerType", .string("ThingStatusUpdateTrigger")))
        case "GenericCronTrigger":
            o.append(("cronExpression", .string(spec["cronExpression"] ?? "")))
            o.append(("eventType", .string("time")))
            o.append(("triggerType", .string("GenericCronTrigger")))
        case "TimeOfDayTrigger":
            o.append(("time", .string(spec["time"] ?? "")))
            o.append(("eventType", .string("time")))
            o.append(("triggerType", .string("TimeOfDayTrigger")))
        case "DateTimeTrigger":
            o.append(("itemName", .string(spec["itemName"] ?? "")))
            o.append(("timeOnly", .bool(spec["timeOnly"] == "true")))
            o.append(("offset", .integer(Int64(spec["offset"] ?? "0") ?? 0)))
            o.append(("eventType", .string("time")))
            o.append(("triggerType", .string("DateTimeTrigger")))
        case "GenericEventTrigger":
            // openhab-js's _getTriggeredData with only the event as input: the event's class, topic, source and
            // parsed payload, and what its class tells (no oldState/newState/receivedCommand: no such inputs).
            guard let name = event.itemName,
                  case .success(let filter) = GenericItemEventFilter.parse(topic: spec["topic"] ?? "", source: spec["source"], types: spec["types"])
            else { break }
            o.append(("eventClass", .string("org.openhab.core.items.events.\(filter.event.rawValue)")))
            o.append(("eventName", .string(filter.event.rawValue)))
            o.append(("eventTopic", .string("openhab/items/\(name)/\(filter.event.topicSuffix)")))
            o.append(("eventSource", .null))
            var payload: [(key: String, value: JSWireValue)] = []
            if filter.event == .command, let command = event.command {
                payload = [("type", .string(command.typeName)), ("value", .string(command.description))]
            } else if let state = event.newState {
                payload = [("type", .string(state.typeName)), ("value", .string(state.description))]
                if filter.event == .stateChanged, let old = event.previousState {
                    payload += [("oldType", .string(old.typeName)), ("oldValue", .string(old.description))]
                }
            }
            o.append(("payload", .object(payload)))
            o.append(("itemName", .string(name)))
            switch filter.event {
            case .stateChanged: o += [("eventType", .string("change")), ("triggerType", .string("ItemStateChangeTrigger"))]
            case .state, .stateUpdated: o += [("eventType", .string("update")), ("triggerType", .string("ItemStateUpdateTrigger"))]
            case .command: o += [("eventType", .string("command")), ("triggerType", .string("ItemCommandTrigger"))]
            }
        default:
            break  // SystemStartlevelTrigger: the generic fields only
        }
        return .object(o)
    }
}
