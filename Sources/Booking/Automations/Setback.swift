import Simulation
import SmartHome

/// Saves energy when guests leave: at the check-out moment of every non-cancelled reservation it sets
/// the listing's heating setpoints to ``setpointC`` and switches its cooling OFF.
///
/// A reservation's timer is scheduled when it is confirmed and cancelled when it is cancelled; at the
/// check-out moment the reservation is re-read and a cancelled one is skipped. Heating switches are left
/// as they are (the thermostat now holds the lower setpoint). Every action is logged with its reason.
public actor Setback: ReservationObserver {
    /// The automation's name in the ``AutomationLog``.
    public static let name = "setback"

    /// The heating setpoint after check-out, °C.
    public nonisolated let setpointC: Double
    private let scheduler: any SimulationScheduler
    private let stays: any StayDirectory
    private let home: HomeCommander
    private let log: AutomationLog
    private var timers: [ReservationID: TimerID] = [:]
    private var handled: Set<ReservationID> = []

    /// Creates the automation; register it as a ``ReservationObserver`` of the reservation service.
    /// - Parameters:
    ///   - setpointC: the heating setpoint after check-out, °C.
    ///   - scheduler: where the check-out actions are scheduled.
    ///   - stays: listings and reservations.
    ///   - api: the openHAB API the commands go through.
    ///   - configurations: the listings' heating and cooling configurations.
    ///   - log: where every action is logged.
    public init(setpointC: Double, scheduler: any SimulationScheduler, stays: any StayDirectory, api: any OpenHABAPI,
                configurations: any HomeConfigurationRepository, log: AutomationLog) {
        self.setpointC = setpointC
        self.scheduler = scheduler
        self.stays = stays
        self.home = HomeCommander(api: api, configurations: configurations)
        self.log = log
    }

    /// Schedules the setback of a new reservation; cancels it for a cancelled one.
    public func reservationDidChange(_ reservation: Reservation, previous: ReservationStatus?) async {
        if reservation.status == .cancelled {
            guard let timer = timers.removeValue(forKey: reservation.id) else { return }
            scheduler.cancel(timer)
            log.append(at: scheduler.now, automation: Self.name, listing: reservation.listing, action: "cancelled",
                       reason: "\(reservation.id) is cancelled; no setback at its check-out")
            return
        }
        guard !handled.contains(reservation.id) else { return }
        handled.insert(reservation.id)
        let now = scheduler.now
        let checkOut: SimInstant
        do {
            let listing = try await stays.listing(reservation.listing)
            checkOut = listing.checkOutInstant(on: reservation.checkOut, calendar: try listing.calendar())
        } catch {
            log.append(at: now, automation: Self.name, listing: reservation.listing, action: "none",
                       reason: "cannot schedule the setback of \(reservation.id): \(error.code.rawValue): \(error.message)")
            return
        }
        guard checkOut >= now else { return }
        let id = reservation.id, listing = reservation.listing
        timers[id] = scheduler.schedule(at: checkOut, label: "setback \(id)") { [self] _ in
            await self.apply(id, listing: listing)
        }
    }

    /// Reservations with a pending setback, sorted.
    public var pendingReservations: [ReservationID] { timers.keys.sorted() }

    private func apply(_ id: ReservationID, listing: ListingID) async {
        timers[id] = nil
        let now = scheduler.now
        var reason = "check-out of \(id)"
        do {
            guard let reservation = try await stays.reservation(id, ofListing: listing),
                  reservation.status.holdsNights else {
                log.append(at: now, automation: Self.name, listing: listing, action: "none", reason: "\(id) is cancelled or gone")
                return
            }
            if reservation.status == .checkedIn { reason += " (\(id) is still checked in: the guest overstays; setback as planned)" }
        } catch {
            log.append(at: now, automation: Self.name, listing: listing, action: "none",
                       reason: "cannot read \(id): \(error.code.rawValue): \(error.message)")
            return
        }
        await each(.heating, listing: listing, property: "setpoint", command: AutomationText.setpointCommand(setpointC),
                   action: "setpoint \(AutomationText.celsius(setpointC))", reason: reason)
        await each(.cooling, listing: listing, property: "switch", command: "OFF", action: "switch OFF", reason: reason)
    }

    private func each(_ type: HomeConfigurationType, listing: ListingID, property: String, command: String,
                      action: String, reason: String) async {
        let now = scheduler.now
        do {
            for device in try await home.devices(of: listing, type: type) {
                guard let item = device.items[property] else { continue }
                do {
                    try await home.send(command, to: item)
                    log.append(at: now, automation: Self.name, listing: listing, action: "\(device.name) \(action)", reason: reason)
                } catch {
                    log.append(at: now, automation: Self.name, listing: listing, action: "\(device.name) \(action) failed",
                               reason: "\(reason); \(error.code.rawValue): \(error.message)")
                }
            }
        } catch {
            log.append(at: now, automation: Self.name, listing: listing, action: "none",
                       reason: "cannot read the \(type.rawValue) configurations: \(error.code.rawValue): \(error.message)")
        }
    }
}
