import Foundation
import HTTPServer
import Simulation
import SmartHome

/// openhab-core's `PersistenceResource` on the twin's one persistence service (the scenario's
/// `persistence`): `GET /rest/persistence` lists it, `GET /rest/persistence/items/{itemname}` answers an
/// `ItemHistoryDTO` (`name`, `datapoints`, `data: [{time, state}]`) of what it stored, on the virtual clock.
extension ServeRouter {
    /// The twin's service, as `PersistenceServiceDTO` names it. The store keeps what `persist` writes, so
    /// it is `Modifiable`, as openHAB calls a `ModifiablePersistenceService`.
    static let persistenceServiceID = "twin"
    /// The ids a rule or a client may use for it: the twin's, and those of openHAB's persistence add-ons
    /// (a rule's `averageSince(t, "rrd4j")` reads the same store; so does `?serviceId=rrd4j`).
    static let persistenceServiceAliases: Set<String> = [persistenceServiceID, "rrd4j", "mapdb", "influxdb", "jdbc", "jpa", "inmemory",
                                                         "mongodb", "dynamodb", "timescaledb"]

    static let persistenceRoutes: [RESTRoute<Handler>] = [
        .init(.get, "/rest/persistence", role: .administrator) { router, _ in
            let twin = #"{"id":"\#(persistenceServiceID)","label":"Rental twin persistence","type":"Modifiable"}"#
            let services = router.world.persistenceServiceStores.keys.sorted()
            guard !services.isEmpty else { return json(200, "[\(twin)]") }
            // The `.persist` files' services, and the scenario's `persistence` as one more.
            var entries = services.map { #"{"id":\#(JSONString.quoted($0)),"label":\#(JSONString.quoted($0)),"type":"Modifiable"}"# }
            if router.run.scenario.persistence != nil { entries.append(twin) }
            return json(200, "[\(entries.joined(separator: ","))]")
        },
        .init(.get, "/rest/persistence/items/{itemname}", role: .user) { router, request in await router.itemHistory(request) },
    ]

    /// `ItemHistoryDTO` of `{itemname}`: `starttime`/`endtime` in any `DateTimeType` form (`endtime` defaults
    /// to now, `starttime` to a local day before `endtime`, also when it is not before `endtime`), `page` and
    /// `pagelength` (0: everything), `boundary` (the state before the start and after the end, at those
    /// instants). States are ascending; an On/Off or Open/Closed state is preceded by the previous state at
    /// its instant (openHAB's "avoid diagonal lines"), and a number loses its unit (`DecimalType`/`QuantityType`
    /// as `BigDecimal.toString`).
    func itemHistory(_ request: OpenHABRequest) async -> HTTPResponse {
        let services = world.persistenceServiceStores
        var chosen = world.persistenceStore
        if let service = request.query["serviceId"] {
            if let store = services[service] {
                chosen = store
            } else if !Self.persistenceServiceAliases.contains(service) || (!services.isEmpty && run.scenario.persistence == nil) {
                // With `.persist` files only their services (and the scenario's `persistence`, if any) answer.
                return Self.openHABError(400, "Persistence service not queryable: \(service)")
            }
        }
        let name = request[parameter: "itemname"]
        let calendar = run.scenario.calendar
        func time(_ key: String) -> (SimInstant?, HTTPResponse?) {
            guard let text = request.query[key], !text.isEmpty else { return (nil, nil) }
            guard let value = DateTimeValue(parsing: text, in: calendar) else {
                return (nil, Self.openHABError(400, "\(key) \"\(text.prefix(64))\" is not a date and time openHAB reads (such as 2026-01-09T10:00:00.000+01:00)."))
            }
            return (value.instant, nil)
        }
        let (startQuery, badStart) = time("starttime")
        if let badStart { return badStart }
        let (endQuery, badEnd) = time("endtime")
        if let badEnd { return badEnd }
        func integer(_ key: String) -> Int? { request.query[key].flatMap { Int($0) } }
        if let text = request.query["pagelength"], integer("pagelength") == nil || integer("pagelength")! < 0 {
            return Self.openHABError(400, "pagelength \"\(text.prefix(32))\" is not a whole number of 0 or more.")
        }
        if let text = request.query["page"], integer("page") == nil || integer("page")! < 0 {
            return Self.openHABError(400, "page \"\(text.prefix(32))\" is not a whole number of 0 or more.")
        }
        let pageLength = integer("pagelength") ?? 0, page = integer("page") ?? 0
        let boundary = request.query["boundary"] == "true"
        let world = world
        let chosenStore = chosen
        let body: String = await world.submit {
            let end = endQuery ?? world.now
            var start = startQuery ?? Self.dayBefore(end, calendar)
            if start >= end { start = Self.dayBefore(end, calendar) }
            guard let item = try? ItemName(name) else { return Self.historyJSON(name, []) }
            var points: [(Int64, State)] = []
            let store = chosenStore
            if boundary, let before = store.persistedState(item, at: start) { points.append((start.unixMilliseconds, before.state)) }
            var entries = store.entries(item, from: start, to: end)
            if pageLength > 0 {
                let first = min(entries.count, page.multipliedReportingOverflow(by: pageLength).overflow ? entries.count : page * pageLength)
                entries = Array(entries[first..<min(entries.count, first + pageLength)])
            }
            var last: State?
            for entry in entries {
                switch entry.state {
                case .onOff, .openClosed: if let last { points.append((entry.instant.unixMilliseconds, last)) }
                default: break
                }
                points.append((entry.instant.unixMilliseconds, entry.state))
                last = entry.state
            }
            if boundary, let after = store.entries(item, from: end, to: nil).first { points.append((end.unixMilliseconds, after.state)) }
            return Self.historyJSON(name, points)
        }
        return Self.json(200, body)
    }

    private static func dayBefore(_ end: SimInstant, _ calendar: LocalCalendar) -> SimInstant {
        let local = calendar.localDateTime(at: end)
        return (try? calendar.instant(for: LocalDateTime(date: local.date.adding(days: -1), time: local.time))) ?? end - .hours(24)
    }

    private static func historyJSON(_ name: String, _ points: [(Int64, State)]) -> String {
        let data = points.map { time, state -> String in
            let text: String
            switch state {
            case .quantity(let q): text = q.number.stateText
            case .decimal(let d): text = d.stateText
            default: text = state.description
            }
            return #"{"time":\#(time),"state":\#(JSONString.quoted(text))}"#
        }
        return #"{"name":\#(JSONString.quoted(name)),"datapoints":"\#(points.count)","data":[\#(data.joined(separator: ","))]}"#
    }

    /// openHAB's `JSONResponse.createErrorResponse` body.
    static func openHABError(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, #"{"error":{"message":\#(JSONString.quoted(message)),"http-code":\#(status)}}"#)
    }
}
