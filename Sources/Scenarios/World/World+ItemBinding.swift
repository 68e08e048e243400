import Devices
import Simulation
import SmartHome

/// How a user's Items (from `.items` files or `items`) stand for the twin's devices: `itemBindings` and
/// `channel="twin:…"` links make the Item a linked Item of the device's channel (openHAB's
/// `ItemChannelLink`), so commands reach the device, its states come back and autoupdate is openHAB's for
/// linked Items; every other Item of the files is virtual.
enum WorldItemBinding {
    /// Every device channel's UID → its device path (`twin:thermostat:flat-1:heating:setpoint` →
    /// `flat-1/heating/setpoint`), as ``World`` names the Things.
    static func channelUIDs(_ scenario: Scenario) -> [String: String] {
        var uids: [String: String] = [:]
        for listing in scenario.listings {
            for device in listing.devices {
                for channel in device.kind.channels {
                    uids["twin:\(thingType(device.kind)):\(listing.id):\(device.id):\(channel)"] = "\(listing.id)/\(device.id)/\(channel)"
                }
            }
        }
        return uids
    }

    static func thingType(_ kind: DeviceSpec.Kind) -> String {
        switch kind {
        case .heating, .cooling: "thermostat"
        case .smartPlug: "plug"
        case .lock: "lock"
        }
    }

    /// Why an Item of `type` cannot stand for a channel whose Items are `channelType`, or `nil` if it can:
    /// the same type, a plain `Number` for any number, a Dimmer for a switch.
    static func incompatibility(_ type: ItemType, _ aggregation: GroupAggregation?, _ channelType: ItemType) -> String? {
        switch (type, channelType) {
        case (.groupItem, _): return "a Group cannot be bound; bind its members."
        case (.numberItem(nil), .numberItem), (.dimmerItem, .switchItem): return nil
        case (.numberItem(let d?), .numberItem(let c?)) where d != c:
            return "the device reports \(c.rawValue), which a Number:\(d.rawValue) Item drops."
        default: return type == channelType ? nil : "use a \(channelType) Item (or a plain Number for a number)."
        }
    }

    /// Links every bound Item to its channel (after the home service made the devices' own Items and links).
    static func bind(_ scenario: Scenario, runtime: OpenHABRuntime) async throws {
        let uids = channelUIDs(scenario)
        let byPath = Dictionary(uids.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        for binding in scenario.itemBindings {
            guard let uid = byPath[binding.target] else { continue }  // the validator reported it
            try await runtime.link(ItemChannelLink(itemName: try ItemName(binding.item), channelUID: try ChannelUID(uid)))
        }
        for spec in scenario.items {
            for link in spec.definition?.channels ?? [] where uids[link.uid] != nil {
                try await runtime.link(ItemChannelLink(itemName: try ItemName(spec.name), channelUID: try ChannelUID(link.uid),
                                                       configuration: link.configuration))
            }
        }
        // `expire` metadata of the files' Items (the bus keeps the manager while it listens).
        let expiring = await runtime.items.all().filter { $0.metadata["expire"] != nil }
        ExpireManager(runtime: runtime, items: expiring).start()
    }
}
