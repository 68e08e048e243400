import Synchronization

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

    private var subscribers: [(id: SubscriptionID, filter: EventFilter, handler: Subscriber)] = [] {
        didSet { subscriberCount.store(subscribers.count, ordering: .releasing) }
    }
    private var nextID = 0
    /// `subscribers.count`, readable without entering the actor (see ``countIfUnobserved(_:)``).
    private let subscriberCount = Atomic<Int>(0)
    /// The number of events published, counted without entering the actor when nobody listens.
    private let published = Atomic<Int>(0)

    /// How many events have been published.
    public var publishedCount: Int { published.load(ordering: .acquiring) }

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
        published.add(1, ordering: .acquiringAndReleasing)
        let targets = subscribers  // a subscriber added during delivery hears the next event
        for subscriber in targets where subscriber.filter.matches(event) {
            await subscriber.handler(event)
        }
    }

    /// Publishes `first`, then `second` if there is one, exactly as two ``publish(_:)`` calls
    /// would (each event is delivered to the subscribers of its moment), with one hop onto the bus.
    func publish(_ first: OpenHABEvent, then second: OpenHABEvent?) async {
        await publish(first)
        if let second { await publish(second) }
    }

    /// Publishes `count` events nobody can hear without entering the actor: when there are no
    /// subscribers, counts them (as ``publish(_:)`` would) and returns `true`; otherwise returns
    /// `false` and the caller must publish them.
    ///
    /// Subscriptions change only through this actor's methods, which the simulation task awaits,
    /// so in a simulation the answer cannot go stale between this check and the publication.
    nonisolated func countIfUnobserved(_ count: Int = 1) -> Bool {
        guard subscriberCount.load(ordering: .acquiring) == 0 else { return false }
        published.add(count, ordering: .acquiringAndReleasing)
        return true
    }

    /// Whether anybody subscribed, read without entering the actor (see ``countIfUnobserved(_:)``
    /// for why the answer cannot go stale in a simulation).
    nonisolated var hasSubscribers: Bool { subscriberCount.load(ordering: .acquiring) > 0 }

    /// Counts `count` events published while ``hasSubscribers`` is `false`, as ``publish(_:)`` would.
    nonisolated func countUnheard(_ count: Int) {
        published.add(count, ordering: .acquiringAndReleasing)
    }
}
