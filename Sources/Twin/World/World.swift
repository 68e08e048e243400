import ScenarioFormat
import Booking
import Devices
import Foundation
import JavaScript
import Physics
import Simulation
import Rules
import SmartHome
import Weather

/// Everything a scenario runs against, built from its file: the kernel, the openHAB twin with a
/// Thing per device, a thermal zone per listing, the fake OpenWeatherMap feed, and the real booking
/// services (in-memory SQLite) with the home service, the weather service and the automations.
///
/// Build order follows the original system: Things exist first (the "physical layer"); the home
/// service then creates Items and Links for every device through the openHAB API only.
///
/// This is the one place a world is assembled: the scenario runner, the built-in `demo` and `bench`
/// scenarios and the tests of the layers below all build theirs here, from a ``Scenario`` (a file, or
/// text such as ``BuiltInScenarios`` and ``PortfolioGenerator`` write).
public final class World: Sendable {
    /// The token the booking services use towards the openHAB twin.
    public static let openHABToken = "rental-twin"
    /// The API key of the fake weather feed.
    public static let weatherAPIKey = "rental-twin-key"

    /// How to build a world beyond what its scenario says.
    public struct Options: Sendable {
        /// Record `timeseries.csv` samples at this interval (`nil`: no timeseries).
        public var recordTimeseries: SimDuration?
        /// Let the home service create every device's Items and Links (`false` leaves the Things
        /// unconfigured, for tests of the configuration itself).
        public var configuresHomes: Bool
        /// Subscribe one listener that receives every bus event (and counts it), as a rule engine or
        /// an SSE stream would; without it, events nobody listens to cost nothing (the benchmark
        /// measures both).
        public var observesEveryBusEvent: Bool
        /// Stop the run after this many kernel events (a work budget for untrusted input, such as the
        /// fuzzer's); `nil` for no limit.
        public var eventBudget: Int?
        /// Told after each simulated day of the run (a front end's progress line); `nil` for none.
        public var progress: World.Progress?
        /// How the booking services reach openHAB and the weather feed (``Seams``): bytes unless asked otherwise.
        public var seams: Seams
        /// Count what the users' rules run (`--coverage`: ``World/ruleCoverage``); off by default.
        public var countsRuleCoverage = false

        public init(recordTimeseries: SimDuration? = nil, configuresHomes: Bool = true, observesEveryBusEvent: Bool = false,
                    eventBudget: Int? = nil, progress: World.Progress? = nil, seams: Seams = .bytes) {
            self.progress = progress
            self.seams = seams
            self.recordTimeseries = recordTimeseries
            self.configuresHomes = configuresHomes
            self.observesEveryBusEvent = observesEveryBusEvent
            self.eventBudget = eventBudget
        }
    }

    /// How the booking services reach openHAB and the fake weather feed: the one switch of the typed path.
    ///
    /// Both ways give the same run, byte for byte (a test runs every example and a generated portfolio both
    /// ways and compares every output); `typed` skips the bytes for speed.
    public enum Seams: String, Sendable, CaseIterable {
        /// As a deployment talks: openHAB REST requests and answers as bytes through ``OpenHABRouter``, the
        /// feed's answers as OpenWeatherMap JSON. The default.
        case bytes
        /// In-process calls: the openHAB API served by ``InProcessOpenHABAPI`` directly (the same validation,
        /// statuses and errors the router serves), current-weather answers as the value the client would read
        /// from their JSON (``FakeFeedTransport/typed``). Rules' HTTP actions and `serve` keep their bytes.
        case typed
    }

