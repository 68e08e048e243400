import Simulation
import SmartHome
import Weather

/// Makes the flat warm at check-in: for every confirmed reservation it sets the listing's heating
/// setpoints to ``PreheatConfiguration/comfortC`` and switches heating ON ahead of the check-in moment.
///
/// - **Fixed mode**: at check-in − `lead`.
/// - **Smart mode**: at the planning instant (check-in − ``PreheatConfiguration/planningHorizon``, or
///   at booking if later) it reads the room temperature Item and the OpenWeatherMap 5-day/3-hour
///   forecast (plus the current temperature as the first knot), and computes with ``PreheatPlanner``
///   the latest start from which full heating reaches comfort exactly at check-in; heating goes on
///   ``PreheatConfiguration/startMargin`` earlier than that. It also reads the heating `switch` and
///   `setpoint` Items: a heating switched ON at a lower setpoint `S` (a setback) keeps the room from
///   falling below `S − h/2` (``PreheatModel/floorC(setpointC:)``, `h` the model's hysteresis,
///   0.5 K unless told — openHAB does not expose it), and the planner is given that floor (the highest
///   over the listing's heating devices that are ON). Without a model, a room temperature or any
///   weather it falls back to the fixed `fallbackLead`. The plan is made once; weather that departs
///   from the forecast, or a switch or setpoint changed afterwards, is not corrected for.
/// - A plan or start that falls before the check-out moment of another stay of the same listing is
///   deferred to that moment (after the previous guest's setback), so one stay's preheat never
///   fights another's check-out.
/// - A cancelled reservation's timers are cancelled; a start also re-checks that the reservation is
///   still live. Everything runs on kernel timers; every step is logged with its reason.
public actor Preheat: ReservationObserver {
    /// The automation's name in the ``AutomationLog``.
    public static let name = "preheat"

    /// Mode, comfort temperature, planning settings.
    public nonisolated let configuration: PreheatConfiguration
    private let scheduler: any SimulationScheduler
    private let stays: any StayDirectory
    private let home: HomeCommander
    private let weather: WeatherService
    private let log: AutomationLog
    private var timers: [ReservationID: TimerID] = [:]
    private var planned: [ReservationID: PreheatPlan] = [:]
    private var handled: Set<ReservationID> = []

    /// Creates the automation; register it as a ``ReservationObserver`` of the reservation service.
    /// - Parameters:
    ///   - configuration: mode and comfort temperature.
    ///   - scheduler: where the plans and starts are scheduled.
    ///   - stays: listings and reservations.
    ///   - api: the openHAB API the commands go through.
    ///   - configurations: the listings' heating configurations.
    ///   - weather: the forecast for smart mode.
    ///   - log: where every step is logged.
    public init(configuration: PreheatConfiguration, scheduler: any SimulationScheduler, stays: any StayDirectory,
                api: any OpenHABAPI, configurations: any HomeConfigurationRepository, weather: WeatherService,
                log: AutomationLog) {
        self.configuration = configuration
        self.scheduler = scheduler
        self.stays = stays
        self.home = HomeCommander(api: api, configurations: configurations)
        self.weather = weather
        self.log = log
    }

    /// Plans preheat for a newly confirmed reservation; cancels it for a cancelled one.
    public func reservationDidChange(_ reservation: Reservation, previous: ReservationStatus?) async {
        switch reservation.status {
        case .confirmed:
            guard !handled.contains(reservation.id) else { return }
            handled.insert(reservation.id)
            await schedule(reservation)
        case .cancelled, .checkedOut:
            guard let timer = timers.removeValue(forKey: reservation.id) else { return }
            scheduler.cancel(timer)
            log.append(at: scheduler.now, automation: Self.name, listing: reservation.listing, action: "cancelled",
                       reason: "\(reservation.id) is \(reservation.status.rawValue); its preheat will not run")
        case .checkedIn:
            break
        }
    }

    /// The plans made so far (fixed starts at booking, smart ones at their planning instant), by check-in then reservation.
    public var plans: [PreheatPlan] { planned.values.sorted { ($0.checkIn, $0.reservation) < ($1.checkIn, $1.reservation) } }

    /// The plan of one reservation, if made.
    public func plan(for id: ReservationID) -> PreheatPlan? { planned[id] }

    /// Reservations with a pending preheat timer, sorted.
    public var pendingReservations: [ReservationID] { timers.keys.sorted() }

    // MARK: Scheduling

    private func schedule(_ reservation: Reservation) async {
        let now = scheduler.now
        let listing: Listing, calendar: LocalCalendar
        do {
            listing = try await stays.listing(reservation.listing)
            calendar = try listing.calendar()
        } catch {
            log.append(at: now, automation: Self.name, listing: reservation.listing, action: "none",
                       reason: "cannot plan \(reservation.id): \(error.code.rawValue): \(error.message)")
            return
        }
        let checkIn = listing.checkInInstant(on: reservation.checkIn, calendar: calendar)
        guard checkIn > now else {
            log.append(at: now, automation: Self.name, listing: listing.id, action: "none",
                       reason: "check-in of \(reservation.id) at \(AutomationText.local(checkIn, calendar)) has already passed")
            return
        }
        switch configuration.mode {
        case .fixed(let lead):
            setStart(reservation.id, listing: listing.id, checkIn: checkIn, at: checkIn - lead, basis: .fixed, predictedC: nil,
                     reason: "fixed lead \(lead) before check-in \(AutomationText.local(checkIn, calendar)) of \(reservation.id)",
                     calendar: calendar)
        case .smart(let models, let fallbackLead):
            guard models[listing.id] != nil else {
                setStart(reservation.id, listing: listing.id, checkIn: checkIn, at: checkIn - fallbackLead, basis: .fallback,
                         predictedC: nil,
                         reason: "no thermal model for \(listing.id); fallback lead \(fallbackLead) before check-in \(AutomationText.local(checkIn, calendar)) of \(reservation.id)",
                         calendar: calendar)
                return
            }
            let planAt = max(checkIn - configuration.planningHorizon, now)
            let id = reservation.id, listingID = listing.id
            timers[id] = scheduler.schedule(at: planAt, label: "preheat plan \(id)") { [self] _ in
                await self.makePlan(id, listing: listingID)
            }
        }
    }

    /// Records the plan and schedules the switch-on at `desired` (or now, if that has passed).
    private func setStart(_ id: ReservationID, listing: ListingID, checkIn: SimInstant, at desired: SimInstant,
                          basis: PreheatPlan.Basis, predictedC: Double?, reason: String, calendar: LocalCalendar) {
        let now = scheduler.now
        let start = max(desired, now)
        let late = desired < now ? " (the ideal start \(AutomationText.local(desired, calendar)) has passed: starting now)" : ""
        let plan = PreheatPlan(reservation: id, listing: listing, checkIn: checkIn, start: start, basis: basis,
                               predictedC: predictedC, reason: reason + late)
        planned[id] = plan
        log.append(at: now, automation: Self.name, listing: listing,
                   action: "plan heating ON at \(AutomationText.local(start, calendar))", reason: plan.reason)
        timers[id] = scheduler.schedule(at: start, label: "preheat \(id)") { [self] _ in
            await self.start(id, listing: listing)
        }
    }

    // MARK: Smart planning

    private func makePlan(_ id: ReservationID, listing listingID: ListingID) async {
        timers[id] = nil
        let now = scheduler.now
        guard let (reservation, listing, calendar) = await live(id, listing: listingID) else { return }
        let checkIn = listing.checkInInstant(on: reservation.checkIn, calendar: calendar)
        if let busyUntil = await previousCheckOut(before: reservation, listing: listing, calendar: calendar) {
            log.append(at: now, automation: Self.name, listing: listingID,
                       action: "plan deferred to \(AutomationText.local(busyUntil, calendar))",
                       reason: "another stay checks out then; planning after its setback")
            timers[id] = scheduler.schedule(at: busyUntil, label: "preheat plan \(id)") { [self] _ in
                await self.makePlan(id, listing: listingID)
            }
            return
        }
        guard case .smart(let models, let fallbackLead) = configuration.mode, let model = models[listingID] else { return }
        func fallback(_ why: String) {
            setStart(id, listing: listingID, checkIn: checkIn, at: checkIn - fallbackLead, basis: .fallback, predictedC: nil,
                     reason: "\(why); fallback lead \(fallbackLead) before check-in \(AutomationText.local(checkIn, calendar))",
                     calendar: calendar)
        }
        guard let roomC = await roomTemperature(of: listingID) else {
            fallback("no room temperature for \(listingID)")
            return
        }
        let current = await weather.temperature(city: listing.city, country: listing.country)
        let fresh = current.flatMap { $0.isStale ? nil : $0.tempC }
        let outdoor: OutdoorProfile
        let weatherText: String
        do {
            let forecast = try await weather.forecast(city: listing.city, country: listing.country)
            guard let profile = OutdoorProfile(forecast: forecast, current: fresh, now: now) else {
                fallback("the forecast for \(listing.city) is empty")
                return
            }
            outdoor = profile
            let atCheckIn = profile.temperatureC(at: checkIn)
            weatherText = "outdoor \(fresh.map(AutomationText.celsius) ?? "?") now, \(AutomationText.celsius(atCheckIn)) forecast at check-in"
        } catch {
            guard let known = current?.tempC, let profile = OutdoorProfile.constant(known) else {
                fallback("no weather for \(listing.city) (\(error.code.rawValue))")
                return
            }
            outdoor = profile
            weatherText = "forecast unavailable (\(error.code.rawValue)); assuming \(AutomationText.celsius(known)) outdoors throughout"
        }
        let floor = await heatingFloor(of: listingID, model: model)
        let planner = PreheatPlanner(model: model)
        guard let estimate = planner.latestStart(now: now, roomC: roomC, checkIn: checkIn, comfortC: configuration.comfortC,
                                                 outdoor: outdoor, floorC: floor.floorC) else {
            fallback("the thermal model cannot plan with room \(AutomationText.celsius(roomC))")
            return
        }
        let floorText: String
        if let floorC = floor.floorC {
            floorText = estimate.floorC == nil
                ? "no floor (\(floor.text) cannot hold \(AutomationText.celsius2(floorC)) at full power through the forecast)"
                : "floor \(AutomationText.celsius2(floorC)) (\(floor.text))"
        } else {
            floorText = "no floor (\(floor.text))"
        }
        let start = max(estimate.latestStart - configuration.startMargin, now)
        var reason = "room \(AutomationText.celsius(roomC)), \(floorText), \(weatherText), \(model.parameters), \(DecimalNumber(model.heatingPowerW, fractionDigits: 0).text) W: "
        if !estimate.reachable {
            reason += "\(AutomationText.celsius(configuration.comfortC)) is out of reach by check-in \(AutomationText.local(checkIn, calendar)); full heating from now gives \(AutomationText.celsius2(estimate.predictedC))"
        } else if estimate.latestStart >= checkIn {
            reason += "warm enough without preheat (\(AutomationText.celsius2(estimate.unheatedC)) at check-in \(AutomationText.local(checkIn, calendar))); heating on \(configuration.startMargin) ahead to hold comfort"
        } else {
            reason += "latest start \(AutomationText.local(estimate.latestStart, calendar)) reaches \(AutomationText.celsius2(estimate.predictedC)) at check-in \(AutomationText.local(checkIn, calendar)) (without preheat \(AutomationText.celsius2(estimate.unheatedC))); starting \(configuration.startMargin) earlier"
        }
        setStart(id, listing: listingID, checkIn: checkIn, at: start, basis: .smart, predictedC: estimate.predictedC,
                 reason: reason, calendar: calendar)
    }

    /// The room temperature from the first heating device's `temperature` Item, °C.
    private func roomTemperature(of listing: ListingID) async -> Double? {
        guard let devices = try? await home.devices(of: listing, type: .heating) else { return nil }
        for device in devices {
            guard let item = device.items["temperature"], let text = try? await home.state(of: item),
                  let value = AutomationText.number(fromState: text) else { continue }
            return value
        }
        return nil
    }

    /// The floor the listing's heating holds until preheat starts: the highest ``PreheatModel/floorC(setpointC:)``
    /// over its heating devices whose `switch` Item is `ON` and whose `setpoint` Item reads as a number, with
    /// a text saying where it came from (`heating ON at 16.0 °C, hysteresis 0.5 K`) or why there is none
    /// (`heating OFF`).
    private func heatingFloor(of listing: ListingID, model: PreheatModel) async -> (floorC: Double?, text: String) {
        guard let devices = try? await home.devices(of: listing, type: .heating), !devices.isEmpty else {
            return (nil, "no heating configuration")
        }
        var best: (floorC: Double, setpointC: Double, device: String)?
        var unreadable: [String] = []
        for device in devices {
            guard let switchItem = device.items["switch"], let state = try? await home.state(of: switchItem) else {
                unreadable.append(device.name)
                continue
            }
            guard state == "ON" else { continue }
            guard let setpointItem = device.items["setpoint"], let text = try? await home.state(of: setpointItem),
                  let setpointC = AutomationText.number(fromState: text) else {
                unreadable.append(device.name)
                continue
            }
            let floorC = model.floorC(setpointC: setpointC)
            if best.map({ floorC > $0.floorC }) ?? true { best = (floorC, setpointC, device.name) }
        }
        if let best {
            let hysteresis = DecimalNumber(model.hysteresisK).text
            return (best.floorC, "\(best.device) ON at \(AutomationText.celsius(best.setpointC)), hysteresis \(hysteresis) K")
        }
        if !unreadable.isEmpty {
            return (nil, "switch or setpoint of \(unreadable.joined(separator: ", ")) unreadable")
        }
        return (nil, "heating OFF")
    }

    // MARK: Starting

    private func start(_ id: ReservationID, listing listingID: ListingID) async {
        timers[id] = nil
        let now = scheduler.now
        guard let (reservation, listing, calendar) = await live(id, listing: listingID) else { return }
        if let busyUntil = await previousCheckOut(before: reservation, listing: listing, calendar: calendar) {
            log.append(at: now, automation: Self.name, listing: listingID,
                       action: "heating ON deferred to \(AutomationText.local(busyUntil, calendar))",
                       reason: "another stay checks out then; starting after its setback")
            timers[id] = scheduler.schedule(at: busyUntil, label: "preheat \(id)") { [self] _ in
                await self.start(id, listing: listingID)
            }
            return
        }
        let checkIn = listing.checkInInstant(on: reservation.checkIn, calendar: calendar)
        let reason = (planned[id]?.reason ?? "preheat") + " — for check-in \(AutomationText.local(checkIn, calendar)) of \(id)"
        let devices: [HomeConfiguration]
        do {
            devices = try await home.devices(of: listingID, type: .heating)
        } catch {
            log.append(at: now, automation: Self.name, listing: listingID, action: "none",
                       reason: "cannot read the heating configurations: \(error.code.rawValue): \(error.message)")
            return
        }
        if devices.isEmpty {
            log.append(at: now, automation: Self.name, listing: listingID, action: "none", reason: "\(listingID) has no heating; \(reason)")
        }
        let comfort = configuration.comfortC
        for device in devices {
            do {
                if let setpoint = device.items["setpoint"] {
                    try await home.send(AutomationText.setpointCommand(comfort), to: setpoint)
                }
                if let power = device.items["switch"] {
                    try await home.send("ON", to: power)
                }
                log.append(at: now, automation: Self.name, listing: listingID,
                           action: "\(device.name) setpoint \(AutomationText.celsius(comfort)), switch ON", reason: reason)
            } catch {
                log.append(at: now, automation: Self.name, listing: listingID, action: "\(device.name) preheat failed",
                           reason: "\(reason); \(error.code.rawValue): \(error.message)")
            }
        }
    }

    // MARK: Helpers

    /// The reservation, its listing and calendar, if it is still live; logs why not otherwise.
    private func live(_ id: ReservationID, listing listingID: ListingID) async -> (Reservation, Listing, LocalCalendar)? {
        let now = scheduler.now
        do {
            let listing = try await stays.listing(listingID)
            let calendar = try listing.calendar()
            guard let reservation = try await stays.reservation(id, ofListing: listingID) else {
                log.append(at: now, automation: Self.name, listing: listingID, action: "none", reason: "\(id) no longer exists")
                return nil
            }
            guard reservation.status == .confirmed || reservation.status == .checkedIn else {
                log.append(at: now, automation: Self.name, listing: listingID, action: "none",
                           reason: "\(id) is \(reservation.status.rawValue); no preheat")
                return nil
            }
            return (reservation, listing, calendar)
        } catch {
            log.append(at: now, automation: Self.name, listing: listingID, action: "none",
                       reason: "cannot read \(id): \(error.code.rawValue): \(error.message)")
            return nil
        }
    }

    /// The latest check-out moment of another live stay of the listing in `(now, check-in]`, if any.
    private func previousCheckOut(before reservation: Reservation, listing: Listing,
                                  calendar: LocalCalendar) async -> SimInstant? {
        let now = scheduler.now
        let checkIn = listing.checkInInstant(on: reservation.checkIn, calendar: calendar)
        guard let all = try? await stays.reservations(ofListing: listing.id) else { return nil }
        return all.filter { $0.id != reservation.id && $0.status.holdsNights && $0.status != .checkedOut }
            .map { listing.checkOutInstant(on: $0.checkOut, calendar: calendar) }
            .filter { $0 > now && $0 <= checkIn }
            .max()
    }
}
