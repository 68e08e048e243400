import Booking
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
            try await simulate(scenario, world: world, eventBudget: options.eventBudget, report: options.progress)
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
    private static func simulate(_ scenario: Scenario, world: World, eventBudget: Int?,
                                 report: Progress?) async throws(ScenarioError) {
        let calendar = scenario.calendar
        let span = Double((scenario.end - scenario.start).seconds)
        var reached = scenario.start
        do throws(SimulationError) {
            while reached < scenario.end {
                reached = min(reached + .hours(24), scenario.end)
                try await world.advance(until: reached, eventLimit: eventBudget.map { max(1, $0 - world.eventsProcessed) })
                if Task.isCancelled { throw SimulationError(.cancelled, "the run was cancelled.") }
                HeapTrim.releaseFreedMemory()  // what the day freed goes back to the system (a portfolio year's peak)
                report?(span > 0 ? Double((reached - scenario.start).seconds) / span : 1, calendar.localDateTime(at: reached).description)
            }
        } catch {
            let at = calendar.localDateTime(at: world.now).description
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
        world.schedule(at: at, label: "expectations") { now in
            if deferrals < 10_000, world.nextEventTime == now {
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
            return (nil, try await world.perform(step.action))
        } catch let error as any CodedError {
            return (StepError(code: error.codeName, message: error.message), nil)
        } catch {
            return (StepError(code: "unexpected", message: "\(error)"), nil)
        }
    }

    // MARK: Expectations

    static func check(_ e: Expectation, in world: World, at: String) async -> ScenarioFailure? {
        func fail(_ expected: String, _ actual: String) -> ScenarioFailure {
            ScenarioFailure(path: e.path, line: e.line, at: at, expected: expected, actual: actual)
        }
        switch e.check {
        case .itemState(let item, let expected):
            let state = await world.itemState(item)
            return sameState(expected, state) ? nil : fail("\(item) = \"\(expected)\"", "\"\(state)\"")
        case .itemBetween(let item, let low, let high):
            let state = await world.itemState(item)
            guard let value = Double(state.split(separator: " ").first ?? "") else {
                return fail("\(item) between \(format(low)) and \(format(high))", "\"\(state)\" (not a number)")
            }
            return (low...high).contains(value) ? nil : fail("\(item) between \(format(low)) and \(format(high))", "\"\(state)\"")
        case .reservationStatus(let id, let expected):
            do {
                let status = try await world.reservationStatus(id)
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
        let count = world.ruleRunCount(of: rule, from: from, to: to)
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