    public let scenario: Scenario
    /// The virtual clock and event queue every part of the world runs on.
    @_spi(TwinParts) public let kernel: SimulationKernel
    /// The openHAB twin: Things, Items, Links, the event bus.
    @_spi(TwinParts) public let runtime: OpenHABRuntime
    /// The REST-shaped openHAB API the booking services use, as administrator.
    @_spi(TwinParts) public let api: InProcessOpenHABAPI
    /// The openHAB API the booking services and automations call: a REST client over the router, or with typed
    /// ``Seams`` ``api`` itself with their token.
    @_spi(TwinParts) public let bookingAPI: any OpenHABAPI
    /// The fake OpenWeatherMap feed serving every city of the scenario.
    @_spi(TwinParts) public let feed: FakeOpenWeatherMap
    /// Listing id → its thermal zone.
    @_spi(TwinParts) public let zones: [String: ThermalZone]
    /// `listing/device` → the device's Thing handler.
    @_spi(TwinParts) public let zoneDevices: [String: ZoneDeviceHandler]
    /// `listing/device` → the lock's Thing handler.
    @_spi(TwinParts) public let locks: [String: SmartLockHandler]
    /// The handlers of the `.things` files' Things, by Thing UID (no device behind them).
    @_spi(TwinParts) public let fileThings: [String: FileThingHandler]
    /// The booking database (in-memory SQLite), also the home configuration repository and lock audit log.
    @_spi(TwinParts) public let store: BookingStore
    /// Users, listings, reservations, conversations, ratings on the kernel's clock.
    @_spi(TwinParts) public let services: BookingServices
    /// The home service: Items and Links per device, access windows, locks.
    @_spi(TwinParts) public let home: HomeService
    /// The weather service over the fake feed, through the real OpenWeatherMap client.
    @_spi(TwinParts) public var weather: WeatherService { automations.weather }
    let automations: WorldAutomations
    let meters: MeterRecorder
    /// The rule engine running the scenario's `rules` (with no rules it listens to nothing).
    @_spi(TwinParts) public let rules: RuleEngine
    /// The persistence service: what `persistence` records (empty without it), for the persistence
    /// extensions (`PersistenceQueries`).
    @_spi(TwinParts) public let persistence: PersistenceStore
    /// The world's JavaScript (one Node.js child for its `.js` rule files; `nil` without them).
    @_spi(TwinParts) public let javaScript: JavaScriptSession?
    /// The stores of the `.persist` files' services, by service id (empty without them).
    @_spi(TwinParts) public let persistenceServices: [String: PersistenceStore]
    /// Events the ``Options/observesEveryBusEvent`` listener received (`nil` without it).
    let observedBusEvents: BusEventCounter?

    /// Builds the world at the scenario's start.
    /// - Throws: ``ScenarioError`` `scenario.runFailed` when a layer refuses the world (a bug or a
    ///   value the validator does not know about).
    public static func build(_ scenario: Scenario, options: Options = Options()) async throws(ScenarioError) -> World {
        do {
            return try await World(scenario, options: options)
        } catch let error as ScenarioError {
            throw error
        } catch is CancellationError {
            throw ScenarioError(.cancelled, "the run of \(scenario.name) was interrupted while its world was built; no result, nothing written.",
                                file: scenario.file)
        } catch {
            throw ScenarioError(.runFailed, "could not build the world of \(scenario.name): \(error)", file: scenario.file)
        }
    }

