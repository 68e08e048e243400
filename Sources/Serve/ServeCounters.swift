import Synchronization

/// What the server has done so far, for the status line: requests answered, events streamed.
public final class ServeCounters: Sendable {
    private let requests = Atomic<Int>(0)
    private let events = Atomic<Int>(0)
    private let slowClients = Atomic<Int>(0)

    /// Creates zeroed counters.
    public init() {}

    /// Requests received (any route, any outcome).
    public var requestCount: Int { requests.load(ordering: .relaxed) }
    /// Server-Sent Events messages queued for clients.
    public var eventsStreamed: Int { events.load(ordering: .relaxed) }
    /// Event streams ended because their client read too slowly.
    public var slowClientsDropped: Int { slowClients.load(ordering: .relaxed) }

    func requestReceived() { requests.add(1, ordering: .relaxed) }
    func eventStreamed() { events.add(1, ordering: .relaxed) }
    func slowClientDropped() { slowClients.add(1, ordering: .relaxed) }
}
