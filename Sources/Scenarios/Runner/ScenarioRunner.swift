import Booking
import Devices
import Foundation
import Reports
import ScenarioFormat
import Simulation
import SmartHome
import Synchronization
import Twin
import Weather

/// Runs a scenario: builds its world, puts every timeline step and timed expectation on the kernel,
/// runs to `end` in virtual time, then checks the remaining expectations.
public enum ScenarioRunner {
    /// Told after each simulated day of a run: the fraction of the scenario's span done (0…1) and the
    /// local date-time reached. Called on the simulation task; it must return quickly.
    public typealias Progress = World.Progress

    /// Runs `scenario`, one simulated day at a time: between days it reports to
    /// ``World/Options/progress`` and checks for cancellation.
    /// - Parameter options: how to build its world (timeseries recording for `timeseries.csv` and charts, …).
    /// - Returns: the result, with every failure; a failed expectation is not an error.
    /// - Throws: ``ScenarioError`` `scenario.runFailed` when the world cannot be built or the kernel fails
    ///   (including `run.stalled`: events that stop the clock or storm); `scenario.cancelled` when the task
    ///   is cancelled before the end; `scenario.eventBudget` when the run needed more than
    ///   ``World/Options/eventBudget`` events.
    public static func run(_ scenario: Scenario, options: World.Options = World.Options()) async throws(ScenarioError) -> ScenarioResult {
        let (world, state) = try await prepare(scenario, options: options)
        do {
            try await simulate(scenario, kernel: world.kernel, eventBudget: options.eventBudget, report: options.progress)
        } catch {
            await world.close()
            throw error
        }
        await checkRemaining(scenario, in: world, state: state)
        let result = await result(scenario, in: world, state: state)
        await world.close()
        return result
    }

    /// Runs the kernel to the scenario's end a day at a time, reporting progress and checking for cancellation.
    private static func simulate(_ scenario: Scenario, kernel: SimulationKernel, eventBudget: Int?,
                                 report: Progress?) async throws(ScenarioError) {
        let calendar = scenario.calendar
        let span = Double((scenario.end - scenario.start).seconds)
        var reached = scenario.start
        do throws(SimulationError) {
            while reached < scenario.end {
                reached = min(reached + .hours(24), scenario.end)
                try await kernel.run(until: reached, eventLimit: eventBudget.map { max(1, $0 - kernel.eventsProcessed) })
                if Task.isCancelled { throw SimulationError(.cancelled, "the run was cancelled.") }
                HeapTrim.releaseFreedMemory()  // what the day freed goes back to the system (a portfolio year's peak)
                report?(span > 0 ? Double((reached - scenario.start).seconds) / span : 1, calendar.localDateTime(at: reached).description)
            }
        } catch {
            let at = calendar.localDateTime(at: kernel.now).description
            if error.code == .eventLimit, let eventBudget {
                throw ScenarioError(.eventBudget, "the simulation of \(scenario.name) needed more than its budget of \(eventBudget) events; "
                                    + "it stopped at \(at) (simulated).", file: scenario.file)
            }
            if error.code == .cancelled {
                throw ScenarioError(.cancelled, "the run of \(scenario.name) was interrupted at \(at) (simulated); no result, nothing written.",
                                    file: scenario.file)
            }
            throw ScenarioError(.runFailed, "the simulation of \(scenario.name) stopped at \(at): \(error)", file: scenario.file)
        }
    }

    /// Runs `body` at `at` after every other event due at that instant: while the kernel has more
    /// events at `at`, the checkpoint moves itself behind them (bounded, so a device that keeps
    /// rescheduling at one instant cannot hang the run).
    static func scheduleCheckpoint(at: SimInstant, in world: World, deferrals: Int,
                                           _ body: @escaping @Sendable (SimInstant) async -> Void) {
        world.kernel.schedule(at: at, label: "expectations") { now in
            if deferrals < 10_000, world.kernel.nextEventTime == now {
                scheduleCheckpoint(at: now, in: world, deferrals: deferrals + 1, body)
            } else {
                await body(now)
            }
        }
    }

    static func isPointCheck(_ e: Expectation) -> Bool {
        switch e.check {
        case .itemState, .itemBetween, .reservationStatus: true
        case .energy, .discomfort, .ruleRuns, .outbox: false
        }
    }

    // MARK: Steps