    private init(_ scenario: Scenario, options: Options) async throws {
        self.scenario = scenario
        let kernel = SimulationKernel(start: scenario.start)
        self.kernel = kernel
        runtime = OpenHABRuntime(scheduler: kernel, calendar: scenario.calendar)
        if options.observesEveryBusEvent {
            let counter = BusEventCounter()
            runtime.events.subscribe { _ in counter.add() }
            observedBusEvents = counter
        } else {
            observedBusEvents = nil
        }
        api = InProcessOpenHABAPI(runtime: runtime, policy: OpenHABAccessPolicy(tokens: [Self.openHABToken: .administrator]),
                                  credentials: OpenHABCredentials(openHABToken: Self.openHABToken))

        // Weather: each city's source plus every timeline `weather` step as an override from its instant.
        feed = FakeOpenWeatherMap(apiKeys: [Self.weatherAPIKey], requestsPerMinute: nil)
        var cityWeather: [String: CityWeather] = [:]
        for spec in scenario.weather { cityWeather[spec.city] = CityWeather(base: spec.source) }
        for step in scenario.timeline {
            guard case .weather(let city, let tempC, let humidity, let condition, let wind) = step.action,
                  let weather = cityWeather[city] else { continue }
            let parsed = try condition.map { name throws(WeatherError) in try WeatherCondition(name: name) }
            cityWeather[city] = try weather.overriding(from: step.at, tempC: tempC, humidity: humidity, condition: parsed,
                                                       windMps: wind, fieldPath: "\(step.path).weather")
        }
        for spec in scenario.weather {
            guard let weather = cityWeather[spec.city] else { continue }
            try feed.addCity(try scenario.feedCity(named: spec.city), weather: weather)
        }

        // The physical layer: a zone per listing, a Thing per device.
        var zones: [String: ThermalZone] = [:]
        var zoneDevices: [String: ZoneDeviceHandler] = [:]
        var locks: [String: SmartLockHandler] = [:]
        var things: [(listing: String, device: DeviceSpec, uid: ThingUID)] = []
        // One source per city, its copies shared by the city's zones (see WeatherOutdoorTemperature).
        let outdoorByCity = cityWeather.mapValues { WeatherOutdoorTemperature(weather: $0) }
        for listing in scenario.listings {
            guard let outdoor = outdoorByCity[listing.city] else { continue }
            let t = listing.thermal
            let zone = try ThermalZone(
                id: listing.id,
                configuration: try ZoneConfiguration(parameters: try ZoneParameters(uaWPerK: t.uaWPerK, capacitanceKWhPerK: t.capacitanceKWhPerK),
                                                     initialC: t.initialC, gainPerGuestW: t.gainPerGuestW, comfortC: t.comfortC),
                kernel: kernel, outdoor: outdoor)
            zones[listing.id] = zone
            for device in listing.devices {
                let key = "\(listing.id)/\(device.id)"
                let label = "\(listing.name) \(device.id)"
                let uid = try ThingUID(TwinThings.thingUID(device.kind, listing: listing.id, device: device.id))
                let zoneDevice: ZoneDeviceHandler.Kind
                switch device.kind {
                case .heating(let powerW, let setpointC, let hysteresisK):
                    zoneDevice = .thermostat(try ThermostatConfiguration(mode: .heating, powerW: powerW, setpointC: setpointC, hysteresisK: hysteresisK))
                case .cooling(let powerW, let cop, let setpointC, let hysteresisK):
                    zoneDevice = .thermostat(try ThermostatConfiguration(mode: .cooling, powerW: powerW, cop: cop, setpointC: setpointC, hysteresisK: hysteresisK))
                case .smartPlug(let loadW, let standbyW, let on):
                    zoneDevice = .smartPlug(try SmartPlugConfiguration(loadW: loadW, standbyW: standbyW, initiallyOn: on))
                case .lock:
                    let handler = SmartLockHandler(thingUID: uid, label: label, location: listing.id, kernel: kernel)
                    locks[key] = handler
                    try await runtime.addThing(handler.thing, handler: handler)
                    things.append((listing.id, device, uid))
                    continue
                }
                let handler = try await ZoneDeviceHandler.install(zoneDevice, deviceID: device.id, thingUID: uid, label: label, in: zone)
                zoneDevices[key] = handler
                try await runtime.addThing(handler.thing, handler: handler)
                things.append((listing.id, device, uid))
            }
        }
        self.zones = zones
        self.zoneDevices = zoneDevices
        self.locks = locks
        fileThings = try await WorldFileThings.install(scenario, runtime: runtime)

        // The booking side: real services over an in-memory SQLite store.
        let store = try BookingStore.inMemory()
        self.store = store
        let clock = BookingClock(kernel: kernel)
        services = BookingServices(store: store, clock: clock)
        for user in scenario.users {
            _ = try await services.users.register(User(id: UserID(user.id), externalID: "scenario|\(user.id)", name: user.name,
                                                       email: user.email ?? ""))
        }
        for listing in scenario.listings {
            _ = try await services.listings.create(Listing(
                id: ListingID(listing.id), owner: UserID(listing.owner), name: listing.name, city: listing.city,
                country: listing.country, capacity: listing.capacity, checkInTime: listing.checkInTime,
                checkOutTime: listing.checkOutTime, timeZone: scenario.calendar.identifier))
        }
        // The booking side speaks to openHAB in bytes, a REST client over the router as over HTTP; or, with typed
        // seams, calls the API the router serves.
        let credentials = OpenHABCredentials(openHABToken: Self.openHABToken)
        let client: any OpenHABAPI = switch options.seams {
        case .bytes: OpenHABRESTClient(transport: OpenHABRouter(runtime: runtime, policy: api.policy), credentials: credentials)
        case .typed: api.with(credentials: credentials)
        }
        bookingAPI = client
        home = HomeService(api: client, stays: services.reservations, configurations: store, audit: store, clock: clock,
                           access: LockAccessWindow(earlyCheckIn: scenario.automations.earlyCheckIn,
                                                    lateCheckOut: scenario.automations.lateCheckOut))
        // The virtual layer: Items and Links for every device, through the openHAB API only.
        for thing in things where options.configuresHomes {
            _ = try await home.createConfiguration(listing: ListingID(thing.listing), type: Self.configurationType(thing.device.kind),
                                                   deviceID: thing.device.id, thingUID: thing.uid.rawValue)
        }
        // One rule engine for users' rules and the built-in automations; rules act on the runtime's bus, as
        // openHAB's do (the booking services keep their REST client).
        let rules = RuleEngine(runtime: runtime, scheduler: kernel, calendar: scenario.calendar,
                               coverage: options.countsRuleCoverage ? RuleCoverage() : nil)
        self.rules = rules
        automations = try await WorldAutomations.install(scenario: scenario, kernel: kernel, rules: rules, api: client, feed: feed,
                                                         typedFeed: options.seams == .typed, services: services, home: home,
                                                         zones: zones)
        try await CalendarSync.install(scenario: scenario, kernel: kernel, services: services, log: automations.log)
        meters = MeterRecorder(calendar: scenario.calendar)
        try await meters.install(scenario: scenario, kernel: kernel, zones: zones, reservations: services.reservations,
                                 interval: options.recordTimeseries)
        try await Self.addVirtualItems(scenario, to: runtime)
        let persistenceServices = Self.persistenceServiceStores(scenario)
        self.persistenceServices = persistenceServices
        persistence = Self.defaultPersistenceStore(scenario, services: persistenceServices)
        await Self.installPersistence(scenario, runtime: runtime, store: persistence, rules: rules, services: persistenceServices, kernel: kernel)
        // Users' rules start at the scenario's start, after the built-in ones.
        try Task.checkCancellation()  // Ctrl-C before many rules are armed
        try rules.add(scenario.rules)
        javaScript = JavaScriptSession.attached(to: rules)
        try await javaScript?.start(engine: rules)
        rules.useResponses(scenario.responses)
        rules.useTransformFiles(scenario.transforms)
        rules.useBankHolidays(scenario.bankHolidays)
        rules.useRandomSeed(scenario.seed)
        rules.useTwinHTTP(TwinHTTP.responder(feed: feed, kernel: kernel, router: OpenHABRouter(runtime: runtime, policy: api.policy)))
        rules.start()
    }

