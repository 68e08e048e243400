/// Owns every Thing and its handler. Read it freely; change it through ``OpenHABRuntime``,
/// which publishes the matching events.
public actor ThingRegistry {
    private var things: [ThingUID: Thing] = [:]
    private var handlers: [ThingUID: any ThingHandler] = [:]
    /// The keys of ``things``, sorted, kept as Things come and go rather than sorted per listing.
    private var sortedUIDs: [ThingUID] = []

    /// An empty registry.
    public init() {}

    /// The Thing with `uid`, if any.
    public func thing(_ uid: ThingUID) -> Thing? { things[uid] }

    /// Every Thing, sorted by UID.
    public func all() -> [Thing] { sortedUIDs.compactMap { things[$0] } }

    /// Every Thing's UID, sorted.
    func uids() -> [ThingUID] { sortedUIDs }

    /// The number of Things.
    public var count: Int { things.count }

    /// The current status of `uid`, if the Thing exists.
    public func status(of uid: ThingUID) -> ThingStatusInfo? { things[uid]?.statusInfo }

    /// The channel with `uid`, if its Thing exists and has it.
    public func channel(_ uid: ChannelUID) -> Channel? { things[uid.thingUID]?.channel(uid) }

    func handler(for uid: ThingUID) -> (any ThingHandler)? { handlers[uid] }

    func add(_ thing: Thing, handler: any ThingHandler) throws(SmartHomeError) {
        guard things[thing.uid] == nil else {
            throw SmartHomeError(.duplicateThing, "A Thing with UID \(thing.uid) already exists; remove it first or use another id.")
        }
        things[thing.uid] = thing
        handlers[thing.uid] = handler
        sortedUIDs.insert(thing.uid, at: sortedUIDs.partitioningIndex { $0 > thing.uid })
    }

    func remove(_ uid: ThingUID) -> (Thing, any ThingHandler)? {
        guard let thing = things.removeValue(forKey: uid), let handler = handlers.removeValue(forKey: uid) else { return nil }
        sortedUIDs.removeAll { $0 == uid }
        return (thing, handler)
    }

    /// Sets the status; returns (old, new), equal when unchanged, or `nil` if the Thing is unknown.
    func setStatus(_ uid: ThingUID, _ info: ThingStatusInfo) -> (old: ThingStatusInfo, new: ThingStatusInfo)? {
        guard let old = things[uid]?.statusInfo else { return nil }
        if old != info { things[uid]?.statusInfo = info }
        return (old, info)
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, for an array partitioned by it
    /// (every element that does not satisfy it comes first). - Complexity: O(log n).
    fileprivate func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if belongs(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
