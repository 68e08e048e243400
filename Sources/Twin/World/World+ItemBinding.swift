import Devices
import ScenarioFormat
import Simulation
import SmartHome

/// How a user's Items (from `.items` files or `items`) stand for the twin's devices: `itemBindings` and
/// `channel="twin:…"` links make the Item a linked Item of the device's channel (openHAB's
/// `ItemChannelLink`), so commands reach the device, its states come back and autoupdate is openHAB's for
/// linked Items; every other Item of the files is virtual.
enum WorldItemBinding {
    /// Links every bound Item to its channel (after the home service made the devices' own Items and links).
    static func bind(_ scenario: Scenario, runtime: OpenHABRuntime) async throws {
        let uids = TwinThings.channelUIDs(scenario)
        let byPath = Dictionary(uids.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        for binding in scenario.itemBindings {
            guard let uid = byPath[binding.target] else { continue }  // the validator reported it
            try await runtime.link(ItemChannelLink(itemName: try ItemName(binding.item), channelUID: try ChannelUID(uid)))
        }
        let boundByScenario = Set(scenario.itemBindings.map(\.item))
        let fileThings = Set(scenario.things.map(\.uid))
        for spec in scenario.items {
            let links = spec.definition?.channels ?? []
            let boundToDevice = boundByScenario.contains(spec.name) || links.contains { uids[$0.uid] != nil }
            for link in links {
                if uids[link.uid] != nil {
                    try await runtime.link(ItemChannelLink(itemName: try ItemName(spec.name), channelUID: try ChannelUID(link.uid),
                                                           configuration: link.configuration))
                } else if !boundToDevice, let channel = try? ChannelUID(link.uid), fileThings.contains(channel.thingUID.rawValue) {
                    // A channel of a `.things` file's Thing: a linked Item with no device behind it (unless the
                    // scenario binds it to a device of the twin, which then drives it).
                    try await runtime.link(ItemChannelLink(itemName: try ItemName(spec.name), channelUID: channel,
                                                           configuration: link.configuration))
                }
            }
        }
        // `expire` metadata of the files' Items (the bus keeps the manager while it listens).
        let expiring = await runtime.items.all().filter { $0.metadata["expire"] != nil }
        ExpireManager(runtime: runtime, items: expiring).start()
    }
}
