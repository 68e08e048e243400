import Booking
import Devices
import Foundation
import Physics
import Rules
import ScenarioFormat
import Simulation
import SmartHome
import Weather

/// The automations a scenario switches on, wired like a deployment would wire them: the weather
/// watcher and smart preheat ask the fake feed through the real OpenWeatherMap client; every
/// action goes through the openHAB API and into one ``AutomationLog``.
struct WorldAutomations: Sendable {
    let log: AutomationLog
    let weather: WeatherService
    let watcher: WeatherWatcher?
    let preheat: Preheat?
    let setback: Setback?

    static func install(scenario: Scenario, kernel: SimulationKernel, rules: RuleEngine, api: any OpenHABAPI, feed: FakeOpenWeatherMap,
                        typedFeed: Bool, services: BookingServices, home: HomeService,
                        zones: [String: ThermalZone]) async throws -> WorldAutomations {
        let log = AutomationLog()
        let transport = FakeFeedTransport(feed: feed, clock: { kernel.now }, typed: typedFeed)
        let baseURL = URL(string: "https://api.openweathermap.org") ?? URL(fileURLWithPath: "/")
        let weather = WeatherService(baseURL: baseURL, apiKey: World.weatherAPIKey, transport: transport,
                                     clock: BookingClock(kernel: kernel))
        let automations = scenario.automations
        let stays = services.reservations
        let store = services.store

        var watcher: WeatherWatcher?
        if let w = automations.weatherWatcher {
            let configured = WeatherWatcher(
                configuration: WeatherWatcherConfiguration(heatOnBelowC: w.heatOnBelowC, coolOnAboveC: w.coolOnAboveC,
                                                           everyMinutes: w.everyMinutes, atMinute: w.atMinute),
                scheduler: kernel, rules: EngineAutomationHost(engine: rules), weather: weather, api: api, stays: stays,
                configurations: store, log: log)
            for listing in scenario.listings { try await configured.watch(ListingID(listing.id)) }
            watcher = configured
        }

        var preheat: Preheat?
        if let p = automations.preheat {
            let configuration: PreheatConfiguration
            switch p.mode {
            case .fixed:
                configuration = .fixed(lead: p.lead, comfortC: p.comfortC)
            case .smart:
                // The flat's own thermal knowledge: its 1R1C parameters, its heater's power and hysteresis.
                var models: [ListingID: PreheatModel] = [:]
                for listing in scenario.listings {
                    for device in listing.devices {
                        guard case .heating(let powerW, _, let hysteresisK) = device.kind else { continue }
                        let parameters = try ZoneParameters(uaWPerK: listing.thermal.uaWPerK,
                                                            capacitanceKWhPerK: listing.thermal.capacitanceKWhPerK)
                        models[ListingID(listing.id)] = PreheatModel(parameters: parameters, heatingPowerW: powerW,
                                                                     hysteresisK: hysteresisK)
                        break
                    }
                }
                configuration = .smart(models: models, comfortC: p.comfortC, fallbackLead: p.lead)
            }
            let configured = Preheat(configuration: configuration, scheduler: kernel, stays: stays, api: api,
                                     configurations: store, weather: weather, log: log)
            stays.addObserver(configured)
            preheat = configured
        }

        var setback: Setback?
        if let s = automations.setback {
            let configured = Setback(setpointC: s.setpointC, scheduler: kernel, stays: stays, api: api, configurations: store, log: log)
            stays.addObserver(configured)
            setback = configured
        }
        return WorldAutomations(log: log, weather: weather, watcher: watcher, preheat: preheat, setback: setback)
    }
}