    /// What a step did: nil on success, else the error's code and message.
    struct StepError: Sendable {
        let code: String
        let message: String
    }

    /// Runs a step: its error (nil on success) and a note for the log (what the devices made of it).
    static func execute(_ step: Step, in world: World) async -> (error: StepError?, note: String?) {
        do {
            return (nil, try await perform(step.action, in: world))
        } catch let error as any CodedError {
            return (StepError(code: error.codeName, message: error.message), nil)
        } catch {
            return (StepError(code: "unexpected", message: "\(error)"), nil)
        }
    }

    /// Performs the action; returns a note for the log when the outcome differs from what was asked
    /// (a setpoint the device clamped to its range).
    static func perform(_ action: Step.Action, in world: World) async throws -> String? {
        let services = world.services
        switch action {
        case .book(let id, let guest, let listing, let checkIn, let checkOut, let guests):
            _ = try await services.reservations.book(id: ReservationID(id), guest: UserID(guest), listing: ListingID(listing),
                                                     checkIn: checkIn, checkOut: checkOut, guests: guests)
        case .cancel(let id):
            _ = try await services.reservations.cancel(ReservationID(id))
        case .arrive(let id):
            let reservation = try await services.reservations.checkIn(ReservationID(id))
            await updateGuests(of: reservation.listing, in: world)
        case .depart(let id):
            let reservation = try await services.reservations.checkOut(ReservationID(id))
            await updateGuests(of: reservation.listing, in: world)
        case .unlock(let item, let by):
            try await world.home.operateLock(item: World.itemName(item), operation: .unlock, by: UserID(by))
        case .lock(let item, let by):
            try await world.home.operateLock(item: World.itemName(item), operation: .lock, by: UserID(by))
        case .command(let item, let value):
            _ = try await world.api.sendCommand(World.itemName(item), value)
            var notes: [String] = []
            let asked = openHABNumber(value)
            // openHAB's number format takes a comma for a grouping separator: `21,5` is 215. Say so
            // where it happened, since nothing else will.
            if value.contains(","), let asked {
                notes.append("openHAB reads \"\(value)\" as \(asked.text): a comma groups digits (2,000), it is not a decimal point; write \(value.replacingOccurrences(of: ",", with: ".")) for that")
            }
            if item.hasSuffix("/setpoint"), let asked {
                let state = await itemState(item, world)
                if let taken = openHABNumber(state)?.value, abs(taken - asked.value) > 1e-9 {
                    notes.append("\(item) took \(state), not \(value): the device clamps setpoints to its range")
                }
            }
            return notes.isEmpty ? nil : notes.joined(separator: "; ")
        case .weather:
            break  // applied to the city's weather when the world was built (an override from this instant)
        case .thing(let thing, let online):
            if let handler = world.zoneDevices[thing] {
                await handler.setOnline(online)
            } else if let lock = world.locks[thing] {
                await lock.setOnline(online)
            } else {
                throw BookingError(.thingNotFound, "there is no device \"\(thing)\" (write listing/device).")
            }
        case .feed(let city, let error):
            try world.feed.setFault(try error.map { code throws(WeatherError) in try FeedFault(status: code) }, forCity: city)
        case .rate(let guest, let listing, let stars, let comment):
            _ = try await services.ratings.rate(guest: UserID(guest), listing: ListingID(listing), stars: stars, comment: comment)
        case .message(let from, let reservation, let text):
            _ = try await services.conversations.send(from: UserID(from), reservation: ReservationID(reservation), text: text)
        case .update(let item, let state):
            _ = try await world.api.updateState(World.itemName(item), state)
        case .runRule(let rule):
            try await world.rules.runNow(rule, reason: "runRule step")
        case .enableRule(let rule, let enabled):
            try world.rules.setEnabled(rule, enabled)
        case .trigger(let channel, let event):
            // As openHAB: a channel event nobody listens to is no error; the log says how many rules heard it.
            let heard = world.rules.channelTriggered(channel, event: event)
            return heard == 0 ? "no rule listens to \(channel) \(event)" : nil
        }
        return nil
    }

    /// The number of a command or state text as openHAB parses it (`21,5` → 215, `21.5 °C` → 21.5), with its text.
    private static func openHABNumber(_ text: String) -> (value: Double, text: String)? {
        if let n = DecimalNumber(parsing: text) { return (n.value, n.stateText) }
        return Quantity(parsing: text).map { ($0.value, $0.description) }
    }

