/// Owns every Item ↔ channel link, indexed both ways. Read it freely; change it through
/// ``OpenHABRuntime``.
public actor LinkRegistry {
    private struct Key: Hashable {
        let item: ItemName
        let channel: ChannelUID
    }

    private var links: [Key: ItemChannelLink] = [:]
    private var channelsByItem: [ItemName: [ChannelUID]] = [:]  // each array sorted
    private var itemsByChannel: [ChannelUID: [ItemName]] = [:]  // each array sorted

    /// An empty registry.
    public init() {}

    /// Every link, sorted by Item name then channel UID.
    public func all() -> [ItemChannelLink] { links.values.sorted() }

    /// The link between `item` and `channel`, if any.
    public func link(_ item: ItemName, _ channel: ChannelUID) -> ItemChannelLink? {
        links[Key(item: item, channel: channel)]
    }

    /// The channels `item` is linked to, sorted by UID.
    public func channels(linkedTo item: ItemName) -> [ChannelUID] { channelsByItem[item] ?? [] }

    /// The Items linked to `channel`, sorted by name.
    public func items(linkedTo channel: ChannelUID) -> [ItemName] { itemsByChannel[channel] ?? [] }

    /// Adds or replaces a link. - Returns: `true` if it is new.
    @discardableResult
    func put(_ link: ItemChannelLink) -> Bool {
        let key = Key(item: link.itemName, channel: link.channelUID)
        let isNew = links[key] == nil
        links[key] = link
        if isNew {
            Self.insertSorted(link.channelUID, into: &channelsByItem[link.itemName, default: []])
            Self.insertSorted(link.itemName, into: &itemsByChannel[link.channelUID, default: []])
        }
        return isNew
    }

    /// Removes a link. - Returns: the removed link, if there was one.
    func remove(_ item: ItemName, _ channel: ChannelUID) -> ItemChannelLink? {
        guard let link = links.removeValue(forKey: Key(item: item, channel: channel)) else { return nil }
        channelsByItem[item]?.removeAll { $0 == channel }
        if channelsByItem[item]?.isEmpty == true { channelsByItem[item] = nil }
        itemsByChannel[channel]?.removeAll { $0 == item }
        if itemsByChannel[channel]?.isEmpty == true { itemsByChannel[channel] = nil }
        return link
    }

    /// Removes every link of `item` (when the Item is deleted).
    func removeAll(item: ItemName) {
        for channel in channels(linkedTo: item) { _ = remove(item, channel) }
    }

    /// Removes every link to a channel of `thing` (when the Thing is removed).
    func removeAll(thing: ThingUID) {
        for key in links.keys.filter({ $0.channel.thingUID == thing }) { _ = remove(key.item, key.channel) }
    }

    private static func insertSorted<T: Comparable>(_ value: T, into array: inout [T]) {
        let index = array.firstIndex { $0 > value } ?? array.endIndex
        array.insert(value, at: index)
    }
}
