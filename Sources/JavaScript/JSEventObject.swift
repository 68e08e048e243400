import Foundation
import Rules

/// The `event` object a JavaScript rule's `execute` receives, as openhab-js's `_getTriggeredData` builds it
/// from the trigger's inputs (states and commands as strings; absent fields not set).
enum JSEventObject {
    static func make(_ event: RuleTriggerEvent, rule: Rule, triggers: [JSTriggerSpec]) -> [String: Any] {
        var o: [String: Any] = [:]
        guard let id = event.triggerID, let spec = triggers.first(where: { $0.id == id }) else { return o }
        o["module"] = id
        let type = spec.type.split(separator: ".").last.map(String.init) ?? spec.type
        let isGroup = type.hasPrefix("Group")
        func item(_ eventName: String, _ topic: String) {
            if let name = event.itemName {
                o["itemName"] = name
                o["eventName"] = eventName
                o["eventClass"] = "org.openhab.core.items.events.\(eventName)"
                o["eventTopic"] = "openhab/items/\(name)/\(topic)"
                o["eventSource"] = NSNull()
            }
            if isGroup, let group = event.groupName { o["groupName"] = group }
        }
        switch type {
        case "ItemStateChangeTrigger", "GroupStateChangeTrigger":
            item("ItemStateChangedEvent", "statechanged")
            o["oldState"] = event.previousState?.description ?? "NULL"
            o["newState"] = event.newState?.description ?? "NULL"
            o["eventType"] = "change"
            o["triggerType"] = "ItemStateChangeTrigger"
        case "ItemStateUpdateTrigger", "GroupStateUpdateTrigger":
            item("ItemStateUpdatedEvent", "stateupdated")
            o["receivedState"] = event.newState?.description ?? "NULL"
            o["eventType"] = "update"
            o["triggerType"] = "ItemStateUpdateTrigger"
        case "ItemCommandTrigger", "GroupCommandTrigger":
            item("ItemCommandEvent", "command")
            o["receivedCommand"] = event.command?.description ?? ""
            o["eventType"] = "command"
            o["triggerType"] = "ItemCommandTrigger"
        case "ChannelEventTrigger":
            o["channelUID"] = event.channelUID ?? spec["channelUID"] ?? ""
            o["receivedEvent"] = event.channelEvent ?? ""
            o["eventType"] = "triggered"
            o["triggerType"] = "ChannelEventTrigger"
            o["eventName"] = "ChannelTriggeredEvent"
        case "ThingStatusChangeTrigger":
            o["thingUID"] = event.thingUID ?? spec["thingUID"] ?? ""
            o["oldStatus"] = event.previousThingStatus ?? ""
            o["newStatus"] = event.thingStatus ?? ""
            o["eventType"] = "change"
            o["triggerType"] = "ThingStatusChangeTrigger"
        case "ThingStatusUpdateTrigger":
            o["thingUID"] = event.thingUID ?? spec["thingUID"] ?? ""
            o["status"] = event.thingStatus ?? ""
            o["eventType"] = "update"
            o["triggerType"] = "ThingStatusUpdateTrigger"
        case "GenericCronTrigger":
            o["cronExpression"] = spec["cronExpression"] ?? ""
            o["eventType"] = "time"
            o["triggerType"] = "GenericCronTrigger"
        case "TimeOfDayTrigger":
            o["time"] = spec["time"] ?? ""
            o["eventType"] = "time"
            o["triggerType"] = "TimeOfDayTrigger"
        case "DateTimeTrigger":
            o["itemName"] = spec["itemName"] ?? ""
            o["timeOnly"] = spec["timeOnly"] == "true"
            o["offset"] = Int(spec["offset"] ?? "0") ?? 0
            o["eventType"] = "time"
            o["triggerType"] = "DateTimeTrigger"
        default:
            break  // SystemStartlevelTrigger: the generic fields only
        }
        return o
    }
}

