import Booking
import Foundation
import Reports
import Rules
import ScenarioFormat
import Simulation
import SmartHome
import Weather

/// The twin's front door. Callers (the runner, `serve`, the command line) act on a world and read it only
/// through these members; its parts — kernel, openHAB runtime, booking services, zones, devices — are
/// `@_spi(TwinParts)`, which only `TwinTesting` (the lower layers' test worlds) imports.
extension World {
    /// Told after each simulated day of a run: the fraction of the scenario's span done (0…1) and the
    /// local date-time reached. Called on the simulation task; it must return quickly.
    public typealias Progress = @Sendable (_ fractionDone: Double, _ reached: String) -> Void

    // MARK: Virtual time

    /// The virtual instant now.
    public var now: SimInstant { kernel.now }
    /// Kernel events handled so far.
    public var eventsProcessed: Int { kernel.eventsProcessed }
    /// The instant of the next event due, if any.
    public var nextEventTime: SimInstant? { kernel.nextEventTime }

    /// Runs the world's events up to `end` (virtual time), at most `eventLimit` of them.
    public func advance(until end: SimInstant, eventLimit: Int? = nil) async throws(SimulationError) {
        try await kernel.run(until: end, eventLimit: eventLimit)
    }

    /// Moves a live run's manual clock to `target`; returns the events fired.
    public func advance(to target: SimInstant) async throws(SimulationError) -> Int { try await kernel.advance(to: target) }

    /// Runs the world live in `mode` until ``stop()``.
    public func runLive(_ mode: SimulationKernel.LiveMode) async throws(SimulationError) { try await kernel.run(mode) }

    /// Ends a live run once the event it is running returns.
    public func stop() { kernel.stop() }

    /// Runs `work` on the simulation at the current instant, behind what is queued there (outside work: a
    /// request, a look at the result); see `SimulationKernel.submit(order:_:)`.
    @discardableResult
    public func submit<T: Sendable, E: Error>(order: Int = 0, _ work: @escaping @Sendable () async throws(E) -> T) async throws(E) -> T {
        try await kernel.submit(order: order, work)
    }

    /// Schedules `handler` at `time` on the world's clock (the runner's checkpoints).
    @discardableResult
    public func schedule(at time: SimInstant, label: String, _ handler: @escaping SimulationKernel.Handler) -> TimerID {
        kernel.schedule(at: time, label: label, handler)
    }

    /// Schedules a chain of firings from `first`, each asking `next` for the one after (the runner's timeline).
    @discardableResult
    public func schedule(at first: SimInstant, then next: @escaping @Sendable (SimInstant) -> SimInstant?, label: String,
                         _ handler: @escaping SimulationKernel.Handler) -> TimerID {
        kernel.schedule(at: first, then: next, label: label, handler)
    }

    // MARK: Acting and reading as the user

    /// Sends `value` as a command to the Item of `item` (a device path `listing/device/channel` or an Item name).
    public func command(_ item: String, _ value: String) async throws(SmartHomeError) {
        _ = try await api.sendCommand(World.itemName(item), value)
    }

    /// Posts `state` to the Item of `item`.
    public func update(_ item: String, _ state: String) async throws(SmartHomeError) {
        _ = try await api.updateState(World.itemName(item), state)
    }

    /// The state text of the Item of `item`, as `GET /rest/items/{name}/state` answers; `error <code>` when
    /// there is none.
    public func itemState(_ item: String) async -> String {
        do { return try await api.getItemState(World.itemName(item)).body } catch { return "error \(error.code.rawValue)" }
    }

    /// The status of reservation `id` (`confirmed`, `checkedIn`, …).
    public func reservationStatus(_ id: String) async throws(BookingError) -> String {
        try await services.reservations.reservation(ReservationID(id)).status.rawValue
    }

    // MARK: Meters, rules and the outbox

