import Physics
import Simulation
import SmartHome
import Synchronization

/// One listing's room: the exact 1R1C temperature, the devices that heat or cool it, and their
/// energy meters — advanced from event to event, never by stepping.
///
/// The zone keeps one kernel timer: the earliest of the next thermostat switching crossing,
/// the next 0.1 K temperature report and the end of the current outdoor segment. At every
/// change (a command, a guest arriving, a timer) it integrates energy up to now exactly,
/// starts a new ``ZoneSegment`` from the current temperature, applies the thermostats'
/// hysteresis, re-plans its timer and tells each device's observer.
///
/// The zone is a class whose state sits behind a `Mutex` (``Core``) rather than an actor: every call runs on
/// its caller's executor (`nonisolated(nonsending)`), so the kernel's timer, the device handlers and the
/// meters reach it without a hop. The state changes under the lock; observers are told after it, outside it.
public final class ThermalZone: Sendable {
    /// The zone's name (the listing id).
    public let id: String
    /// Its configuration.
    public let configuration: ZoneConfiguration
    /// Everything that changes, with the synchronous work on it.
    private let core: Mutex<Core>

    /// The most timer events a zone may make in one simulated hour. Validated parameters give at most a few
    /// thousand (0.1 K reports and thermostat switching at the fastest rate the bounds allow); above this
    /// the zone stops the run (`run.stalled`) rather than storm.
    public static let maxTimerEventsPerHour = 100_000

    /// A zone at its initial temperature, starting at the kernel's current time.
    /// - Throws: ``DevicesError`` if the outdoor temperature is not a finite number.
    public init(id: String, configuration: ZoneConfiguration, kernel: SimulationKernel,
                outdoor: any OutdoorTemperatureSource) throws(DevicesError) {
        self.id = id
        self.configuration = configuration
        core = Mutex(try Core(id: id, configuration: configuration, kernel: kernel, outdoor: outdoor))
        // What the zone's kernel timer runs, made once rather than per plan: a kernel step, so an event whose
        // observers all take a plain call makes no suspension. It holds the zone weakly: the zone keeps it,
        // and a zone nobody else holds has nobody to report to.
        let step: SimulationKernel.Step = { [weak self] _ in self?.timerFired() }
        core.withLock { $0.timerStep = step }
    }

    // MARK: Reading

    /// The exact room temperature now, °C.
    public nonisolated(nonsending) func temperatureC() async -> Double { core.withLock { $0.temperatureC() } }

    /// The room temperature as last reported on temperature channels (0.1 K steps), °C.
    public nonisolated(nonsending) func reportedTemperatureC() async -> Double { core.withLock { $0.reportedC } }

    /// The number of guests present.
    public nonisolated(nonsending) func guestCount() async -> Int { core.withLock { $0.guests } }

    /// The net heat input now, W.
    public nonisolated(nonsending) func heatInputW() async -> Double { core.withLock { $0.segment.heatInputW } }

    /// A device's reading now (energy integrated up to this instant).
    /// - Throws: ``DevicesError`` `device.notFound`.
    public nonisolated(nonsending) func reading(_ deviceID: String) async throws(DevicesError) -> DeviceReading {
        try core.withLock { core throws(DevicesError) in try core.reading(deviceID) }
    }

    /// ∫ T dt since the start, K·s (exact), for mean indoor temperatures.
    public nonisolated(nonsending) func temperatureIntegralKelvinSeconds() async -> Double {
        core.withLock { $0.temperatureIntegralKelvinSeconds() }
    }

    /// Every meter of the zone now, integrated exactly up to this instant (for reports and expectations).
    public nonisolated(nonsending) func meter() async -> ZoneMeter { meterNow() }

    /// ``meter()`` as a plain call: the meters read every zone at every timeseries tick, without an async call each.
    public func meterNow() -> ZoneMeter { core.withLock { $0.meter() } }

    // MARK: Membership

    /// Adds a thermostat. - Throws: ``DevicesError`` `device.duplicate`.
    public nonisolated(nonsending) func addThermostat(_ deviceID: String, _ configuration: ThermostatConfiguration,
                                                      observer: (any ZoneDeviceObserver)?) async throws(DevicesError) {
        let member = Member(id: deviceID, model: .thermostat(ThermostatModel(configuration: configuration)), observer: observer)
        try core.withLock { core throws(DevicesError) in try core.add(member) }
    }

