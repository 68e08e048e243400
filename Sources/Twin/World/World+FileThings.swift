import ScenarioFormat
import Simulation
import SmartHome

/// The Things of the scenario's `.things` files (`openhabConf`'s `things/`): each joins the Thing registry with a
/// ``FileThingHandler`` (ONLINE, no device behind it). Its channels are those the file declares and those the
/// Items' `channel="…"` links name (a binding's Thing type brings channels no file lists: `astro:sun:home:rise#start`).
enum WorldFileThings {
    /// Adds every file Thing; returns the handlers by Thing UID.
    static func install(_ scenario: Scenario, runtime: OpenHABRuntime) async throws -> [String: FileThingHandler] {
        guard !scenario.things.isEmpty else { return [:] }
        // Channels Items link to, by Thing, with the Item type of the first Item linked (a link's Item decides the type).
        var linked: [String: [(id: String, type: ItemType)]] = [:]
        let declared = Set(scenario.things.map(\.uid))
        for spec in scenario.items {
            for link in spec.definition?.channels ?? [] {
                guard let uid = try? ChannelUID(link.uid), declared.contains(uid.thingUID.rawValue) else { continue }
                let id = String(link.uid.dropFirst(uid.thingUID.rawValue.count + 1))
                linked[uid.thingUID.rawValue, default: []].append((id, spec.type))
            }
        }
        var handlers: [String: FileThingHandler] = [:]
        var ordered: [FileThingHandler] = []
        for definition in scenario.things {
            let uid = try ThingUID(definition.uid)
            let linkedTypes = Dictionary((linked[definition.uid] ?? []).map { ($0.id, $0.type) }, uniquingKeysWith: { first, _ in first })
            var channels: [Channel] = []
            var ids: Set<String> = []
            for channel in definition.channels where ids.insert(channel.id).inserted {
                channels.append(Channel(uid: try ChannelUID(thing: uid, id: channel.id),
                                        channelTypeUID: try channel.channelType.map { t throws(SmartHomeError) in try ChannelTypeUID("\(definition.bindingID):\(t)") },
                                        itemType: channel.isTrigger ? nil : channel.itemType ?? linkedTypes[channel.id].flatMap { $0 == .groupItem ? nil : $0 }, kind: channel.isTrigger ? .trigger : .state,
                                        label: channel.label, configuration: Dictionary(channel.configuration.map { ($0.key, $0.value.description) },
                                                                                        uniquingKeysWith: { first, _ in first })))
            }
            for (id, type) in linked[definition.uid] ?? [] where ids.insert(id).inserted {
                channels.append(Channel(uid: try ChannelUID(thing: uid, id: id), itemType: type == .groupItem ? nil : type))
            }
            let thing = Thing(uid: uid, label: definition.label, channels: channels,
                              configuration: Dictionary(definition.configuration.map { ($0.key, $0.value.description) },
                                                        uniquingKeysWith: { first, _ in first }),
                              location: definition.location)
            let handler = FileThingHandler(thing: thing)
            handlers[definition.uid] = handler
            ordered.append(handler)
        }
        for definition in scenario.things where definition.isBridge {
            let children = scenario.things.filter { $0.bridgeUID == definition.uid }.compactMap { handlers[$0.uid] }
            await handlers[definition.uid]?.adopt(children)
        }
        for handler in ordered { try await runtime.addThing(handler.thing, handler: handler) }
        return handlers
    }
}