    /// The energy ledger of exact meter snapshots.
    public var ledger: EnergyLedger { meters.ledger }
    /// What the run gathered for its reports besides the ledger (`nil` without timeseries recording).
    public var recordedReports: RecordedReports? { meters.reports }
    /// Bus events published so far.
    public var busEventsPublished: Int { runtime.events.publishedCount }
    /// Events the ``Options/observesEveryBusEvent`` listener received (`nil` without it).
    public var observedBusEventCount: Int? { observedBusEvents?.value }
    /// What the built-in automations and calendar syncs did, in time order.
    public var automationLog: [AutomationLogEntry] { automations.log.entries }
    /// The rule runs the engine keeps for the log.
    public var ruleRuns: [RuleRun] { rules.runs }
    /// Runs of users' rules so far, every one the log shows or counts (``ruleRuns`` keeps the first 5,000 of each rule).
    public var ruleRunCount: Int { rules.loggedRunCount }
    /// Runs of rule `uidOrName` whose conditions held, in `[from, to)`.
    public func ruleRunCount(of uidOrName: String, from: SimInstant?, to: SimInstant?) -> Int {
        rules.runCount(of: uidOrName, from: from, to: to)
    }
    /// The coverage of the scenario's rule files so far, one entry per file (`nil` unless
    /// ``Options/countsRuleCoverage``).
    /// A JavaScript file's lines are counted by its Node.js child (asked here, the totals so far).
    public var ruleCoverage: [RuleFileCoverage]? {
        guard let coverage = rules.coverage else { return nil }
        var scriptLines: [String: [Int: Int]] = [:]
        if let javaScript, let counted = javaScript.lineCoverage() {
            // The child names a file by its path under the scenario's folder; the scenario, as resolved against its directory.
            let byAbsolute = Dictionary(counted.map { ("\(javaScript.setup.root)/\($0.path)", $0.lines) }, uniquingKeysWith: { first, _ in first })
            for file in scenario.ruleFiles {
                if let lines = byAbsolute[URL(fileURLWithPath: file).standardizedFileURL.path] { scriptLines[file] = lines }
            }
        }
        return coverage.files(rules: scenario.rules, ruleFiles: scenario.ruleFiles, scriptLines: scriptLines)
    }
    /// What rules sent (notifications, mail, HTTP, …), in order.
    public var outbox: [OutboxMessage] { rules.outbox }
    /// Messages the full outbox could not keep.
    public var outboxDropped: Int { rules.outboxDropped }
    /// The outbox messages of `channel` matching the filters, sent in `[from, to)`.
    public func outboxCount(_ channel: OutboxMessage.Channel, contains: String?, text: String?, recipient: String?, rule: String?,
                            from: SimInstant?, to: SimInstant?, scope: String? = nil, method: String? = nil, arguments: [String]? = nil) -> Int {
        rules.outboxCount(channel, contains: contains, text: text, recipient: recipient, rule: rule, from: from, to: to,
                          scope: scope, method: method, arguments: arguments)
    }

    // MARK: Named accessors for `serve`, one job each

    /// The openHAB event bus, for a server's subscribers (SSE, WebSocket).
    public var eventBus: EventBus { runtime.events }
    /// The Item `name` as the registry holds it now.
    public func item(_ name: ItemName) async -> Item? { await runtime.items.item(name) }
    /// openHAB's REST API over bytes on this world, for a server at `baseURL`.
    public func openHABRouter(baseURL: String, policy: OpenHABAccessPolicy) -> OpenHABRouter {
        OpenHABRouter(runtime: runtime, baseURL: baseURL, policy: policy)
    }
    /// openHAB's REST-shaped API on this world, as a client with `credentials` (a WebSocket's commands).
    public func openHABAPI(baseURL: String, policy: OpenHABAccessPolicy, credentials: OpenHABCredentials) -> InProcessOpenHABAPI {
        InProcessOpenHABAPI(runtime: runtime, baseURL: baseURL, policy: policy, credentials: credentials)
    }
    /// `GET/POST /rest/rules…` on this world's rule engine.
    public func ruleRouter(policy: OpenHABAccessPolicy) -> RuleRESTRouter { RuleRESTRouter(engine: rules, policy: policy) }
    /// The fake OpenWeatherMap's answer to `target` (path and query) now.
    public func weatherResponse(toTarget target: String) -> FeedResponse { feed.respond(toTarget: target, at: kernel.now) }
    /// The persistence service's store (`/rest/persistence`).
    public var persistenceStore: PersistenceStore { persistence }
    /// The `.persist` files' services by id (`rrd4j`, `mapdb`, …); empty without `.persist` files.
    public var persistenceServiceStores: [String: PersistenceStore] { persistenceServices }
    /// The booking services (the booking API's users, listings, reservations, conversations, ratings).
    public var bookingServices: BookingServices { services }
    /// The home service (the booking API's devices and locks).
    public var homeService: HomeService { home }
}
