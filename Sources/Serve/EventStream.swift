import Simulation
import SmartHome
import Synchronization
import Twin

/// One client's `GET /rest/events`: the bus events whose topic passes its filter, as openHAB's
/// Server-Sent Events, plus an `alive` event every ``TwinServer/Configuration/aliveInterval`` of wall time.
///
/// The subscription is made on the simulation (through `submit`), so a client sees every event
/// published after its request entered the event order, in bus order. The bus hands each event
/// to a bounded buffer and never waits: when a client reads so slowly that
/// ``TwinServer/Configuration/eventBufferLimit`` messages are waiting, its stream ends (the client
/// is disconnected after what was buffered) and the simulation goes on.
enum EventStream {
    /// openHAB's keep-alive event.
    static let aliveFrame = Array("event: alive\ndata: {\"type\":\"ALIVE\",\"interval\":10}\n\n".utf8)

    /// `event: message` / `data: {"topic","payload","type"}` / blank line.
    static func frame(_ event: OpenHABEvent) -> [UInt8] {
        Array("event: message\ndata: \(event.serverSentEventData)\n\n".utf8)
    }

    /// Subscribes on the simulation and returns the stream of frames; it ends when the client goes
    /// away, reads too slowly, or the server stops (which ends the subscription and the alive timer).
    static func open(bus: EventBus, world: World, filter: SSETopicFilter, bufferLimit: Int,
                     aliveInterval: Duration, counters: ServeCounters) async -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingOldest(max(1, bufferLimit)))
        let subscription = Mutex<(id: EventBus.SubscriptionID?, ended: Bool)>((nil, false))
        // wall-clock: openHAB's keep-alive every 10 s of wall time; it only writes to this client's stream, never to the simulation
        let alive = Task {  // wall-clock: the keep-alive loop below, outside the simulation
            while !Task.isCancelled {
                do { try await Task.sleep(for: aliveInterval) } catch { return }  // wall-clock: the keep-alive period
                if case .terminated = continuation.yield(aliveFrame) { return }
            }
        }
        continuation.onTermination = { _ in
            alive.cancel()
            let id = subscription.withLock { state in
                state.ended = true
                return state.id.take()
            }
            if let id { bus.unsubscribe(id) }
        }
        let id = await world.submit {
            bus.subscribe(.all) { event in
                let topic = event.topic
                guard filter.matches(topic) else { return }
                switch continuation.yield(frame(event)) {
                case .enqueued: counters.eventStreamed()
                case .dropped:
                    counters.slowClientDropped()
                    continuation.finish()  // a slow client: end its stream, never wait for its socket
                case .terminated: break
                @unknown default: break
                }
            }
        }
        let endedAlready = subscription.withLock { state -> Bool in
            if !state.ended { state.id = id }
            return state.ended
        }
        if endedAlready { bus.unsubscribe(id) }
        return stream
    }
}