    /// Creates the scenario's virtual Items (file-defined, with their initial states, no events) and puts
    /// Group members in their Groups.
    private static func addVirtualItems(_ scenario: Scenario, to runtime: OpenHABRuntime) async throws {
        for spec in scenario.items {
            var item = try spec.definition?.item() ?? Item(name: try ItemName(spec.name), type: spec.type, label: spec.label, isManaged: false)
            if let text = spec.state, let state = spec.type.parseState(text, in: scenario.calendar).flatMap({ item.accepting($0) }) {
                item.state = state
            }
            _ = await runtime.putItem(item)
        }
        for spec in scenario.items {
            for member in spec.members {
                let name = try ItemName(itemName(member))
                guard var item = await runtime.items.item(name), !item.groupNames.contains(spec.name) else { continue }
                item.groupNames.append(spec.name)
                _ = await runtime.putItem(item)
            }
        }
        try await WorldItemBinding.bind(scenario, runtime: runtime)
    }

    /// Frees the world once its result is taken: pending events, bus subscribers and Things (whose handlers,
    /// automations and recorders hold each other and the kernel) are dropped. A `suite`, the fuzzer and a
    /// server build many worlds in one process; without this each would stay in memory.
    public func close() async {
        kernel.discardPendingEvents()
        javaScript?.close()
        rules.removeAll()
        services.reservations.removeAllObservers()
        await runtime.shutdown()
        for listing in zones.keys.sorted() { await zones[listing]?.detachObservers() }
    }

    static func configurationType(_ kind: DeviceSpec.Kind) -> HomeConfigurationType {
        switch kind {
        case .heating: .heating
        case .cooling: .cooling
        case .smartPlug: .smartPlug
        case .lock: .lock
        }
    }

    /// The openHAB Item name of a scenario path `listing/device/channel`.
    public static func itemName(_ path: String) -> String { (try? ItemName(path: path))?.rawValue ?? path }
}

import Synchronization

/// Counts the bus events one listener received.
final class BusEventCounter: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