    /// Sets the listing's zone to the guests of every stay checked in there: a guest who overstays
    /// is still in the flat when the next one arrives, and still there after that one leaves.
    private static func updateGuests(of listing: ListingID, in world: World) async {
        guard let zone = world.zones[listing.rawValue],
              let stays = try? await world.services.reservations.reservations(ofListing: listing) else { return }
        await zone.setGuests(stays.filter { $0.status == .checkedIn }.reduce(0) { $0 + $1.guests })
    }

    // MARK: Expectations

    static func check(_ e: Expectation, in world: World, at: String) async -> ScenarioFailure? {
        func fail(_ expected: String, _ actual: String) -> ScenarioFailure {
            ScenarioFailure(path: e.path, line: e.line, at: at, expected: expected, actual: actual)
        }
        switch e.check {
        case .itemState(let item, let expected):
            let state = await itemState(item, world)
            return sameState(expected, state) ? nil : fail("\(item) = \"\(expected)\"", "\"\(state)\"")
        case .itemBetween(let item, let low, let high):
            let state = await itemState(item, world)
            guard let value = Double(state.split(separator: " ").first ?? "") else {
                return fail("\(item) between \(format(low)) and \(format(high))", "\"\(state)\" (not a number)")
            }
            return (low...high).contains(value) ? nil : fail("\(item) between \(format(low)) and \(format(high))", "\"\(state)\"")
        case .reservationStatus(let id, let expected):
            do {
                let status = try await world.services.reservations.reservation(ReservationID(id)).status.rawValue
                return status == expected ? nil : fail("reservation \(id) \(expected)", status)
            } catch {
                return fail("reservation \(id) \(expected)", "no such reservation (\(error.code.rawValue))")
            }
        case .energy, .discomfort, .ruleRuns, .outbox:
            return nil
        }
    }

    /// A `rule` expectation: runs whose conditions held, in the window.
    static func checkRuns(_ e: Expectation, rule: String, from: SimInstant?, to: SimInstant?, runs: Int?, atLeast: Int?,
                          world: World, at: String) -> ScenarioFailure? {
        let count = world.rules.runCount(of: rule, from: from, to: to)
        let calendar = world.scenario.calendar
        let window = (from.map { " from \(calendar.localDateTime(at: $0))" } ?? "") + (to.map { " to \(calendar.localDateTime(at: $0))" } ?? "")
        if let runs, count != runs {
            return ScenarioFailure(path: e.path, line: e.line, at: at, expected: "rule \"\(rule)\" runs \(runs) time(s)\(window)", actual: "\(count) run(s)")
        }
        if let atLeast, count < atLeast {
            return ScenarioFailure(path: e.path, line: e.line, at: at, expected: "rule \"\(rule)\" runs at least \(atLeast) time(s)\(window)", actual: "\(count) run(s)")
        }
        return nil
    }

    /// Whether an expected state text matches the Item's: the same text, or quantities of the same
    /// unit (or plain numbers) with equal values, as `QuantityType.equals` compares them — so
    /// `"21.0 °C"` written before openHAB 5's narrowed text still matches `21 °C`.
    static func sameState(_ expected: String, _ actual: String) -> Bool {
        if expected == actual { return true }
        if let e = Quantity(parsing: expected), let a = Quantity(parsing: actual) {
            return e.unit == a.unit && e.value == a.value
        }
        if let e = DecimalNumber(parsing: expected), let a = DecimalNumber(parsing: actual) { return e == a }
        return false
    }

    private static func itemState(_ item: String, _ world: World) async -> String {
        do { return try await world.api.getItemState(World.itemName(item)).body } catch { return "error \(error.code.rawValue)" }
    }

