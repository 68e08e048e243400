import Simulation
import SmartHome

/// The original system's scheduled weather job: at minute ``WeatherWatcherConfiguration/atMinute``
/// of every ``WeatherWatcherConfiguration/everyMinutes`` (local time of the watched listings) it asks
/// the weather service once per city that has watched listings, then switches each watched listing's
/// heating ON below `heatOnBelowC` (OFF otherwise) and its cooling ON above `coolOnAboveC` (OFF otherwise).
///
/// - Commands go through the openHAB API to each heating/cooling configuration's `switch` Item, and
///   only when the Item's state differs from the wanted one: an unchanged device gets no command,
///   no bus event and no log line. (A guest's manual change is therefore overridden at the next run
///   only if it contradicts the weather, as in the original.)
/// - When the feed fails, the last known temperature is used (its age and the error are logged for
///   every watched listing of the city, even when nothing changes). With no temperature ever, nothing
///   is switched (never act on a guess) and that is logged.
/// - Runs are openHAB rules on the twin's rule engine (``AutomationRuleHost``): one recurring rule per time
///   zone of the watched listings, `weatherWatcher-<zone>`, never tasks or sleeps.
/// - ``watch(_:)`` reads the listing and its heating and cooling configurations once; a run only asks
///   the feed and reads and commands Items. Watch a listing again after adding or removing its devices.
public actor WeatherWatcher {
    /// The automation's name in the ``AutomationLog``.
    public static let name = "weatherWatcher"

    /// The thresholds and the schedule.
    public nonisolated let configuration: WeatherWatcherConfiguration
    private let scheduler: any SimulationScheduler
    private let weather: WeatherService
    private let home: HomeCommander
    private let stays: any StayDirectory
    private let log: AutomationLog
    private var watched: [ListingID: WatchedListing] = [:]
    /// Time-zone identifier → the recurrence running for it.
    /// Time zones whose recurring rule is registered.
    private var scheduledZones: Set<String> = []
    private let rules: any AutomationRuleHost
    /// Time-zone identifier → its calendar (log lines give instants in local time).
    private var calendars: [String: LocalCalendar] = [:]
    /// Time-zone identifier → what its runs ask and switch; rebuilt after every watch or unwatch.
    private var plans: [String: [CityRun]] = [:]
    /// `15.0 °C`: the heating threshold as log lines quote it.
    private let heatThresholdText: String?
    /// `26.0 °C`: the cooling threshold as log lines quote it.
    private let coolThresholdText: String?

    /// Creates the watcher; nothing runs until a listing is watched.
    /// - Parameters:
    ///   - configuration: thresholds and schedule.
    ///   - scheduler: the virtual clock (log times).
    ///   - rules: where the recurring runs are registered as rules.
    ///   - weather: the weather service (asked once per city per run).
    ///   - api: the openHAB API the commands go through.
    ///   - stays: where listings (city, country, time zone) are read.
    ///   - configurations: the listings' heating and cooling configurations.
    ///   - log: where every action is logged with its reason.
    public init(configuration: WeatherWatcherConfiguration, scheduler: any SimulationScheduler, rules: any AutomationRuleHost,
                weather: WeatherService, api: any OpenHABAPI, stays: any StayDirectory,
                configurations: any HomeConfigurationRepository, log: AutomationLog) {
        self.configuration = configuration
        self.scheduler = scheduler
        self.rules = rules
        self.weather = weather
        self.home = HomeCommander(api: api, configurations: configurations)
        self.stays = stays
        self.log = log
        heatThresholdText = configuration.heatOnBelowC.map(AutomationText.celsius)
        coolThresholdText = configuration.coolOnAboveC.map(AutomationText.celsius)
    }

    /// Starts watching a listing; the first run is the next scheduled minute strictly after now.
    ///
    /// The listing (its city, country and time zone) and its heating and cooling configurations are read
    /// here, once: the runs switch the `switch` Items found now. Call `watch` again for a listing already
    /// watched after adding or removing its devices.
    /// - Throws: `listing.notFound`; `listing.invalid` for an unknown time zone; `configuration.invalid`
    ///   for a schedule the kernel refuses (e.g. `atMinute` outside `0..<everyMinutes`); the store's error
    ///   when the configurations cannot be read.
    public func watch(_ id: ListingID) async throws(BookingError) {
        let listing = try await stays.listing(id)
        let devices = try await home.configurations(of: id)
        let zone = listing.timeZone
        if !scheduledZones.contains(zone) {
            let calendar = try listing.calendar()
            calendars[zone] = calendar
            try rules.addRecurringRule(uid: Self.ruleUID(zone), name: "Weather watcher (\(zone))", everyMinutes: configuration.everyMinutes,
                                       atMinute: configuration.atMinute, calendar: calendar) { [self] in
                await self.run(timeZone: zone)
            }
            scheduledZones.insert(zone)
        }
        watched[id] = WatchedListing(listing, devices: devices)
        plans.removeAll()
    }

    /// Stops watching a listing (its time zone's recurrence stops when no listing is left in it).
    public func unwatch(_ id: ListingID) {
        guard let listing = watched.removeValue(forKey: id)?.listing else { return }
        plans.removeAll()
        if !watched.values.contains(where: { $0.listing.timeZone == listing.timeZone }), scheduledZones.remove(listing.timeZone) != nil {
            rules.removeRule(uid: Self.ruleUID(listing.timeZone))
        }
    }

    /// The watched listings, sorted.
    public var watchedListings: [ListingID] { watched.keys.sorted() }

    /// Cancels every scheduled run.
    public func stop() {
        for zone in scheduledZones.sorted() { rules.removeRule(uid: Self.ruleUID(zone)) }
        scheduledZones.removeAll()
    }

    /// The UID of the recurring rule of one time zone: `weatherWatcher-Europe/Budapest`.
    public static func ruleUID(_ zone: String) -> String { "\(name)-\(zone)" }

    /// One run over every watched listing (the scheduled runs call this per time zone).
    public func runNow() async {
        for zone in Set(watched.values.map(\.listing.timeZone)).sorted() { await run(timeZone: zone) }
    }

    // MARK: Private

    /// A watched listing with what its runs need, read once by ``watch(_:)``.
    private struct WatchedListing: Sendable {
        /// The listing as it was when watched.
        let listing: Listing
        /// `budapest,HU`: the listings of one key share one request per run.
        let cityKey: String
        /// What a run switches.
        let targets: SwitchTargets

        init(_ listing: Listing, devices: [HomeConfiguration]) {
            self.listing = listing
            cityKey = "\(listing.city.lowercased()),\(WeatherService.countryCode(for: listing.country) ?? "")"
            targets = SwitchTargets(listing: listing.id, city: listing.city,
                                    heating: WatchedSwitch.all(of: .heating, in: devices),
                                    cooling: WatchedSwitch.all(of: .cooling, in: devices))
        }
    }

    /// The part of a watched listing a run reads (small, so runs copy little).
    private struct SwitchTargets: Sendable {
        let listing: ListingID
        /// The listing's city as log lines name it.
        let city: String
        /// The `switch` Items of its heating configurations, sorted by name then id.
        let heating: [WatchedSwitch]
        /// The `switch` Items of its cooling configurations, sorted by name then id.
        let cooling: [WatchedSwitch]
    }

    /// One device's `switch` Item and the device name log lines use.
    private struct WatchedSwitch: Sendable {
        let name: String
        let item: String

        /// The switches of the configurations of `type`, sorted by name then id (devices without a
        /// `switch` Item are left out).
        static func all(of type: HomeConfigurationType, in devices: [HomeConfiguration]) -> [WatchedSwitch] {
            devices.filter { $0.type == type }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
                .compactMap { device in device.items["switch"].map { WatchedSwitch(name: device.name, item: $0) } }
        }
    }

    /// The listings of one city in a run: one request, then each listing in id order.
    private struct CityRun: Sendable {
        let key: String
        /// The city and country the request names (those of the listing with the smallest id).
        let city: String
        let country: String
        var listings: [SwitchTargets]
    }

    /// Why a switch is wanted ON or OFF, put into words only when a log line quotes it:
    /// `Budapest reports 3.0 °C, below 15.0 °C`.
    private struct SwitchReason {
        let city: String
        let observation: WeatherObservation
        /// The listing's calendar: the last good observation's time is given in local time, like the log.
        let calendar: LocalCalendar
        /// `below` / `not below`, `above` / `not above`.
        let comparison: String
        let thresholdText: String

        var text: String {
            let source: String
            if observation.isStale {
                source = "\(city) feed failed (\(observation.staleBecause ?? "error")); last known \(AutomationText.celsius(observation.tempC)) observed \(calendar.localDateTime(at: observation.observedAt))"
            } else {
                source = "\(city) reports \(AutomationText.celsius(observation.tempC))"
            }
            return "\(source), \(comparison) \(thresholdText)"
        }
    }

    /// The cities of a time zone's run, sorted by key, each with its listings sorted by id.
    private func plan(timeZone: String) -> [CityRun] {
        if let plan = plans[timeZone] { return plan }
        let listings = watched.values.filter { $0.listing.timeZone == timeZone }.sorted { $0.listing.id < $1.listing.id }
        var cities: [CityRun] = []
        for listing in listings {
            if let i = cities.firstIndex(where: { $0.key == listing.cityKey }) {
                cities[i].listings.append(listing.targets)
            } else {
                cities.append(CityRun(key: listing.cityKey, city: listing.listing.city, country: listing.listing.country,
                                      listings: [listing.targets]))
            }
        }
        let plan = cities.sorted { $0.key < $1.key }
        plans[timeZone] = plan
        return plan
    }

    private func run(timeZone: String) async {
        for city in plan(timeZone: timeZone) {
            let observation = await weather.temperature(city: city.city, country: city.country)
            let failure = observation == nil ? await weather.lastError(city: city.city) : nil
            for listing in city.listings {
                await apply(observation, failure: failure, to: listing, calendar: calendars[timeZone] ?? .utc)
            }
        }
    }

    private func apply(_ observation: WeatherObservation?, failure: WeatherErrorRecord?, to listing: SwitchTargets,
                       calendar: LocalCalendar) async {
        guard let observation else {
            let why = failure.map { "\($0.code): \($0.message)" } ?? "the feed gave no answer"
            log.append(at: scheduler.now, automation: Self.name, listing: listing.listing, action: "none",
                       reason: "no temperature for \(listing.city) yet (\(why)); nothing switched")
            return
        }
        if let threshold = configuration.heatOnBelowC, let thresholdText = heatThresholdText {
            let on = observation.tempC < threshold
            let reason = SwitchReason(city: listing.city, observation: observation, calendar: calendar,
                                      comparison: on ? "below" : "not below", thresholdText: thresholdText)
            await set(listing.heating, on: on, listing: listing.listing, reason: reason, stale: observation.isStale)
        }
        if let threshold = configuration.coolOnAboveC, let thresholdText = coolThresholdText {
            let on = observation.tempC > threshold
            let reason = SwitchReason(city: listing.city, observation: observation, calendar: calendar,
                                      comparison: on ? "above" : "not above", thresholdText: thresholdText)
            await set(listing.cooling, on: on, listing: listing.listing, reason: reason, stale: observation.isStale)
        }
    }

    private func set(_ switches: [WatchedSwitch], on: Bool, listing: ListingID, reason: SwitchReason, stale: Bool) async {
        let wanted = on ? "ON" : "OFF"
        for device in switches {
            do {
                let current = try await home.state(of: device.item)
                if current == wanted {
                    if stale {
                        log.append(at: scheduler.now, automation: Self.name, listing: listing,
                                   action: "\(device.name) switch stays \(wanted)", reason: reason.text)
                    }
                    continue
                }
                try await home.send(wanted, to: device.item)
                log.append(at: scheduler.now, automation: Self.name, listing: listing, action: "\(device.name) switch \(wanted)",
                           reason: reason.text)
            } catch {
                log.append(at: scheduler.now, automation: Self.name, listing: listing, action: "\(device.name) switch \(wanted) failed",
                           reason: "\(reason.text); \(error.code.rawValue): \(error.message)")
            }
        }
    }
}
