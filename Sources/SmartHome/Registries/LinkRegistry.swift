import Synchronization

/// Owns every Item ↔ channel link, indexed both ways. Read it freely; change it through
/// ``OpenHABRuntime``.
///
/// The links sit behind a `Mutex` rather than the actor's executor, so the runtime finds a
/// channel's Items synchronously — a device's state report reaches its Items without a hop.
/// The public reads stay actor methods (callers `await` them as before).
public actor LinkRegistry {
    private struct Key: Hashable {
        let item: ItemName
        let channel: ChannelUID
    }

    private struct Storage {
        var links: [Key: ItemChannelLink] = [:]
        var channelsByItem: [ItemName: [ChannelUID]] = [:]  // each array sorted
        var itemsByChannel: [ChannelUID: [ItemName]] = [:]  // each array sorted

        mutating func remove(_ item: ItemName, _ channel: ChannelUID) -> ItemChannelLink? {
            guard let link = links.removeValue(forKey: Key(item: item, channel: channel)) else { return nil }
            channelsByItem[item]?.removeAll { $0 == channel }
            if channelsByItem[item]?.isEmpty == true { channelsByItem[item] = nil }
            itemsByChannel[channel]?.removeAll { $0 == item }
            if itemsByChannel[channel]?.isEmpty == true { itemsByChannel[channel] = nil }
            return link
        }
    }

    private let storage = Mutex(Storage())

    /// An empty registry.
    public init() {}

    /// Every link, sorted by Item name then channel UID.
    public func all() -> [ItemChannelLink] { storage.withLock { $0.links.values.sorted() } }

    /// The link between `item` and `channel`, if any.
    public func link(_ item: ItemName, _ channel: ChannelUID) -> ItemChannelLink? {
        storage.withLock { $0.links[Key(item: item, channel: channel)] }
    }

    /// The channels `item` is linked to, sorted by UID.
    public func channels(linkedTo item: ItemName) -> [ChannelUID] { linkedChannels(item) }

    /// The Items linked to `channel`, sorted by name.
    public func items(linkedTo channel: ChannelUID) -> [ItemName] { linkedItems(channel) }

    /// ``channels(linkedTo:)`` without entering the actor.
    nonisolated func linkedChannels(_ item: ItemName) -> [ChannelUID] {
        storage.withLock { $0.channelsByItem[item] ?? [] }
    }

    /// ``items(linkedTo:)`` without entering the actor.
    nonisolated func linkedItems(_ channel: ChannelUID) -> [ItemName] {
        storage.withLock { $0.itemsByChannel[channel] ?? [] }
    }

    /// Adds or replaces a link. - Returns: `true` if it is new.
    @discardableResult
    nonisolated func put(_ link: ItemChannelLink) -> Bool {
        storage.withLock { storage in
            let key = Key(item: link.itemName, channel: link.channelUID)
            let isNew = storage.links[key] == nil
            storage.links[key] = link
            if isNew {
                Self.insertSorted(link.channelUID, into: &storage.channelsByItem[link.itemName, default: []])
                Self.insertSorted(link.itemName, into: &storage.itemsByChannel[link.channelUID, default: []])
            }
            return isNew
        }
    }

    /// Removes a link. - Returns: the removed link, if there was one.
    nonisolated func remove(_ item: ItemName, _ channel: ChannelUID) -> ItemChannelLink? {
        storage.withLock { $0.remove(item, channel) }
    }

    /// Removes every link of `item` (when the Item is deleted).
    nonisolated func removeAll(item: ItemName) {
        storage.withLock { storage in
            for channel in storage.channelsByItem[item] ?? [] { _ = storage.remove(item, channel) }
        }
    }

    /// Removes every link (the whole runtime is shutting down): one step, where removing them Thing
    /// by Thing would scan every link once per Thing.
    nonisolated func removeAll() {
        storage.withLock { $0 = Storage() }
    }

    /// Removes every link to a channel of `thing` (when the Thing is removed).
    nonisolated func removeAll(thing: ThingUID) {
        storage.withLock { storage in
            for key in storage.links.keys.filter({ $0.channel.thingUID == thing }) { _ = storage.remove(key.item, key.channel) }
        }
    }

    private static func insertSorted<T: Comparable>(_ value: T, into array: inout [T]) {
        let index = array.firstIndex { $0 > value } ?? array.endIndex
        array.insert(value, at: index)
    }
}