    /// Adds a smart plug. - Throws: ``DevicesError`` `device.duplicate`.
    public nonisolated(nonsending) func addPlug(_ deviceID: String, _ configuration: SmartPlugConfiguration,
                                                observer: (any ZoneDeviceObserver)?) async throws(DevicesError) {
        let member = Member(id: deviceID, model: .plug(relayOn: configuration.initiallyOn, configuration), observer: observer)
        try core.withLock { core throws(DevicesError) in try core.add(member) }
    }

    /// Forgets every device's observer (its handler, which holds this zone): a finished world lets go of both.
    public nonisolated(nonsending) func detachObservers() async {
        let detached = core.withLock { core in
            defer { core.detachObservers() }
            return core.members
        }
        _ = detached  // the observers are released here, outside the lock
    }

    // MARK: Changes

    /// Switches a thermostat on or off, or a plug's relay. - Throws: `device.notFound`.
    public nonisolated(nonsending) func setSwitch(_ deviceID: String, on: Bool) async throws(DevicesError) {
        let news = try core.withLock { core throws(DevicesError) in try core.setSwitch(deviceID, on: on) }
        await publish(news)
    }

    /// Sets a thermostat's setpoint (clamped to its range). - Returns: the value taken, °C.
    /// - Throws: `device.notFound` (also for a device that is not a thermostat).
    @discardableResult
    public nonisolated(nonsending) func setSetpoint(_ deviceID: String, celsius: Double) async throws(DevicesError) -> Double {
        let (taken, news) = try core.withLock { core throws(DevicesError) in try core.setSetpoint(deviceID, celsius: celsius) }
        await publish(news)
        return taken
    }

    /// Sets the number of guests present (each adds ``ZoneConfiguration/gainPerGuestW``).
    public nonisolated(nonsending) func setGuests(_ count: Int) async {
        let news = core.withLock { $0.setGuests(count) }
        await publish(news)
    }

    /// From now on, every change of a device's electric power is logged with its instant and handed
    /// out with the next ``meter()`` (reports draw heater on-periods and count heater cycles from
    /// them): the devices' physical switching, whatever their Things report.
    public nonisolated(nonsending) func logPowerChanges() async { core.withLock { $0.logPowerChanges() } }

    /// Asks every device observer to report (e.g. after a Thing comes back ONLINE).
    public nonisolated(nonsending) func refresh() async { await publish(core.withLock { $0.news() }) }

    // MARK: The engine

    /// The kernel step at the planned instant: the zone's event and what its observers are told with a plain
    /// call; what is left for an observer that must be awaited (``publishNow(_:from:)``), or `nil`.
    private func timerFired() -> SimulationKernel.Handler? {
        guard let news = core.withLock({ $0.timerFired() }) else { return nil }
        guard let pending = publishNow(news, from: 0) else { return nil }
        return { _ in await self.publish(news, after: pending) }
    }

    /// Tells each device's observer its reading in `news`, in device order (see ``publishNow(_:from:)``),
    /// awaiting the observers that need it.
    private nonisolated(nonsending) func publish(_ news: Core.News) async {
        guard let pending = publishNow(news, from: 0) else { return }
        await publish(news, after: pending)
    }

    /// Awaits `pending` and tells the observers after it.
    private nonisolated(nonsending) func publish(_ news: Core.News, after pending: Pending) async {
        var pending = pending
        while true {
            let index: Int
            switch pending {
            case .callback(let box, let updates, let i):
                await box.callback.statesUpdated(updates)
                index = i
            case .observer(let i):
                let reading = Core.makeReading(news.members[i].model, energyJ: news.members[i].energyJ,
                                               reportedC: news.reportedC, reportedState: news.reportedState)
                await news.members[i].observer?.zoneDidUpdateWithoutHop(reading)
                index = i
            }
            guard let next = publishNow(news, from: index + 1) else { return }
            pending = next
        }
    }

    /// An observer's news that must be awaited: a handler's updates for a callback that is not the openHAB
    /// runtime (already recorded as reported), or another observer, not yet told; with the member's index.
    private enum Pending {
        case callback(ZoneDeviceHandler.CallbackBox, [(channel: ChannelHandle, state: State)], Int)
        case observer(Int)
    }

