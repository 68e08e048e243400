import Booking
import Simulation
import SmartHome
import Testing
import Weather

@Suite("WeatherWatcher: the original's hourly job at minute 5")
struct WeatherWatcherTests {
    static let configuration = WeatherWatcherConfiguration(heatOnBelowC: 15, coolOnAboveC: 26)

    private func watcher(_ twin: BookingTwin, _ log: AutomationLog, listings: [ListingID] = ["flat-1"]) async throws -> WeatherWatcher {
        let watcher = WeatherWatcher(configuration: Self.configuration, scheduler: twin.kernel, rules: twin.ruleHost, weather: twin.weather, api: twin.api,
                                     stays: twin.reservations, configurations: twin.store, log: log)
        for listing in listings { try await watcher.watch(listing) }
        return watcher
    }

    @Test("heating switches ON at minute 5 (not before) when the city is below the threshold")
    func switchesAtMinuteFive() async throws {
        let twin = try await BookingTwin(outdoorC: 3)
        let log = AutomationLog()
        _ = try await watcher(twin, log)
        try await twin.run(until: "2026-01-09T00:04:59")
        #expect(try await twin.state("flat-1/heating/switch") == "OFF")
        #expect(twin.feed.requestCount == 0)
        try await twin.run(until: "2026-01-09T00:05")
        #expect(try await twin.state("flat-1/heating/switch") == "ON")
        #expect(try await twin.state("flat-1/heating/power") == "2000 W")
        #expect(try await twin.state("flat-1/ac/switch") == "OFF")
        #expect(log.lines == ["2026-01-08T23:05:00Z weatherWatcher flat-1: heating switch ON — Budapest reports 3.0 °C, below 15.0 °C"])
        try await twin.run(until: "2026-01-09T01:05")
        #expect(twin.feed.requestCount == 2)
        #expect(log.entries.count == 1)  // unchanged state: no command, no log line
    }

    @Test("cooling switches ON above its threshold and heating OFF")
    func coolingOnHotDay() async throws {
        let twin = try await BookingTwin(outdoorC: 31)
        let log = AutomationLog()
        _ = try await watcher(twin, log)
        try await twin.home.setSwitch(configuration: "flat-1/heating", on: true, by: BookingTwin.host)
        try await twin.run(until: "2026-01-09T00:05")
        #expect(try await twin.state("flat-1/ac/switch") == "ON")
        #expect(try await twin.state("flat-1/heating/switch") == "OFF")
        #expect(log.entries.map(\.action) == ["heating switch OFF", "ac switch ON"])
        #expect(log.entries.map(\.reason) == ["Budapest reports 31.0 °C, not below 15.0 °C", "Budapest reports 31.0 °C, above 26.0 °C"])
    }

    @Test("a feed outage keeps the last known value, says so, and never switches on a guess",
          arguments: [(FeedFault.serverError, "weather.server"), (FeedFault.rateLimited, "weather.rateLimited")])
    func holdsThroughOutage(_ fault: FeedFault, _ code: String) async throws {
        let twin = try await BookingTwin(outdoorC: 3)
        let log = AutomationLog()
        _ = try await watcher(twin, log)
        try await twin.run(until: "2026-01-09T00:05")
        #expect(try await twin.state("flat-1/heating/switch") == "ON")
        // The feed fails from 00:30 — and the real weather turns warm, which the watcher cannot know.
        try await twin.run(until: "2026-01-09T00:30")
        try twin.feed.setFault(fault, forCity: "Budapest")
        try twin.feed.addOverride(WeatherOverride(from: twin.kernel.now, sample: try WeatherSample(tempC: 20)), forCity: "Budapest")
        try await twin.run(until: "2026-01-09T02:05")
        #expect(try await twin.state("flat-1/heating/switch") == "ON")
        let held = log.entries(listing: "flat-1").filter { $0.action == "heating switch stays ON" }
        #expect(held.count == 2)
        #expect(held.first?.reason == "Budapest feed failed (\(code)); last known 3.0 °C observed 2026-01-09T00:05, below 15.0 °C")
        #expect(log.entries.filter { $0.action == "ac switch stays OFF" }.count == 2)
        let errors = await twin.weather.errors
        #expect(errors.map(\.description) == ["2026-01-09T00:05:00Z Budapest \(code)", "2026-01-09T01:05:00Z Budapest \(code)"])
        // The feed recovers: the warm weather switches heating off at the next run.
        try twin.feed.setFault(nil, forCity: "Budapest")
        try await twin.run(until: "2026-01-09T03:04")
        #expect(try await twin.state("flat-1/heating/switch") == "ON")
        try await twin.run(until: "2026-01-09T03:05")
        #expect(try await twin.state("flat-1/heating/switch") == "OFF")
        #expect(log.entries.last?.reason == "Budapest reports 20.0 °C, not below 15.0 °C")
    }

