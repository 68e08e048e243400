import Foundation
import HTTPServer
import ScenarioFormat
import Simulation
import SmartHome
import Synchronization

/// openHAB's Item state tracker (`SseResource.getStateEvents` / `updateTrackedItems`), as Main UI
/// uses it for live widgets:
///
/// 1. `GET /rest/events/states` opens a Server-Sent Events stream whose first event is
///    `id: 0`, `event: ready`, `data: <connectionId>`.
/// 2. `POST /rest/events/states/{connectionId}` with a JSON list of Item names sets the tracked
///    Items and sends their states at once (`404` for an unknown connection).
/// 3. Every `ItemStateChangedEvent` of a tracked Item sends its state again.
///
/// A state event's data is a JSON object by Item name of openHAB's `StateDTO`: `state`, `numericState`
/// (decimals, percentages and quantities, as a float), `unit` (quantities), `type` (the state's type name);
/// `displayState` is left out (the twin formats no state patterns, so it would equal `state`).
/// Connection ids count up from 1 in the form of a UUID, so a manual-clock session repeats byte for byte.
/// The stream is bounded like `/rest/events`: a client that stops reading is dropped, the bus never waits.
final class ItemStateTrackers: Sendable {
    private final class Tracker: Sendable {
        let continuation: AsyncStream<[UInt8]>.Continuation
        let items = Mutex<Set<String>>([])
        init(_ continuation: AsyncStream<[UInt8]>.Continuation) { self.continuation = continuation }
    }

    private let trackers = Mutex<(next: Int, byID: [String: Tracker])>((1, [:]))

    /// `GET /rest/events/states`.
    func open(router: ServeRouter) async -> HTTPResponse {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingOldest(max(1, router.eventBufferLimit)))
        let tracker = Tracker(continuation)
        let id = trackers.withLock { state -> String in
            let number = state.next
            state.next += 1
            let digits = String(number, radix: 16)
            let id = "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
            state.byID[id] = tracker
            return id
        }
        let bus = router.world.eventBus
        let counters = router.counters
        let subscription = Mutex<(id: EventBus.SubscriptionID?, ended: Bool)>((nil, false))
        continuation.onTermination = { [self] _ in
            _ = trackers.withLock { $0.byID.removeValue(forKey: id) }
            let subscribed = subscription.withLock { state in
                state.ended = true
                return state.id.take()
            }
            if let subscribed { bus.unsubscribe(subscribed) }
        }
        continuation.yield(Array("id: 0\nevent: ready\ndata: \(id)\n\n".utf8))
        let subscribed = await router.world.submit {
            bus.subscribe(.all) { event in
                guard case .itemStateChanged(let name, let state, _, _, _) = event.kind,
                      tracker.items.withLock({ $0.contains(name.rawValue) }) else { return }
                switch continuation.yield(Self.frame([(name.rawValue, state)])) {
                case .enqueued: counters.eventStreamed()
                case .dropped:
                    counters.slowClientDropped()
                    continuation.finish()
                default: break
                }
            }
        }
        let endedAlready = subscription.withLock { state -> Bool in
            if !state.ended { state.id = subscribed }
            return state.ended
        }
        if endedAlready { bus.unsubscribe(subscribed) }
        return .eventStream(stream)
    }

    /// `POST /rest/events/states/{connectionId}` with a JSON list of Item names.
    func update(_ connectionID: String, body: [UInt8], router: ServeRouter) async -> HTTPResponse {
        guard let tracker = trackers.withLock({ $0.byID[connectionID] }) else {
            return HTTPResponse(status: 404)  // openHAB: Response.status(NOT_FOUND), no body
        }
        let names: [String]
        if body.isEmpty {
            names = []
        } else {
            guard let list = (try? JSONParser.parse(bytes: body))?.elements else {
                return ServeRouter.failure(ServeError(.badRequest, "The body of POST /rest/events/states/{connectionId} is a JSON list of Item names, such as [\"kiez_heating_setpoint\"]."))
            }
            names = list.compactMap(\.stringValue)
        }
        let tracked = Set(names)
        tracker.items.withLock { $0 = tracked }
        let world = router.world
        let states: [(String, State)] = await world.submit {
            var found: [(String, State)] = []
            for name in tracked.sorted() {
                if let itemName = try? ItemName(name), let item = await world.item(itemName) { found.append((name, item.state)) }
            }
            return found
        }
        if !states.isEmpty { tracker.continuation.yield(Self.frame(states)) }
        return HTTPResponse(status: 200)
    }

    /// `data: {"Item":{"state":…,"numericState":…,"unit":…,"type":…},…}` and a blank line.
    static func frame(_ states: [(String, State)]) -> [UInt8] {
        let members = states.map { name, state -> (key: String, value: String) in
            var fields = "{\"state\":\(JSONString.quoted(state.description))"
            switch state {
            case .decimal(let number), .percent(let number):
                fields += ",\"numericState\":\(Float(number.value).description)"
            case .quantity(let quantity):
                fields += ",\"numericState\":\(Float(quantity.value).description),\"unit\":\(JSONString.quoted(quantity.unit.symbol))"
            default:
                break
            }
            return (name, fields + ",\"type\":\(JSONString.quoted(state.typeName))}")
        }
        let object = "{" + members.map { "\(JSONString.quoted($0.key)):\($0.value)" }.joined(separator: ",") + "}"
        return Array("data: \(object)\n\n".utf8)
    }
}