    /// Tells the observers in `news` from member `start` on their readings with plain calls, in device order: a
    /// handler of this module through ``ZoneDeviceHandler/reportNow(_:at:)``, which reports to the openHAB runtime
    /// with plain calls (``OpenHABRuntime/stateReported(_:from:route:at:)``) — the device path without a suspension. Stops at the
    /// first observer that must be awaited and returns what it is owed; `nil` when every observer was told.
    @inline(__always)
    private func publishNow(_ news: Core.News, from start: Int) -> Pending? {
        let members = news.members
        var i = start
        while i < members.count {
            if let handler = members[i].handler {
                let reading = Core.makeReading(members[i].model, energyJ: members[i].energyJ,
                                               reportedC: news.reportedC, reportedState: news.reportedState)
                // As handler.zoneDidUpdateWithoutHop(_:), without its async frame.
                if let (box, updates) = handler.reportNow(reading, at: news.now) { return .callback(box, updates, i) }
            } else if members[i].observer != nil {
                return .observer(i)
            }
            i += 1
        }
        return nil
    }

    /// A device living in the zone.
    private struct Member {
        /// What the device is and does (plain values: the hot paths read it without touching ``id`` or the observers).
        enum Model: Sendable {
            case thermostat(ThermostatModel)
            case plug(relayOn: Bool, SmartPlugConfiguration)

            /// What the device draws when idle, W (a plug's standby; 0 for thermostats).
            var standbyW: Double {
                switch self {
                case .thermostat: return 0
                case .plug(_, let c): return c.standbyW
                }
            }

            var isActive: Bool { powerW > standbyW }

            var powerW: Double {
                switch self {
                case .thermostat(let t): return t.powerW
                case .plug(let on, let c): return on ? c.loadW : c.standbyW
                }
            }

            var heatW: Double {
                switch self {
                case .thermostat(let t): return t.heatW
                case .plug: return powerW  // a plug's electricity all ends up as heat indoors
                }
            }
        }

        let id: String
        var model: Model
        var energyJ: Double = 0
        /// Seconds spent drawing more than standby.
        var activeSeconds: Double = 0
        var observer: (any ZoneDeviceObserver)?
        /// The observer when it is this module's handler, told without a dynamic dispatch (see ``publish(_:)``).
        var handler: ZoneDeviceHandler?

        init(id: String, model: Model, observer: (any ZoneDeviceObserver)?) {
            self.id = id
            self.model = model
            self.observer = observer
            handler = observer as? ZoneDeviceHandler
        }

        var isActive: Bool { model.isActive }
        var powerW: Double { model.powerW }
    }

    /// The zone's state and the synchronous work on it (what the actor's isolation guarded before).
    private struct Core {
        /// What observers are told after a change: the devices as they are now, whatever an observer sets off
        /// meanwhile, the reported temperature and the instant.
        struct News {
            var members: [Member]
            var reportedC: Double
            var reportedState: State
            var now: SimInstant
        }

        let id: String
        let configuration: ZoneConfiguration
        private let kernel: SimulationKernel
        private let outdoor: any OutdoorTemperatureSource
        /// The label of the zone's kernel timer, made once rather than per plan.
        private let timerLabel: String
        /// What the zone's kernel timer runs (set by the zone once it is made).
        var timerStep: SimulationKernel.Step?
        /// The zone's pending kernel timer.
        private var timer: TimerID?

        private var anchor: SimInstant
        var segment: ZoneSegment
        /// The outdoor segment containing ``anchor``; the source is asked again only once time leaves it.
        private var outdoorPiece: OutdoorTemperatureSegment
        private var outdoorEnd: SimInstant? { outdoorPiece.end }
        var guests = 0
        var members: [Member] = []
        /// The members' indices by device id: the order meters list devices in (sorted once, not per read).
        private var meterOrder: [Int] = []
        var reportedC: Double { didSet { reportedState = DeviceChannel.temperature(reportedC) } }
        /// The temperature channels' state for ``reportedC``.
        private var reportedState: State
        /// With ``logPowerChanges()``: each device's power as last logged, and the changes the next meter reading takes.
        private var powerLog: (logged: [Double], pending: [ZoneMeter.PowerChange])?
        private var temperatureIntegralKs = 0.0
        private var discomfortKs = 0.0
        private var occupiedSeconds = 0.0
        /// The start of the current simulated hour of the runaway guard, and the zone's timer events in it.
        private var guardWindowStart: SimInstant
        private var guardWindowEvents = 0

