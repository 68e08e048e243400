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

    private let subscriptions = Mutex<(list: [Subscription], nextID: Int)>(([], 0))
    /// The number of subscriptions, readable without the lock (see ``hasSubscribers``).
    private let subscriberCount = Atomic<Int>(0)
    /// The number of events published.
    private let published = Atomic<Int>(0)
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
            subscriberCount.store(state.list.count, ordering: .releasing)
            return id
        }
    }

    /// Ends a subscription; events not yet delivered no longer reach it.
    /// Removes every subscriber (a finished world's; their handlers capture the subscribers).
    public func unsubscribeAll() {
        let dropped = subscriptions.withLock { state -> [Subscription] in
            defer {
                state.list.removeAll()
                subscriberCount.store(0, ordering: .releasing)
            }
            return state.list
        }
        _ = dropped  // released here, outside the lock
    }

    public func unsubscribe(_ id: SubscriptionID) {
        subscriptions.withLock { state in
            state.list.removeAll { $0.id == id }
            subscriberCount.store(state.list.count, ordering: .releasing)
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

    /// Counts `count` events published while ``hasSubscribers`` is `false`, as ``publish(_:)`` would.
    func countUnheard(_ count: Int) {
        published.add(count, ordering: .relaxed)
    }
}
