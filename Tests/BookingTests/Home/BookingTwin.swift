// Test support only: a real twin (kernel, openHAB runtime, devices, fake weather feed) with the real booking
// side wired to it, as the scenario world builder does: an in-memory SQLite store, the booking services on
// the kernel's clock, and the home service and weather service over them. Nothing here is a fake of the
// system under test.
import Booking
import Devices
import Foundation
import Physics
import Simulation
import SmartHome
import Testing
import Weather

/// One or more flats in Budapest with heating, cooling, a plug and a lock each, created through the listing
/// service; registered users `host` (owner), `guest`, `stranger` and `carol`. Reservations go through the
/// reservation service (``book(_:_:_:listing:guest:)``, ``cancel(_:)``, ``checkIn(_:)``, ``checkOut(_:)``),
/// which reads the kernel's clock; automations are registered with ``observe(_:)``.
struct BookingTwin {
    static let calendar: LocalCalendar = {
        do { return try LocalCalendar(identifier: "Europe/Budapest") } catch { fatalError("\(error)") }
    }()
    static let host: UserID = "host"
    static let guest: UserID = "guest"
    static let stranger: UserID = "stranger"
    /// Another guest, for a second reservation.
    static let carol: UserID = "carol"

    let kernel: SimulationKernel
    let runtime = OpenHABRuntime()
    let api: InProcessOpenHABAPI
    /// The booking database, also the home configuration repository and the lock audit log.
    let store: BookingStore
    /// Users, listings, reservations … on the kernel's clock.
    let services: BookingServices
    let home: HomeService
    let feed: FakeOpenWeatherMap
    let weather: WeatherService
    let zones: [String: ThermalZone]
    let locks: [String: SmartLockHandler]
    let devices: [String: ZoneDeviceHandler]

    /// Builds the world at local `start`; Items and Links are created by the home service unless `configure` is false.
    init(start: String = "2026-01-09T00:00", listings: [String] = ["flat-1"], outdoorC: Double = 0, initialC: Double = 16,
         ua: Double = 80, capacitance: Double = 2.3, heatingW: Double = 2000,
         access: LockAccessWindow = LockAccessWindow(), checkInTime: String = "15:00", checkOutTime: String = "10:00",
         configure: Bool = true) async throws {
        kernel = SimulationKernel(start: try Self.calendar.parseInstant(start))
        api = InProcessOpenHABAPI(runtime: runtime, policy: OpenHABAccessPolicy(tokens: ["admin": .administrator]),
                                  credentials: OpenHABCredentials(openHABToken: "admin"))
        let clock = BookingClock(kernel: kernel)
        store = try BookingStore.inMemory()
        services = BookingServices(store: store, clock: clock)
        for (user, name) in [(Self.host, "Hanna Host"), (Self.guest, "Gabor Guest"), (Self.stranger, "Sam Stranger"),
                             (Self.carol, "Carol Carter")] {
            _ = try await services.users.register(User(id: user, externalID: "ext-\(user)", name: name))
        }
        // The home service speaks bytes: a REST client over the router, as the scenario world wires it.
        let client = OpenHABRESTClient(transport: OpenHABRouter(runtime: runtime, policy: api.policy),
                                       credentials: OpenHABCredentials(openHABToken: "admin"))
        home = HomeService(api: client, stays: services.reservations, configurations: store, audit: store, clock: clock,
                           access: access)
        feed = FakeOpenWeatherMap(apiKeys: ["test-key"], requestsPerMinute: nil)
        try feed.addCity(try CityGazetteer.city(named: "Budapest", country: "Hungary"),
                         weather: CityWeather(base: .constant(try WeatherSample(tempC: outdoorC))))
        let kernel = self.kernel, feed = self.feed
        weather = WeatherService(baseURL: try #require(URL(string: "https://api.openweathermap.org")), apiKey: "test-key",
                                 transport: FakeFeedTransport(feed: feed, clock: { kernel.now }), clock: clock)
        var zones: [String: ThermalZone] = [:], locks: [String: SmartLockHandler] = [:], devices: [String: ZoneDeviceHandler] = [:]
        let parameters = try ZoneParameters(uaWPerK: ua, capacitanceKWhPerK: capacitance)
        for id in listings {
            let zone = try ThermalZone(id: id, configuration: try ZoneConfiguration(parameters: parameters, initialC: initialC),
                                       kernel: kernel, outdoor: ConstantOutdoorTemperature(celsius: outdoorC))
            zones[id] = zone
            let heating = try await ZoneDeviceHandler.install(
                .thermostat(try ThermostatConfiguration(mode: .heating, powerW: heatingW, setpointC: 21, hysteresisK: 0.5)),
                deviceID: "heating", thingUID: try ThingUID("twin:thermostat:\(id):heating"), label: "Heating", in: zone)
            let cooling = try await ZoneDeviceHandler.install(
                .thermostat(try ThermostatConfiguration(mode: .cooling, powerW: 900, cop: 3, setpointC: 25, hysteresisK: 0.5)),
                deviceID: "ac", thingUID: try ThingUID("twin:thermostat:\(id):ac"), label: "AC", in: zone)
            let plug = try await ZoneDeviceHandler.install(
                .smartPlug(try SmartPlugConfiguration(loadW: 60, standbyW: 0.5)),
                deviceID: "plug", thingUID: try ThingUID("twin:plug:\(id):plug"), label: "Lamp", in: zone)
            let lock = SmartLockHandler(thingUID: try ThingUID("twin:lock:\(id):door"), label: "Door", location: id, kernel: kernel)
            for handler in [heating, cooling, plug] {
                try await runtime.addThing(handler.thing, handler: handler)
                devices["\(id)/\(handler.deviceID)"] = handler
            }
            try await runtime.addThing(lock.thing, handler: lock)
            locks[id] = lock
            _ = try await services.listings.create(
                Listing(id: ListingID(id), owner: Self.host, name: "Flat \(id)", city: "Budapest", country: "Hungary",
                        capacity: 4, checkInTime: try LocalCalendar.parseTime(checkInTime),
                        checkOutTime: try LocalCalendar.parseTime(checkOutTime), timeZone: "Europe/Budapest"))
        }
        self.zones = zones
        self.locks = locks
        self.devices = devices
        if configure {
            for id in listings {
                let listing = ListingID(id)
                _ = try await home.createConfiguration(listing: listing, type: .heating, deviceID: "heating", thingUID: "twin:thermostat:\(id):heating")
                _ = try await home.createConfiguration(listing: listing, type: .cooling, deviceID: "ac", thingUID: "twin:thermostat:\(id):ac")
                _ = try await home.createConfiguration(listing: listing, type: .smartPlug, deviceID: "plug", thingUID: "twin:plug:\(id):plug")
                _ = try await home.createConfiguration(listing: listing, type: .lock, deviceID: "door", thingUID: "twin:lock:\(id):door")
            }
        }
    }

