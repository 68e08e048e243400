import Simulation
import Synchronization

/// Delivers openHAB events to subscribers the way openHAB does: after the publishing call has
/// returned, never inside it.
///
/// ``publish(_:)`` only counts the event and, when somebody listens, schedules its delivery as a
/// new event on the simulation's scheduler at the current instant. Deliveries therefore run in
/// publish order, each one to every matching subscriber in subscription order (awaiting each)
/// before the next event is delivered; events that a subscriber causes (a rule commanding
/// another Item) are published behind the ones already waiting, so they reach everybody after
/// the triggering event's other deliveries — openHAB's order, deterministic, with no stray tasks.
///
/// An event no current subscriber's filter matches is counted and not delivered — not even to a
/// subscriber that arrives before the delivery would have run (the rule engine listens to a few
/// topics and the meters to `statechanged`; scheduling a delivery for every other event doubled a
/// run's kernel events). With nobody subscribed, publishing costs an atomic increment.
public final class EventBus: Sendable {
    /// Receives an event.
    public typealias Subscriber = @Sendable (OpenHABEvent) async -> Void

    /// Identifies a subscription for ``unsubscribe(_:)``.
    public struct SubscriptionID: Hashable, Sendable { let rawValue: Int }

    private struct Subscription {
        var id: SubscriptionID
        var filter: EventFilter
        var handler: Subscriber
    }

    /// The subscriptions, and what they may hear at all.
    private struct Subscribers {
        var list: [Subscription] = []
        var nextID = 0
        /// Whether some filter has a pattern with wildcards (it may hear about any Item or Thing).
        var general = false
        /// The Item names and Thing UIDs the other patterns name.
        /// The Item names the subscribers' filters name (an Item name's hash is worked out once, so a
        /// look-up hashes nothing: the runtime asks for every Item update).
        var named: Set<ItemName> = []

        mutating func changed(_ count: borrowing Atomic<Int>, _ generation: borrowing Atomic<Int>) {
            general = list.contains { $0.filter.hasWildcardPatterns }
            named = Set(list.flatMap { $0.filter.namedIDs.compactMap { try? ItemName($0) } })
            count.store(list.count, ordering: .releasing)
            generation.add(1, ordering: .releasing)
        }
    }

    private let subscriptions = Mutex(Subscribers())
    /// The number of subscriptions, readable without the lock (see ``hasSubscribers``).
    private let subscriberCount = Atomic<Int>(0)
    /// The number of events published.
    private let published = Atomic<Int>(0)
    /// Counts changes of the subscriptions (see ``subscriptionGeneration``).
    private let generation = Atomic<Int>(0)
    /// Where deliveries are scheduled.
    private let scheduler: any SimulationScheduler

    /// How many events have been published.
    public var publishedCount: Int { published.load(ordering: .acquiring) }

    /// An empty bus that delivers on `scheduler` (the simulation kernel).
    public init(scheduler: any SimulationScheduler) {
        self.scheduler = scheduler
    }

    /// Subscribes `handler` to events matching `filter`; later subscribers hear each event after
    /// earlier ones. It hears events delivered from now on, including ones published before but
    /// not yet delivered.
    @discardableResult
    public func subscribe(_ filter: EventFilter = .all, _ handler: @escaping Subscriber) -> SubscriptionID {
        subscriptions.withLock { state in
            let id = SubscriptionID(rawValue: state.nextID)
            state.nextID += 1
            state.list.append(Subscription(id: id, filter: filter, handler: handler))
            state.changed(subscriberCount, generation)
            return id
        }
    }

    /// Removes every subscriber (a finished world's; their handlers capture the subscribers).
    public func unsubscribeAll() {
        let dropped = subscriptions.withLock { state -> [Subscription] in
            defer {
                state.list.removeAll()
                state.changed(subscriberCount, generation)
            }
            return state.list
        }
        _ = dropped  // released here, outside the lock
    }

    /// Ends a subscription; events not yet delivered no longer reach it.
    public func unsubscribe(_ id: SubscriptionID) {
        subscriptions.withLock { state in
            state.list.removeAll { $0.id == id }
            state.changed(subscriberCount, generation)
        }
    }

    /// Publishes `event`: counts it and, if anybody listens, schedules its delivery at the current instant.
    public func publish(_ event: OpenHABEvent) {
        published.add(1, ordering: .relaxed)
        guard hasSubscribers, subscriptions.withLock({ $0.list.contains { $0.filter.matches(event) } }) else { return }
        scheduler.schedule(after: .zero, label: "event delivery") { [self] _ in await deliver(event) }
    }

    /// Delivers `event` to each subscriber that matches it at this moment, in order, awaiting each.
    private func deliver(_ event: OpenHABEvent) async {
        let targets = subscriptions.withLock { $0.list }  // a subscriber added during delivery hears the next event
        for subscription in targets where subscription.filter.matches(event) {
            await subscription.handler(event)
        }
    }

    /// Whether anybody subscribed, read without the lock: publishers that would build several
    /// events for nobody skip them and call ``countUnheard(_:)``.
    var hasSubscribers: Bool { subscriberCount.load(ordering: .acquiring) > 0 }

    /// A number that changes whenever a subscription is added or removed, read without the lock: a publisher
    /// that keeps ``hasSubscribers`` and ``mayHear(about:)`` answers for its Items asks them again once it moved.
    var subscriptionGeneration: Int { generation.load(ordering: .acquiring) }

    /// Whether some subscriber may hear an event about the Item `name`: one with a wildcard pattern,
    /// or one naming it. Publishers skip building events nobody can hear (a run with reports listens
    /// to its power Items only) and call ``countUnheard(_:)``.
    func mayHear(about name: ItemName) -> Bool {
        subscriptions.withLock { $0.general || $0.named.contains(name) }
    }

    /// Counts `count` events published while ``hasSubscribers`` is `false`, as ``publish(_:)`` would.
    func countUnheard(_ count: Int) {
        published.add(count, ordering: .relaxed)
    }
}
