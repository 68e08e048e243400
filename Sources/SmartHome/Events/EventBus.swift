/// Delivers openHAB events to subscribers, one at a time, in subscription order.
///
/// ``publish(_:)`` awaits every matching subscriber before it returns, so the order in which
/// listeners (the energy ledger, expectation checks, automations) see events is the order in
/// which they happened — deterministic, with no buffering and no stray tasks.
public actor EventBus {
    /// Receives an event.
    public typealias Subscriber = @Sendable (OpenHABEvent) async -> Void

    /// Identifies a subscription for ``unsubscribe(_:)``.
    public struct SubscriptionID: Hashable, Sendable { let rawValue: Int }

    private var subscribers: [(id: SubscriptionID, filter: EventFilter, handler: Subscriber)] = []
    private var nextID = 0

    /// How many events have been published.
    public private(set) var publishedCount = 0

    /// An empty bus.
    public init() {}

    /// Subscribes `handler` to events matching `filter`; later subscribers hear each event after earlier ones.
    @discardableResult
    public func subscribe(_ filter: EventFilter = .all, _ handler: @escaping Subscriber) -> SubscriptionID {
        let id = SubscriptionID(rawValue: nextID)
        nextID += 1
        subscribers.append((id, filter, handler))
        return id
    }

    /// Ends a subscription.
    public func unsubscribe(_ id: SubscriptionID) {
        subscribers.removeAll { $0.id == id }
    }

    /// Delivers `event` to each matching subscriber in order, awaiting each.
    public func publish(_ event: OpenHABEvent) async {
        publishedCount += 1
        let targets = subscribers  // a subscriber added during delivery hears the next event
        for subscriber in targets where subscriber.filter.matches(event) {
            await subscriber.handler(event)
        }
    }
}
