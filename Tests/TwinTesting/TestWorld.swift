// Test support only (not a product): the lower layers' tests (DevicesTests, BookingTests) get a world here, built by
// the one world builder from a small scenario they write, with the parts they test in reach — without depending on
// the runner.
import Booking
import Devices
import Rules
import ScenarioFormat
import Simulation
import SmartHome
@_spi(TwinParts) import Twin
import Weather

/// A world built from a scenario given as text, exactly as a scenario run builds it, and its parts: the kernel, the
/// openHAB runtime and API, the zones and device handlers, the booking store and services, the home and weather
/// services, the fake feed, the rule engine and the persistence store.
public struct TestWorld: Sendable {
    /// The world, through its façade.
    public let world: World

    /// Decodes `json` (as if read from `file`) and builds its world at the scenario's start.
    /// - Parameters:
    ///   - lockAccess: the locks' access window around stays (the scenario's `earlyCheckIn`/`lateCheckOut`); `nil` keeps the file's.
    ///   - configuresHomes: whether the home service creates every device's Items and Links.
    /// - Throws: ``ScenarioError`` when the text is not a valid scenario or the world cannot be built.
    public init(json: String, file: String, lockAccess: LockAccessWindow? = nil, configuresHomes: Bool = true) async throws {
        var scenario = try ScenarioDecoder.decode(json, file: file)
        if let lockAccess {
            scenario.automations.earlyCheckIn = lockAccess.earlyCheckIn
            scenario.automations.lateCheckOut = lockAccess.lateCheckOut
        }
        world = try await World.build(scenario, options: World.Options(configuresHomes: configuresHomes))
    }

    /// The virtual clock and event queue.
    public var kernel: SimulationKernel { world.kernel }
    /// The openHAB twin: Things, Items, Links, the event bus.
    public var runtime: OpenHABRuntime { world.runtime }
    /// The REST-shaped openHAB API, as administrator.
    public var api: InProcessOpenHABAPI { world.api }
    /// Listing id → its thermal zone.
    public var zones: [String: ThermalZone] { world.zones }
    /// `listing/device` → the device's Thing handler.
    public var zoneDevices: [String: ZoneDeviceHandler] { world.zoneDevices }
    /// `listing/device` → the lock's Thing handler.
    public var locks: [String: SmartLockHandler] { world.locks }
    /// The booking database, also the home configuration repository and the lock audit log.
    public var store: BookingStore { world.store }
    /// Users, listings, reservations, conversations, ratings on the kernel's clock.
    public var services: BookingServices { world.services }
    /// The home service.
    public var home: HomeService { world.home }
    /// The weather service over the fake feed.
    public var weather: WeatherService { world.weather }
    /// The fake OpenWeatherMap feed.
    public var feed: FakeOpenWeatherMap { world.feed }
    /// The rule engine.
    public var rules: RuleEngine { world.rules }
    /// Where built-in automations register their recurring rules: the world's rule engine.
    public var ruleHost: any AutomationRuleHost { EngineAutomationHost(engine: world.rules) }
}