    @Test("without any temperature ever nothing is switched, and the log says why")
    func noValueEver() async throws {
        let twin = try await BookingTwin(outdoorC: 3)
        try twin.feed.setFault(.serverError, forCity: "Budapest")
        let log = AutomationLog()
        _ = try await watcher(twin, log)
        try await twin.run(until: "2026-01-09T01:05")
        #expect(try await twin.state("flat-1/heating/switch") == "OFF")
        #expect(log.entries.count == 2)
        #expect(log.entries.allSatisfy { $0.action == "none" && $0.reason.hasPrefix("no temperature for Budapest yet (weather.server: ") })
    }

    @Test("one request per city per run, however many listings it has")
    func oneRequestPerCity() async throws {
        let twin = try await BookingTwin(listings: ["flat-1", "flat-2"], outdoorC: 3)
        let log = AutomationLog()
        let watcher = try await watcher(twin, log, listings: ["flat-2", "flat-1"])
        #expect(await watcher.watchedListings == ["flat-1", "flat-2"])
        try await twin.run(until: "2026-01-09T00:05")
        #expect(twin.feed.requestCount == 1)
        #expect(try await twin.state("flat-1/heating/switch") == "ON")
        #expect(try await twin.state("flat-2/heating/switch") == "ON")
        #expect(log.entries.map(\.listing) == ["flat-1", "flat-2"])
        await watcher.unwatch("flat-2")
        try await twin.run(until: "2026-01-09T02:05")
        #expect(twin.feed.requestCount == 3)
        await watcher.stop()
        try await twin.run(until: "2026-01-09T05:05")
        #expect(twin.feed.requestCount == 3)
    }

    @Test("watch reads the configurations once: a device added later is switched after watching again")
    func rewatchAfterAddingDevices() async throws {
        let twin = try await BookingTwin(outdoorC: 3, configure: false)
        let log = AutomationLog()
        let watcher = try await watcher(twin, log)
        _ = try await twin.home.createConfiguration(listing: "flat-1", type: .heating, deviceID: "heating",
                                                    thingUID: "twin:thermostat:flat-1:heating")
        try await twin.run(until: "2026-01-09T00:05")
        #expect(try await twin.state("flat-1/heating/switch") == "OFF")
        #expect(twin.feed.requestCount == 1)
        #expect(log.entries.isEmpty)
        try await watcher.watch("flat-1")
        try await twin.run(until: "2026-01-09T01:05")
        #expect(try await twin.state("flat-1/heating/switch") == "ON")
        #expect(log.lines == ["2026-01-09T00:05:00Z weatherWatcher flat-1: heating switch ON — Budapest reports 3.0 °C, below 15.0 °C"])
    }

    @Test("an invalid schedule is refused")
    func invalidSchedule() async throws {
        let twin = try await BookingTwin()
        let watcher = WeatherWatcher(configuration: WeatherWatcherConfiguration(heatOnBelowC: 15, everyMinutes: 60, atMinute: 75),
                                     scheduler: twin.kernel, rules: twin.ruleHost, weather: twin.weather, api: twin.api, stays: twin.reservations,
                                     configurations: twin.store, log: AutomationLog())
        await expectTwinError(.configurationInvalid) { try await watcher.watch("flat-1") }
        await expectTwinError(.listingNotFound) { try await watcher.watch("flat-9") }
    }
}
