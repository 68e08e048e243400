import SmartHome

/// The Things and channels a scenario's world has, named from the file alone (`twin:<type>:<listing>:<device>`),
/// and which Item types can stand for their channels: what the validator checks and the world builds by.
package enum TwinThings {
    /// Every device channel's UID → its device path (`twin:thermostat:flat-1:heating:setpoint` →
    /// `flat-1/heating/setpoint`), as the world names the Things.
    package static func channelUIDs(_ scenario: Scenario) -> [String: String] {
        var uids: [String: String] = [:]
        for listing in scenario.listings {
            for device in listing.devices {
                for channel in device.kind.channels {
                    uids["\(thingUID(device.kind, listing: listing.id, device: device.id)):\(channel)"] = "\(listing.id)/\(device.id)/\(channel)"
                }
            }
        }
        return uids
    }

    /// The UID text of a device's Thing: `twin:<type>:<listing>:<device>`.
    package static func thingUID(_ kind: DeviceSpec.Kind, listing: String, device: String) -> String {
        "twin:\(thingType(kind)):\(listing):\(device)"
    }

    /// The Thing type segment of a device kind's Things.
    package static func thingType(_ kind: DeviceSpec.Kind) -> String {
        switch kind {
        case .heating, .cooling: "thermostat"
        case .smartPlug: "plug"
        case .lock: "lock"
        }
    }

    /// Why an Item of `type` cannot stand for a channel whose Items are `channelType`, or `nil` if it can:
    /// the same type, a plain `Number` for any number, a Dimmer for a switch.
    package static func incompatibility(_ type: ItemType, _ aggregation: GroupAggregation?, _ channelType: ItemType) -> String? {
        switch (type, channelType) {
        case (.groupItem, _): return "a Group cannot be bound; bind its members."
        case (.numberItem(nil), .numberItem), (.dimmerItem, .switchItem): return nil
        case (.numberItem(let d?), .numberItem(let c?)) where d != c:
            return "the device reports \(c.rawValue), which a Number:\(d.rawValue) Item drops."
        default: return type == channelType ? nil : "use a \(channelType) Item (or a plain Number for a number)."
        }
    }
}