    static func checkLedger(_ e: Expectation, ledger: EnergyLedger, scenario: Scenario, at: String) -> ScenarioFailure? {
        func fail(_ expected: String, _ actual: String) -> ScenarioFailure {
            ScenarioFailure(path: e.path, line: e.line, at: at, expected: expected, actual: actual)
        }
        let calendar = scenario.calendar
        func window(_ from: SimInstant?, _ to: SimInstant?) -> (SimInstant, SimInstant, String) {
            let start = from ?? scenario.start
            let end = to ?? e.at ?? scenario.end
            return (start, end, "\(calendar.localDateTime(at: start)) … \(calendar.localDateTime(at: end))")
        }
        do {
            switch e.check {
            case .energy(let listing, let device, let from, let to, let least, let most):
                let (start, end, span) = window(from, to)
                let kWh = try ledger.energyKWh(listing: listing, device: device, from: start, to: end)
                let subject = "energy of \(listing)\(device.map { "/\($0)" } ?? "") over \(span)"
                var bounds: [String] = []
                if let least { bounds.append("≥ \(format(least)) kWh") }
                if let most { bounds.append("≤ \(format(most)) kWh") }
                let ok = (least.map { kWh >= $0 } ?? true) && (most.map { kWh <= $0 } ?? true)
                return ok ? nil : fail("\(subject) \(bounds.joined(separator: " and "))", "\(String(format: "%.3f", kWh)) kWh")
            case .discomfort(let listing, let from, let to, let most):
                let (start, end, span) = window(from, to)
                let kh = try ledger.discomfortKh(listing: listing, from: start, to: end)
                return kh <= most ? nil : fail("discomfort of \(listing) over \(span) ≤ \(format(most)) K·h", "\(String(format: "%.3f", kh)) K·h")
            default:
                return nil
            }
        } catch {
            return fail("a ledger figure", "\(error)")
        }
    }
}

/// Where a failure happened in a run, which orders failures the same way in a whole run and in a merge
/// of its parts: while the run went (phase 0) by instant, at one instant steps (kind 0) before the checks
/// that wait for them (kind 1), each in file order (`index`, in the whole scenario's arrays); then the
/// checks at the end (phase 1) in file order.
struct FailureOrder: Sendable, Comparable {
    let phase: Int
    let at: SimInstant
    let kind: Int
    var index: Int

    static func < (a: FailureOrder, b: FailureOrder) -> Bool {
        (a.phase, a.at, a.kind, a.index) < (b.phase, b.at, b.kind, b.index)
    }
}

/// The mutable bookkeeping of a run (steps and expectations report into it from kernel handlers).
final class RunState: Sendable {
    private struct Data {
        var failures: [(order: FailureOrder, failure: ScenarioFailure)] = []
        var steps = 0
        var checks = 0
        var log: [StepRecord] = []
    }
    private let data = Mutex(Data())

    /// Records that timeline step `index` (`step`) ran at `instant`: its failure, if it failed, and
    /// what the log says of it (written into a line only when the log is asked for).
    func stepRan(_ step: Step, index: Int, outcome: ScenarioRunner.StepError?, note: String?, at instant: SimInstant,
                 calendar: LocalCalendar) {
        let order = FailureOrder(phase: 0, at: instant, kind: 0, index: index)
        data.withLock { d in
            d.steps += 1
            func failure(expected: String, actual: String) -> ScenarioFailure {
                ScenarioFailure(path: step.path, line: step.line, at: calendar.localDateTime(at: instant).description,
                                expected: expected, actual: actual)
            }
            let result: StepRecord.Result
            switch (step.expectError, outcome) {
            case (nil, nil):
                result = .done
            case (nil, let error?):
                result = .failed(error.code)
                d.failures.append((order, failure(expected: "\(step.action.name) to succeed", actual: "\(error.code): \(error.message)")))
            case (let code?, nil):
                result = .succeeded
                d.failures.append((order, failure(expected: "error \(code)", actual: "success")))
            case (let code?, let error?):
                result = .refused(error.code)
                if error.code != code {
                    d.failures.append((order, failure(expected: "error \(code)", actual: "\(error.code): \(error.message)")))
                }
            }
            d.log.append(StepRecord(at: instant, step: Int32(index), result: result, note: note))
        }
    }

    /// Records that expectation `index` was checked: at `instant` while the run went (`atEnd` false), or
    /// after it ended.
    func checked(_ failure: ScenarioFailure?, index: Int, at instant: SimInstant, atEnd: Bool) {
        data.withLock { d in
            d.checks += 1
            if let failure { d.failures.append((FailureOrder(phase: atEnd ? 1 : 0, at: instant, kind: 1, index: index), failure)) }
        }
    }

    /// The failures in ``FailureOrder`` (the order they happened), counts and the step records.
    var snapshot: ([(order: FailureOrder, failure: ScenarioFailure)], Int, Int, [StepRecord]) {
        data.withLock { d in
            (d.failures.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element),
             d.steps, d.checks, d.log)
        }
    }
}