        init(id: String, configuration: ZoneConfiguration, kernel: SimulationKernel,
             outdoor: any OutdoorTemperatureSource) throws(DevicesError) {
            self.id = id
            self.configuration = configuration
            self.kernel = kernel
            self.outdoor = outdoor
            timerLabel = "zone \(id)"
            let now = kernel.now
            let piece = outdoor.outdoorSegment(at: now)
            anchor = now
            guardWindowStart = now
            outdoorPiece = piece
            reportedC = Self.round(configuration.initialC)
            reportedState = DeviceChannel.temperature(reportedC)
            do {
                segment = try ZoneSegment(parameters: configuration.parameters, initialCelsius: configuration.initialC,
                                          outdoorCelsius: piece.celsius(at: now),
                                          outdoorSlopeKPerSecond: piece.slopeKPerSecond, heatInputW: 0)
            } catch {
                throw DevicesError(.invalidParameter, "zone \(id): \(error.message)")
            }
        }

        // MARK: Reading

        mutating func temperatureC() -> Double {
            catchUp()
            return segment.temperature(at: (kernel.now - anchor).seconds)
        }

        func reading(_ deviceID: String) throws(DevicesError) -> DeviceReading {
            let index = try indexOf(deviceID)
            var reading = Self.makeReading(members[index].model, energyJ: members[index].energyJ,
                                           reportedC: reportedC, reportedState: reportedState)
            reading.energyKWh += members[index].powerW * (kernel.now - anchor).seconds / 3.6e6
            return reading
        }

        mutating func temperatureIntegralKelvinSeconds() -> Double {
            catchUp()
            return temperatureIntegralKs + segment.integral(to: (kernel.now - anchor).seconds)
        }

        mutating func meter() -> ZoneMeter {
            catchUp()
            let now = kernel.now
            let elapsed = (now - anchor).seconds
            // Appended in a loop, into an array made at its size once.
            var devices: [ZoneMeter.Device] = []
            devices.reserveCapacity(meterOrder.count)
            for index in meterOrder {
                // Field by field: a copy of the whole member would retain its observers.
                let model = members[index].model
                var isOn = false
                var kind = ZoneMeter.DeviceKind.smartPlug
                switch model {
                case .thermostat(let t):
                    isOn = t.isEnabled
                    kind = t.configuration.mode == .heating ? .heating : .cooling
                case .plug(let on, _):
                    isOn = on
                }
                devices.append(ZoneMeter.Device(id: members[index].id, kind: kind, isOn: isOn, powerW: model.powerW,
                                                energyKWh: (members[index].energyJ + model.powerW * elapsed) / 3.6e6,
                                                activeSeconds: members[index].activeSeconds + (model.isActive ? elapsed : 0)))
            }
            let occupied = guests > 0
            var meter = ZoneMeter(at: now, indoorC: segment.temperature(at: elapsed),
                             outdoorC: Self.outdoorPiece(at: now, own: outdoorPiece, source: outdoor).celsius(at: now), guests: guests,
                             temperatureIntegralKs: temperatureIntegralKs + segment.integral(to: elapsed),
                             discomfortKs: discomfortKs + (occupied ? discomfortIncrement(elapsed) : 0),
                             occupiedSeconds: occupiedSeconds + (occupied ? elapsed : 0),
                             devices: devices)
            if powerLog != nil {
                meter.powerChanges = powerLog!.pending
                powerLog!.pending.removeAll(keepingCapacity: true)
            }
            return meter
        }

        /// ∫ max(0, comfort − T) dt over the current segment up to `elapsed`, K·s.
        private func discomfortIncrement(_ elapsed: Double) -> Double {
            segment.degreeHours(below: configuration.comfortC, upTo: elapsed) * 3_600
        }

        // MARK: Membership

        mutating func detachObservers() {
            for index in members.indices {
                members[index].observer = nil
                members[index].handler = nil
            }
        }

        mutating func add(_ member: Member) throws(DevicesError) {
            guard !members.contains(where: { $0.id == member.id }) else {
                throw DevicesError(.duplicateDevice, "zone \(id) already has a device \"\(member.id)\"; device ids must be unique per listing.")
            }
            advance()
            members.append(member)
            powerLog?.logged.append(member.powerW)
            meterOrder = members.indices.sorted { members[$0].id < members[$1].id }
            rebuildSegment()
            plan()
        }

        // MARK: Changes

        mutating func setSwitch(_ deviceID: String, on: Bool) throws(DevicesError) -> News {
            let index = try indexOf(deviceID)
            advance()
            switch members[index].model {
            case .thermostat(var t):
                t.setEnabled(on, roomC: segment.initialCelsius)
                members[index].model = .thermostat(t)
            case .plug(_, let c):
                members[index].model = .plug(relayOn: on, c)
            }
            return changed()
        }

