import Foundation
import HTTPServer
import ScenarioFormat
import Simulation
import SmartHome
import Synchronization

/// openHAB's event WebSocket, `/ws` (openHAB 4.1+, bundle `org.openhab.core.io.websocket`):
/// the bus's events out as `EventDTO` JSON, and Item commands and updates in.
///
/// As `EventWebSocket.onText` answers:
/// - `{"type":"ItemCommandEvent","topic":"openhab/items/X/command","payload":"{\"type\":\"Decimal\",\"value\":\"21\"}","eventId":"1"}`
///   (or `ItemStateEvent` on `…/state`) sends the command (posts the update), then answers
///   `openhab/websocket/response/success` with the same `eventId` — nothing when it had none;
///   a wrong topic, an unknown Item or a type the Item does not accept answers `…/response/failed`.
/// - `WebSocketEvent` on `openhab/websocket/heartbeat` with `PING` answers `PONG`;
///   on `…/filter/type`, `…/filter/source`, `…/filter/topic` (a JSON list; topics with `*`
///   wildcards or regular expressions, `!` excluding) sets that filter and echoes the payload.
/// - Anything else answers `…/response/failed` with the reason.
///
/// Events go out, in bus order, when their source is not in the source filter, their type is in
/// the type filter (if set) and their topic passes the topic filters. The bus hands them to a
/// bounded outbox and never waits: a client that lets the outbox fill is dropped (close 1008).
/// The access token comes from the usual headers, `?accessToken=` (a token, or Basic credentials
/// in base64), or the `Sec-WebSocket-Protocol` entry `org.openhab.ws.accessToken.base64.<base64>`.
final class EventWebSocket: Sendable {
    static let eventType = "WebSocketEvent"
    static let topicPrefix = "openhab/websocket/"

    private struct Filters {
        var types: [String] = []
        var sources: [String] = []
        var include: TopicPatterns?
        var exclude: TopicPatterns?
    }

    let outbox: WebSocketOutbox
    private let filters = Mutex(Filters())
    private let router: ServeRouter
    private let credentials: OpenHABCredentials
    private let baseURL: String

    private init(router: ServeRouter, credentials: OpenHABCredentials, baseURL: String) {
        self.router = router
        self.credentials = credentials
        self.baseURL = baseURL
        outbox = WebSocketOutbox(limit: router.eventBufferLimit)
    }

