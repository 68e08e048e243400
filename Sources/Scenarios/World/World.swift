import Booking
import Devices
import Foundation
import Physics
import Simulation
import SmartHome
import Weather

/// Everything a scenario runs against, built from its file: the kernel, the openHAB twin with a
/// Thing per device, a thermal zone per listing, the fake OpenWeatherMap feed, and the real booking
/// services (in-memory SQLite) with the home service, the weather service and the automations.
///
/// Build order follows the original system: Things exist first (the "physical layer"); the home
/// service then creates Items and Links for every device through the openHAB API only.
final class World: Sendable {
    /// The token the booking services use towards the openHAB twin.
    static let openHABToken = "rental-twin"
    /// The API key of the fake weather feed.
    static let weatherAPIKey = "rental-twin-key"

    let scenario: Scenario
    let kernel: SimulationKernel
    let runtime: OpenHABRuntime
    let api: InProcessOpenHABAPI
    let feed: FakeOpenWeatherMap
    let zones: [String: ThermalZone]
    /// `listing/device` → the device's Thing handler.
    let zoneDevices: [String: ZoneDeviceHandler]
    let locks: [String: SmartLockHandler]
    let services: BookingServices
    let home: HomeService
    let automations: WorldAutomations
    let meters: MeterRecorder

    /// Builds the world at the scenario's start.
    /// - Throws: ``ScenarioError`` `scenario.runFailed` when a layer refuses the world (a bug or a
    ///   value the validator does not know about).
    static func build(_ scenario: Scenario, recordTimeseries interval: SimDuration?) async throws(ScenarioError) -> World {
        do {
            return try await World(scenario, interval: interval)
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw ScenarioError(.runFailed, "could not build the world of \(scenario.name): \(error)", file: scenario.file)
        }
    }

    private init(_ scenario: Scenario, interval: SimDuration?) async throws {
        self.scenario = scenario
        let kernel = SimulationKernel(start: scenario.start)
        self.kernel = kernel
        runtime = OpenHABRuntime()
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
            let country = scenario.listings.first { $0.city == spec.city }?.country
            guard let info = try? CityGazetteer.city(named: spec.city, country: country), let weather = cityWeather[spec.city] else { continue }
            try feed.addCity(info, weather: weather)
        }

        // The physical layer: a zone per listing, a Thing per device.
        var zones: [String: ThermalZone] = [:]
        var zoneDevices: [String: ZoneDeviceHandler] = [:]
        var locks: [String: SmartLockHandler] = [:]
        var things: [(listing: String, device: DeviceSpec, uid: ThingUID)] = []
        for listing in scenario.listings {
            guard let weather = cityWeather[listing.city] else { continue }
            let t = listing.thermal
            let zone = try ThermalZone(
                id: listing.id,
                configuration: try ZoneConfiguration(parameters: try ZoneParameters(uaWPerK: t.uaWPerK, capacitanceKWhPerK: t.capacitanceKWhPerK),
                                                     initialC: t.initialC, gainPerGuestW: t.gainPerGuestW, comfortC: t.comfortC),
                kernel: kernel, outdoor: WeatherOutdoorTemperature(weather: weather))
            zones[listing.id] = zone
            for device in listing.devices {
                let key = "\(listing.id)/\(device.id)"
                let label = "\(listing.name) \(device.id)"
                switch device.kind {
                case .heating(let powerW, let setpointC, let hysteresisK):
                    let uid = try ThingUID("twin:thermostat:\(listing.id):\(device.id)")
                    let handler = try await ZoneDeviceHandler.install(
                        .thermostat(try ThermostatConfiguration(mode: .heating, powerW: powerW, setpointC: setpointC, hysteresisK: hysteresisK)),
                        deviceID: device.id, thingUID: uid, label: label, in: zone)
                    zoneDevices[key] = handler
                    try await runtime.addThing(handler.thing, handler: handler)
                    things.append((listing.id, device, uid))
                case .cooling(let powerW, let cop, let setpointC, let hysteresisK):
                    let uid = try ThingUID("twin:thermostat:\(listing.id):\(device.id)")
                    let handler = try await ZoneDeviceHandler.install(
                        .thermostat(try ThermostatConfiguration(mode: .cooling, powerW: powerW, cop: cop, setpointC: setpointC, hysteresisK: hysteresisK)),
                        deviceID: device.id, thingUID: uid, label: label, in: zone)
                    zoneDevices[key] = handler
                    try await runtime.addThing(handler.thing, handler: handler)
                    things.append((listing.id, device, uid))
                case .smartPlug(let loadW, let standbyW, let on):
                    let uid = try ThingUID("twin:plug:\(listing.id):\(device.id)")
                    let handler = try await ZoneDeviceHandler.install(
                        .smartPlug(try SmartPlugConfiguration(loadW: loadW, standbyW: standbyW, initiallyOn: on)),
                        deviceID: device.id, thingUID: uid, label: label, in: zone)
                    zoneDevices[key] = handler
                    try await runtime.addThing(handler.thing, handler: handler)
                    things.append((listing.id, device, uid))
                case .lock:
                    let uid = try ThingUID("twin:lock:\(listing.id):\(device.id)")
                    let handler = SmartLockHandler(thingUID: uid, label: label, location: listing.id, kernel: kernel)
                    locks[key] = handler
                    try await runtime.addThing(handler.thing, handler: handler)
                    things.append((listing.id, device, uid))
                }
            }
        }
        self.zones = zones
        self.zoneDevices = zoneDevices
        self.locks = locks

        // The booking side: real services over an in-memory SQLite store.
        let store = try BookingStore.inMemory()
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
        // The booking side speaks to openHAB in bytes: a REST client over the router, as over HTTP.
        let client = OpenHABRESTClient(transport: OpenHABRouter(runtime: runtime, policy: api.policy),
                                       credentials: OpenHABCredentials(openHABToken: Self.openHABToken))
        home = HomeService(api: client, stays: services.reservations, configurations: store, audit: store, clock: clock,
                           access: LockAccessWindow(earlyCheckIn: scenario.automations.earlyCheckIn,
                                                    lateCheckOut: scenario.automations.lateCheckOut))
        // The virtual layer: Items and Links for every device, through the openHAB API only.
        for thing in things {
            _ = try await home.createConfiguration(listing: ListingID(thing.listing), type: Self.configurationType(thing.device.kind),
                                                   deviceID: thing.device.id, thingUID: thing.uid.rawValue)
        }
        automations = try await WorldAutomations.install(scenario: scenario, kernel: kernel, api: client, feed: feed,
                                                         services: services, home: home, zones: zones)
        meters = MeterRecorder(calendar: scenario.calendar)
        try await meters.install(scenario: scenario, kernel: kernel, zones: zones, runtime: runtime, interval: interval)
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
    static func itemName(_ path: String) -> String { (try? ItemName(path: path))?.rawValue ?? path }
}