        mutating func setSetpoint(_ deviceID: String, celsius: Double) throws(DevicesError) -> (taken: Double, news: News) {
            let index = try indexOf(deviceID)
            guard case .thermostat(var t) = members[index].model else {
                throw DevicesError(.deviceNotFound, "device \(deviceID) in zone \(id) is not a thermostat and has no setpoint.")
            }
            advance()
            let taken = t.setSetpoint(celsius, roomC: segment.initialCelsius)
            members[index].model = .thermostat(t)
            return (taken, changed())
        }

        mutating func setGuests(_ count: Int) -> News {
            advance()
            guests = max(0, count)
            return changed()
        }

        mutating func logPowerChanges() {
            guard powerLog == nil else { return }
            powerLog = (members.map(\.powerW), [])
        }

        /// The devices, the reported temperature and the clock as they are now.
        func news(at now: SimInstant? = nil) -> News {
            News(members: members, reportedC: reportedC, reportedState: reportedState, now: now ?? kernel.now)
        }

        // MARK: The engine

        /// The timer's event; `nil` when the runaway guard stopped the run.
        mutating func timerFired() -> News? {
            timer = nil
            let now = kernel.now
            if now - guardWindowStart >= .hours(1) {
                guardWindowStart = now
                guardWindowEvents = 0
            }
            guardWindowEvents += 1
            if guardWindowEvents > ThermalZone.maxTimerEventsPerHour {
                kernel.stop(SimulationError(.stalled,
                    "zone \(id) made more than \(ThermalZone.maxTimerEventsPerHour) temperature and thermostat events within one simulated hour from \(guardWindowStart); its parameters make the room change faster than a room can. Check the listing's thermal parameters and device powers."))
                return nil
            }
            advance(until: now)
            return changed(at: now)
        }

        /// Integrates energy and ∫T dt up to now and re-anchors the segment at now.
        ///
        /// A segment holds only until its outdoor piece ends. A zone with a timer is woken at every piece's
        /// end; a zone without one (no thermostat or plug: a lock-only flat) may sleep across many pieces until
        /// a guest arrives, so the pieces it slept through are walked one by one here.
        private mutating func advance() { advance(until: kernel.now) }

        /// ``advance()`` with the clock's `now` read by the caller (one read of its lock per zone event).
        private mutating func advance(until now: SimInstant) {
            while let end = outdoorEnd, end < now, end > anchor { advance(to: end) }
            advance(to: now)
        }

        /// Before a reading: a zone that slept past its outdoor piece's end walks the pieces up to now
        /// (a zone with a timer was woken at that end and is never behind).
        private mutating func catchUp() {
            if let end = outdoorEnd, kernel.now > end { advance() }
        }

        /// The outdoor piece holding `now`: the zone's own (`own`) when it does (every reading between zone
        /// events), else `source`'s. Static: a method of the state called from a mutating one copied the
        /// whole state (every field retained and released) at each meter reading.
        private static func outdoorPiece(at now: SimInstant, own: OutdoorTemperatureSegment,
                                         source: any OutdoorTemperatureSource) -> OutdoorTemperatureSegment {
            now >= own.start && own.end.map({ now < $0 }) ?? true ? own : source.outdoorSegment(at: now)
        }

        /// ``advance()`` to `now`, which is no later than the end of the current outdoor piece.
        private mutating func advance(to now: SimInstant) {
            let elapsed = (now - anchor).seconds
            guard elapsed > 0 || outdoorEnd.map({ now >= $0 }) == true else { return }
            for i in members.indices {
                let model = members[i].model
                members[i].energyJ += model.powerW * elapsed
                if model.isActive { members[i].activeSeconds += elapsed }
            }
            let (temperature, integral) = segment.temperatureAndIntegral(at: elapsed)
            temperatureIntegralKs += integral
            if guests > 0, elapsed > 0 {
                discomfortKs += discomfortIncrement(elapsed)
                occupiedSeconds += elapsed
            }
            anchor = now
            outdoorPiece = Self.outdoorPiece(at: now, own: outdoorPiece, source: outdoor)
            segment = makeSegment(from: temperature, outdoor: outdoorPiece, heat: segment.heatInputW)
        }

        /// After a state change at the anchor: settle thermostats and reports, re-plan; what to publish.
        private mutating func changed(at now: SimInstant? = nil) -> News {
            rebuildSegment()
            settle()
            plan()
            if powerLog != nil { logPowerChanges(at: anchor) }
            return news(at: now)
        }