    /// The handshake's answer for `/ws` (and `/ws/events`, its adapter's own path).
    static func open(_ request: HTTPRequest, router: ServeRouter) async -> HTTPResponse {
        guard ["/ws", "/ws/", "/ws/events"].contains(request.path) else {
            return ServeRouter.failure(ServeError(.notFound, "There is no WebSocket adapter at \(request.path); openHAB's event WebSocket is /ws."))
        }
        var credentials = ServeRouter.credentials(request)
        var subprotocol: String?
        if let offered = request.headers["Sec-WebSocket-Protocol"] {
            // CommonWebSocketServlet: answer the default protocol; the token rides base64 in the offered list.
            subprotocol = "org.openhab.ws.protocol.default"
            let prefix = "org.openhab.ws.accessToken.base64."
            if let entry = offered.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }).first(where: { $0.hasPrefix(prefix) }) {
                guard let data = Data(base64Encoded: String(entry.dropFirst(prefix.count))) else {
                    return ServeRouter.failure(ServeError(.badRequest, "The access token in Sec-WebSocket-Protocol is not base64."))
                }
                credentials = OpenHABCredentials(openHABToken: String(decoding: data, as: UTF8.self))
            }
        }
        if let token = credentials.openHABToken, router.policy.tokens[token] == nil,
           let decoded = Data(base64Encoded: token).map({ String(decoding: $0, as: UTF8.self) }), decoded.contains(":") {
            // `?accessToken=` may carry Basic credentials, base64("user:password"); the token is the user name.
            credentials = OpenHABCredentials(openHABToken: ServeRouter.basicUser("Basic " + token))
        }
        do throws(SmartHomeError) {
            try router.policy.authorize(credentials, needs: .user)
        } catch {
            return HTTPResponse(status: error.httpStatus.rawValue, headers: ["Content-Type": "application/json"],
                                body: Array((error.responseBody ?? "").utf8))
        }
        let socket = EventWebSocket(router: router, credentials: credentials, baseURL: ServeRouter.baseURL(request))
        let session = WebSocketSession(subprotocol: subprotocol, outbox: socket.outbox, limits: router.webSocketLimits,
                                       onText: { text in await socket.receive(text) },
                                       onClose: { [counters = router.counters] _ in
                                           // Counted once, when the connection ends: an outbox that overflowed or a write that timed out.
                                           if socket.outbox.droppedAsSlowReader { counters.slowClientDropped() }
                                           socket.end()
                                       })
        let response = WebSocketHandshake.response(to: request, session: session)
        guard response.status == 101 else { return response }
        await socket.subscribe()
        return response
    }

    // MARK: Events out

    private func subscribe() async {
        let hub = router.webSocketHub
        let bus = router.world.eventBus
        let counters = router.counters
        // Joined on the simulation: the client sees every event published after its request entered the event order.
        await router.world.submit { [self] in hub.add(self, bus: bus, counters: counters) }
    }

    /// Queues an event's text if it passes this connection's filters; counts it.
    func deliver(_ event: OpenHABEvent, text: String, counters: ServeCounters) {
        guard passes(event) else { return }
        if outbox.send(text) { counters.eventStreamed() }
    }

    /// Whether `event` passes this connection's filters (`EventWebSocket.processEvent`; the twin's events carry no source).
    private func passes(_ event: OpenHABEvent) -> Bool {
        let filters = filters.withLock { $0 }
        if !filters.types.isEmpty && !filters.types.contains(event.type) { return false }
        let topic = event.topic
        if let include = filters.include, !include.matches(topic) { return false }
        if let exclude = filters.exclude, exclude.matches(topic) { return false }
        return true
    }

    private func end() {
        router.webSocketHub.remove(self)
    }

    // MARK: Messages in

    /// One text message from the client, answered as `EventWebSocket.onText` does.
    func receive(_ text: String) async {
        guard let object = try? JSONParser.parse(text), object.members != nil else {
            reply(topic: "response/failed", payload: "Deserialization error: the message is not a JSON object", eventId: nil)
            return
        }
        let string = { (key: String) in object[key]?.stringValue }
        let eventId = string("eventId")
        do throws(EventProcessingError) {
            guard let type = string("type") else { throw EventProcessingError("Event type must not be null.") }
            switch type {
            case "ItemCommandEvent", "ItemStateEvent":
                try await itemEvent(command: type == "ItemCommandEvent", topic: string("topic"), payload: string("payload"))
                if let eventId { reply(topic: "response/success", payload: "", eventId: eventId) }
            case Self.eventType:
                let topic = string("topic") ?? ""
                let payload = string("payload")
                if topic == Self.topicPrefix + "heartbeat" && payload == "PING" {
                    reply(topic: "heartbeat", payload: "PONG", eventId: eventId)
                } else if topic == Self.topicPrefix + "filter/type" || topic == Self.topicPrefix + "filter/source" {
                    let list = try Self.stringList(payload)
                    filters.withLock { if topic.hasSuffix("type") { $0.types = list } else { $0.sources = list } }
                    reply(topic: String(topic.dropFirst(Self.topicPrefix.count)), payload: payload, eventId: eventId)
                } else if topic == Self.topicPrefix + "filter/topic" {
                    let list = try Self.stringList(payload)
                    let include = try TopicPatterns(list.filter { !$0.hasPrefix("!") })
                    let exclude = try TopicPatterns(list.filter { $0.hasPrefix("!") }.map { String($0.dropFirst()) })
                    if include != nil || exclude != nil {
                        filters.withLock {
                            $0.include = include
                            $0.exclude = exclude
                        }
                    }
                    reply(topic: "filter/topic", payload: payload, eventId: eventId)
                } else {
                    throw EventProcessingError("Invalid topic or payload in WebSocketEvent")
                }
            default:
                throw EventProcessingError("Unknown event type '\(type)'")
            }
        } catch {
            reply(topic: "response/failed", payload: "Processing error: \(error.message)", eventId: eventId)  // none when the client sent none (Gson omits null)
        }
    }

    /// `ItemEventUtility.createCommandEvent` / `createStateEvent`, then the command or update through the twin's REST logic.
    private func itemEvent(command: Bool, topic: String?, payload: String?) async throws(EventProcessingError) {
        guard let topic else { throw EventProcessingError("Topic must not be null") }
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[0] == "openhab", parts[1] == "items", Self.isWord(parts[2]), Self.isWord(parts[3]) else {
            throw EventProcessingError("Topic must follow the format {namespace}/{entityType}/{entity}/{action}.")
        }
        guard parts[3] == (command ? "command" : "state") else { throw EventProcessingError("Topic does not match event type.") }
        guard let bean = payload.flatMap({ try? JSONParser.parse($0) }),
              let valueType = bean["type"]?.stringValue, let value = bean["value"]?.stringValue else {
            throw EventProcessingError("Failed to deserialize payload '\(payload ?? "null")'.")
        }
        let name = parts[2]
        let world = router.world
        let api = world.openHABAPI(baseURL: baseURL, policy: router.policy, credentials: credentials)
        let failure: String? = await world.submit {
            guard let itemName = try? ItemName(name), let item = await world.item(itemName) else {
                return "Could not find item '\(name)' in registry."
            }
            guard Self.accepts(item.type, valueType, command: command) else { return "Incompatible datatype, rejected." }
            do throws(SmartHomeError) {
                if command { _ = try await api.sendCommand(name, value) } else { _ = try await api.updateState(name, value) }
                return nil
            } catch {
                return "Error parsing simpleClassName '\(valueType)Type' with value '\(value)': \(error.message)"
            }
        }
        if let failure { throw EventProcessingError(failure) }
    }

    /// Whether an Item of `type` accepts a command (or state) of openHAB type `valueType` (`Item.getAcceptedCommandTypes`/`getAcceptedDataTypes`).
    static func accepts(_ type: ItemType, _ valueType: String, command: Bool) -> Bool {
        let accepted: Set<String> = switch type {
        case .switchItem: ["OnOff"]
        case .contactItem: command ? [] : ["OpenClosed"]
        case .numberItem: ["Decimal", "Quantity"]
        case .stringItem: ["String"]
        case .dimmerItem: command ? ["Percent", "OnOff", "IncreaseDecrease"] : ["Percent", "OnOff"]
        case .dateTimeItem: ["DateTime"]
        case .groupItem: ["OnOff", "OpenClosed", "Decimal", "Quantity", "String", "Percent", "DateTime", "IncreaseDecrease"]
        case .rollershutterItem: command ? ["UpDown", "StopMove", "Percent"] : ["Percent", "UpDown"]
        case .colorItem: command ? ["HSB", "OnOff", "Percent", "IncreaseDecrease"] : ["HSB", "OnOff", "Percent"]
        case .locationItem: ["Point"]
        case .playerItem: command ? ["PlayPause", "RewindFastforward", "NextPrevious"] : ["PlayPause", "RewindFastforward"]
        case .callItem: command ? [] : ["StringList"]
        case .imageItem: command ? [] : ["Raw"]
        }
        return accepted.contains(valueType) || (command ? valueType == "Refresh" : valueType == "UnDef")
    }

    private func reply(topic: String, payload: String?, eventId: String?) {
        var members = [("type", Self.eventType), ("topic", Self.topicPrefix + topic)]
        if let payload { members.append(("payload", payload)) }
        if let eventId { members.append(("eventId", eventId)) }
        outbox.send(JSONString.object(members))
    }

    private static func stringList(_ payload: String?) throws(EventProcessingError) -> [String] {
        guard let payload else { return [] }
        guard let list = (try? JSONParser.parse(payload))?.elements else {
            throw EventProcessingError("Expected a JSON list of strings, not \(payload.prefix(80))")
        }
        return list.compactMap(\.stringValue)
    }

    private static func isWord(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}

