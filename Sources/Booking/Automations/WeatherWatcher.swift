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
/// - Runs are kernel recurrences (one per time zone of the watched listings), never tasks or sleeps.
public actor WeatherWatcher {
    /// The automation's name in the ``AutomationLog``.
    public static let name = "weatherWatcher"

    /// The thresholds and the schedule.
    public nonisolated let configuration: WeatherWatcherConfiguration
    private let kernel: SimulationKernel
    private let weather: WeatherService
    private let home: HomeCommander
    private let stays: any StayDirectory
    private let log: AutomationLog
    private var watched: [ListingID: Listing] = [:]
    /// Time-zone identifier → the recurrence running for it.
    private var timers: [String: TimerID] = [:]

    /// Creates the watcher; nothing runs until a listing is watched.
    /// - Parameters:
    ///   - configuration: thresholds and schedule.
    ///   - kernel: where the runs are scheduled.
    ///   - weather: the weather service (asked once per city per run).
    ///   - api: the openHAB API the commands go through.
    ///   - stays: where listings (city, country, time zone) are read.
    ///   - configurations: the listings' heating and cooling configurations.
    ///   - log: where every action is logged with its reason.
    public init(configuration: WeatherWatcherConfiguration, kernel: SimulationKernel, weather: WeatherService,
                api: any OpenHABAPI, stays: any StayDirectory, configurations: any HomeConfigurationRepository,
                log: AutomationLog) {
        self.configuration = configuration
        self.kernel = kernel
        self.weather = weather
        self.home = HomeCommander(api: api, configurations: configurations)
        self.stays = stays
        self.log = log
    }

    /// Starts watching a listing; the first run is the next scheduled minute strictly after now.
    /// - Throws: `listing.notFound`; `listing.invalid` for an unknown time zone; `configuration.invalid`
    ///   for a schedule the kernel refuses (e.g. `atMinute` outside `0..<everyMinutes`).
    public func watch(_ id: ListingID) async throws(BookingError) {
        let listing = try await stays.listing(id)
        let zone = listing.timeZone
        if timers[zone] == nil {
            let calendar: LocalCalendar
            do {
                calendar = try LocalCalendar(identifier: zone)
            } catch {
                throw BookingError(.listingInvalid, "Listing \(id) has the time zone \"\(zone)\", which is unknown: \(error.message)")
            }
            do {
                timers[zone] = try kernel.every(minutes: configuration.everyMinutes, atMinute: configuration.atMinute,
                                                in: calendar, label: "\(Self.name) \(zone)") { [self] _ in
                    await self.run(timeZone: zone)
                }
            } catch {
                throw BookingError(.configurationInvalid, "The weather watcher's schedule is invalid: \(error.message)")
            }
        }
        watched[id] = listing
    }

    /// Stops watching a listing (its time zone's recurrence stops when no listing is left in it).
    public func unwatch(_ id: ListingID) {
        guard let listing = watched.removeValue(forKey: id) else { return }
        if !watched.values.contains(where: { $0.timeZone == listing.timeZone }), let timer = timers.removeValue(forKey: listing.timeZone) {
            kernel.cancel(timer)
        }
    }

    /// The watched listings, sorted.
    public var watchedListings: [ListingID] { watched.keys.sorted() }

    /// Cancels every scheduled run.
    public func stop() {
        for zone in timers.keys.sorted() {
            if let timer = timers[zone] { kernel.cancel(timer) }
        }
        timers.removeAll()
    }

    /// One run over every watched listing (the scheduled runs call this per time zone).
    public func runNow() async {
        for zone in Set(watched.values.map(\.timeZone)).sorted() { await run(timeZone: zone) }
    }

    // MARK: Private

    private func run(timeZone: String) async {
        let listings = watched.values.filter { $0.timeZone == timeZone }.sorted { $0.id < $1.id }
        var cities: [(key: String, city: String, country: String, listings: [Listing])] = []
        for listing in listings {
            let key = "\(listing.city.lowercased()),\(WeatherService.countryCode(for: listing.country) ?? "")"
            if let i = cities.firstIndex(where: { $0.key == key }) {
                cities[i].listings.append(listing)
            } else {
                cities.append((key, listing.city, listing.country, [listing]))
            }
        }
        for city in cities.sorted(by: { $0.key < $1.key }) {
            let observation = await weather.temperature(city: city.city, country: city.country)
            let failure = observation == nil ? await weather.lastError(city: city.city) : nil
            for listing in city.listings {
                await apply(observation, failure: failure, to: listing)
            }
        }
    }

    private func apply(_ observation: WeatherObservation?, failure: WeatherErrorRecord?, to listing: Listing) async {
        let now = kernel.now
        guard let observation else {
            let why = failure.map { "\($0.code): \($0.message)" } ?? "the feed gave no answer"
            log.append(at: now, automation: Self.name, listing: listing.id, action: "none",
                       reason: "no temperature for \(listing.city) yet (\(why)); nothing switched")
            return
        }
        let source: String
        if observation.isStale {
            source = "\(listing.city) feed failed (\(observation.staleBecause ?? "error")); last known \(AutomationText.celsius(observation.tempC)) observed \(observation.observedAt)"
        } else {
            source = "\(listing.city) reports \(AutomationText.celsius(observation.tempC))"
        }
        if let threshold = configuration.heatOnBelowC {
            let on = observation.tempC < threshold
            let why = "\(source), \(on ? "below" : "not below") \(AutomationText.celsius(threshold))"
            await set(.heating, on: on, listing: listing.id, reason: why, stale: observation.isStale)
        }
        if let threshold = configuration.coolOnAboveC {
            let on = observation.tempC > threshold
            let why = "\(source), \(on ? "above" : "not above") \(AutomationText.celsius(threshold))"
            await set(.cooling, on: on, listing: listing.id, reason: why, stale: observation.isStale)
        }
    }

    private func set(_ type: HomeConfigurationType, on: Bool, listing: ListingID, reason: String, stale: Bool) async {
        let now = kernel.now
        let wanted = on ? "ON" : "OFF"
        let devices: [HomeConfiguration]
        do {
            devices = try await home.devices(of: listing, type: type)
        } catch {
            log.append(at: now, automation: Self.name, listing: listing, action: "none",
                       reason: "cannot read the \(type.rawValue) configurations: \(error.code.rawValue): \(error.message)")
            return
        }
        for device in devices {
            guard let item = device.items["switch"] else { continue }
            do {
                let current = try await home.state(of: item)
                if current == wanted {
                    if stale {
                        log.append(at: now, automation: Self.name, listing: listing, action: "\(device.name) switch stays \(wanted)", reason: reason)
                    }
                    continue
                }
                try await home.send(wanted, to: item)
                log.append(at: now, automation: Self.name, listing: listing, action: "\(device.name) switch \(wanted)", reason: reason)
            } catch {
                log.append(at: now, automation: Self.name, listing: listing, action: "\(device.name) switch \(wanted) failed",
                           reason: "\(reason); \(error.code.rawValue): \(error.message)")
            }
        }
    }
}