    /// The instant of a local date-time such as `2026-01-09T15:00`.
    func at(_ local: String) throws -> SimInstant { try Self.calendar.parseInstant(local) }

    /// Runs the kernel until local `local`.
    func run(until local: String) async throws { try await kernel.run(until: try at(local)) }

    /// The state of the Item of path `listing/device/channel`.
    func state(_ path: String) async throws -> String { try await api.getItemState(try ItemName(path: path).rawValue).body }

    /// The numeric part of an Item's state.
    func number(_ path: String) async throws -> Double {
        let text = try await state(path)
        return try #require(Double(text.split(separator: " ").first.map(String.init) ?? ""), "state \(text) of \(path)")
    }

    /// The zone's exact temperature now, °C.
    func roomC(_ listing: String = "flat-1") async throws -> Double { try await #require(zones[listing]).temperatureC() }

    /// The reservation service: the stay directory of the home service and the automations.
    var reservations: ReservationService { services.reservations }

    /// Registers an automation as an observer of the reservation service.
    func observe(_ observer: any ReservationObserver) { services.reservations.addObserver(observer) }

    /// Books `listing` for one guest (default `guest`) now, through the reservation service (which tells the observers).
    @discardableResult
    func book(_ id: ReservationID, _ checkIn: String, _ checkOut: String, listing: String = "flat-1",
              guest: UserID = BookingTwin.guest) async throws -> Reservation {
        try await services.reservations.book(id: id, guest: guest, listing: ListingID(listing),
                                             checkIn: try LocalCalendar.parseDate(checkIn),
                                             checkOut: try LocalCalendar.parseDate(checkOut), guests: 1)
    }

    /// Cancels a reservation now, through the reservation service.
    @discardableResult
    func cancel(_ id: ReservationID) async throws -> Reservation { try await services.reservations.cancel(id) }

    /// Checks a reservation's guest in now, through the reservation service.
    @discardableResult
    func checkIn(_ id: ReservationID) async throws -> Reservation { try await services.reservations.checkIn(id) }

    /// Checks a reservation's guest out now, through the reservation service.
    @discardableResult
    func checkOut(_ id: ReservationID) async throws -> Reservation { try await services.reservations.checkOut(id) }
}