/// Every `/ws` connection of one server behind one bus subscription: each event's JSON is written
/// once and handed to the connections whose filters it passes (500 clients cost one encoding, not 500).
final class EventWebSocketHub: Sendable {
    private struct State {
        var subscribed = false
        var members: [ObjectIdentifier: EventWebSocket] = [:]
        /// Connections that ended before they joined (their join is then skipped).
        var gone: Set<ObjectIdentifier> = []
    }

    private let state = Mutex(State())

    /// Adds a connection, subscribing to `bus` with the first; called on the simulation.
    func add(_ socket: EventWebSocket, bus: EventBus, counters: ServeCounters) {
        let id = ObjectIdentifier(socket)
        let subscribe = state.withLock { state -> Bool in
            if state.gone.remove(id) == nil { state.members[id] = socket }
            defer { state.subscribed = true }
            return !state.subscribed
        }
        guard subscribe else { return }
        bus.subscribe(.all) { [self] event in
            let members = state.withLock { Array($0.members.values) }
            guard !members.isEmpty else { return }
            let text = JSONString.object([("type", event.type), ("topic", event.topic), ("payload", event.payload)])
            for member in members { member.deliver(event, text: text, counters: counters) }
        }
    }

    /// Removes a connection that ended.
    func remove(_ socket: EventWebSocket) {
        let id = ObjectIdentifier(socket)
        state.withLock { state in
            if state.members.removeValue(forKey: id) == nil { state.gone.insert(id) }
        }
    }
}

/// A processing failure, answered as `openhab/websocket/response/failed` (openHAB's `EventProcessingException`).
struct EventProcessingError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Topic expressions of the WebSocket's topic filter (`TopicFilterMapper`): a plain topic with `*`
/// wildcards, else a regular expression; a topic passes when any expression matches all of it.
struct TopicPatterns: Sendable {
    private let globs: [[UInt8]]
    private let expressions: [String]

    /// `nil` for no expressions. - Throws: for an expression that is neither a topic nor a regular expression.
    init?(_ topics: [String]) throws(EventProcessingError) {
        guard !topics.isEmpty else { return nil }
        var globs: [[UInt8]] = [], expressions: [String] = []
        for topic in topics {
            let trimmed = topic.trimmingCharacters(in: .whitespaces)
            if trimmed.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_*/:-".unicodeScalars.contains($0)) }) {
                globs.append(Array(trimmed.utf8))
            } else {
                guard (try? NSRegularExpression(pattern: topic)) != nil else {
                    throw EventProcessingError("Invalid topic expression in topic filter WebSocketEvent")
                }
                expressions.append(topic)
            }
        }
        self.globs = globs
        self.expressions = expressions
    }

    func matches(_ topic: String) -> Bool {
        let text = Array(topic.utf8)
        if globs.contains(where: { SSETopicFilter.glob($0, text) }) { return true }
        return expressions.contains { pattern in
            guard let expression = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$") else { return false }
            return expression.firstMatch(in: topic, range: NSRange(topic.startIndex..., in: topic)) != nil
        }
    }
}
