// Test support only: the one world builder (`World`, through TwinTesting's `TestWorld`) with a small scenario written here, so the
// booking tests run against exactly what a scenario run builds: the kernel, the openHAB twin with a Thing per
// device, the fake weather feed, an in-memory SQLite store, the booking services on the kernel's clock, and the
// home service and weather service over them. Nothing here is a fake of the system under test.
import Booking
import Devices
import Foundation
import Physics
import Simulation
import SmartHome
import Testing
import TwinTesting
import Weather

/// One or more flats in Budapest with heating, cooling (`ac`), a plug and a lock (`door`) each; registered users
/// `host` (owner), `guest`, `stranger` and `carol`. Reservations go through the reservation service
/// (``book(_:_:_:listing:guest:)``, ``cancel(_:)``, ``checkIn(_:)``, ``checkOut(_:)``), which reads the kernel's
/// clock; automations are registered with ``observe(_:)``.
struct BookingTwin {
    static let calendar: LocalCalendar = {
        do { return try LocalCalendar(identifier: "Europe/Budapest") } catch { fatalError("\(error)") }
    }()
    static let host: UserID = "host"
    static let guest: UserID = "guest"
    static let stranger: UserID = "stranger"
    /// Another guest, for a second reservation.
    static let carol: UserID = "carol"

    /// The world, as the scenario runner builds it, with its parts.
    let world: TestWorld
    var kernel: SimulationKernel { world.kernel }
    /// Where built-in automations register their rules (the world's rule engine).
    var ruleHost: any AutomationRuleHost { world.ruleHost }
    var runtime: OpenHABRuntime { world.runtime }
    var api: InProcessOpenHABAPI { world.api }
    /// The booking database, also the home configuration repository and the lock audit log.
    var store: BookingStore { world.store }
    /// Users, listings, reservations … on the kernel's clock.
    var services: BookingServices { world.services }
    var home: HomeService { world.home }
    var feed: FakeOpenWeatherMap { world.feed }
    var weather: WeatherService { world.weather }
    var zones: [String: ThermalZone] { world.zones }
    /// Listing id → its lock.
    let locks: [String: SmartLockHandler]
    /// `listing/device` → the device's handler.
    var devices: [String: ZoneDeviceHandler] { world.zoneDevices }

    /// Builds the world at local `start`; Items and Links are created by the home service unless `configure` is false.
    init(start: String = "2026-01-09T00:00", listings: [String] = ["flat-1"], outdoorC: Double = 0, initialC: Double = 16,
         ua: Double = 80, capacitance: Double = 2.3, heatingW: Double = 2000,
         access: LockAccessWindow = LockAccessWindow(), checkInTime: String = "15:00", checkOutTime: String = "10:00",
         configure: Bool = true) async throws {
        let flats = listings.map { id in
            """
            { "id": "\(id)", "owner": "host", "name": "Flat \(id)", "city": "Budapest", "country": "Hungary", "capacity": 4,
              "checkInTime": "\(checkInTime)", "checkOutTime": "\(checkOutTime)",
              "thermal": { "uaWPerK": \(ua), "capacitanceKWhPerK": \(capacitance), "initialC": \(initialC) },
              "devices": [
                { "id": "heating", "type": "heating", "powerW": \(heatingW), "setpointC": 21, "hysteresisK": 0.5 },
                { "id": "ac", "type": "cooling", "powerW": 900, "cop": 3, "setpointC": 25, "hysteresisK": 0.5 },
                { "id": "plug", "type": "smartPlug", "loadW": 60, "standbyW": 0.5, "on": false },
                { "id": "door", "type": "lock" }
              ] }
            """
        }
        let startInstant = try Self.calendar.parseInstant(start)
        let end = Self.calendar.localDateTime(at: startInstant + .days(400))
        let world = try await TestWorld(json: """
            { "version": 1, "name": "Booking twin", "timeZone": "Europe/Budapest", "start": "\(start)", "end": "\(end)",
              "weather": { "Budapest": { "constantC": \(outdoorC) } },
              "users": [ { "id": "host", "name": "Hanna Host" }, { "id": "guest", "name": "Gabor Guest" },
                         { "id": "stranger", "name": "Sam Stranger" }, { "id": "carol", "name": "Carol Carter" } ],
              "listings": [ \(flats.joined(separator: ",\n")) ] }
            """, file: "booking-twin.json", lockAccess: access, configuresHomes: configure)
        self.world = world
        locks = Dictionary(uniqueKeysWithValues: listings.compactMap { id in world.locks["\(id)/door"].map { (id, $0) } })
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