        /// Logs each device whose power differs from its last logged power.
        private mutating func logPowerChanges(at instant: SimInstant) {
            for index in members.indices where members[index].powerW != powerLog!.logged[index] {
                powerLog!.logged[index] = members[index].powerW
                powerLog!.pending.append(ZoneMeter.PowerChange(at: instant, device: members[index].id, powerW: members[index].powerW))
            }
        }

        /// Applies every rule that is due at the anchor instant until none is.
        private mutating func settle() {
            let roomC = segment.initialCelsius
            var switched = false
            for i in members.indices {
                guard case .thermostat(var t) = members[i].model else { continue }
                if t.regulate(roomC: roomC) { switched = true }
                members[i].model = .thermostat(t)
            }
            if switched { rebuildSegment() }
            if abs(roomC - reportedC) >= 0.1 - ThermostatModel.toleranceK {
                let rounded = Self.round(roomC)
                reportedC = rounded != reportedC ? rounded : Self.round(reportedC + (roomC > reportedC ? 0.1 : -0.1))
            }
        }

        /// Schedules the zone's one timer at the earliest thing that will happen (cancels it when nothing will).
        private mutating func plan() {
            if let timer { kernel.cancel(timer) }
            timer = nil
            let horizon = outdoorEnd.map { ($0 - anchor).seconds } ?? 400 * 86_400.0
            var next: SimInstant? = outdoorEnd
            var search = CrossingSearch(segment)  // the questions below share the turning point and end temperatures
            // The thresholds in order: the next report up, the next report down, each thermostat's switching point.
            // A threshold the room cannot reach before the earliest crossing found so far is skipped without
            // a root search: its crossing would be later, so it would not be chosen (ties keep the earlier one).
            func consider(_ threshold: Double) {
                if let next {
                    let window = (next - anchor).seconds
                    if window < horizon, !search.mayReach(threshold, within: window) { return }
                }
                guard let seconds = search.firstCrossing(of: threshold, within: horizon),
                      let delay = SimDuration.seconds(roundingUp: max(seconds, 0.001)) else { return }
                let at = anchor + delay
                if next.map({ at < $0 }) ?? true { next = at }
            }
            consider(reportedC + 0.1)
            consider(reportedC - 0.1)
            for i in members.indices {
                if case .thermostat(let t) = members[i].model, let threshold = t.nextThresholdC { consider(threshold) }
            }
            guard let next, let timerStep else { return }
            timer = kernel.scheduleStep(after: next - anchor, label: timerLabel, timerStep)
        }

        private mutating func rebuildSegment() {
            var heat = Double(guests) * configuration.gainPerGuestW
            for i in members.indices { heat += members[i].model.heatW }
            guard heat != segment.heatInputW else { return }
            segment = makeSegment(from: segment.initialCelsius, outdoor: outdoorPiece, heat: heat)
        }

        private func makeSegment(from temperature: Double, outdoor piece: OutdoorTemperatureSegment, heat: Double) -> ZoneSegment {
            // Inputs are validated finite numbers; should the outdoor source misbehave, keep the old segment.
            (try? ZoneSegment(parameters: configuration.parameters, initialCelsius: temperature,
                              outdoorCelsius: piece.celsius(at: anchor), outdoorSlopeKPerSecond: piece.slopeKPerSecond,
                              heatInputW: heat)) ?? segment
        }

        static func makeReading(_ model: Member.Model, energyJ: Double, reportedC: Double, reportedState: State) -> DeviceReading {
            var setpoint: Double?
            var isOn = false
            switch model {
            case .thermostat(let t):
                setpoint = t.setpointC
                isOn = t.isEnabled
            case .plug(let on, _):
                isOn = on
            }
            return DeviceReading(isOn: isOn, setpointC: setpoint, reportedTemperatureC: reportedC, reportedTemperature: reportedState,
                                 powerW: model.powerW, energyKWh: energyJ / 3.6e6)
        }

        private func indexOf(_ deviceID: String) throws(DevicesError) -> Int {
            guard let index = members.firstIndex(where: { $0.id == deviceID }) else {
                throw DevicesError(.deviceNotFound, "zone \(id) has no device \"\(deviceID)\".")
            }
            return index
        }

        /// Rounds to 0.1 K.
        static func round(_ celsius: Double) -> Double { ThermalZone.round(celsius) }
    }

    /// Rounds to 0.1 K.
    static func round(_ celsius: Double) -> Double { (celsius * 10).rounded() / 10 }
}
