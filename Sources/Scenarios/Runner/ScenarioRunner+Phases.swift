import Booking
import ScenarioFormat
import Simulation
import Synchronization
import Twin

/// The phases of a run around the kernel's own loop: ``ScenarioRunner/run(_:options:)`` runs them
/// around a run to `end`, a ``LiveScenarioRun`` around a live run (paced or manual).
extension ScenarioRunner {
    /// Builds the world and puts every timeline step and every timed point check on its kernel.
    /// - Returns: the world and the bookkeeping its steps and checks report into.
    /// - Throws: ``ScenarioError`` `scenario.runFailed` or `scenario.cancelled` when the world cannot be built.
    static func prepare(_ scenario: Scenario, options: World.Options) async throws(ScenarioError) -> (World, RunState) {
        let world = try await World.build(scenario, options: options)
        let state = RunState()
        let calendar = scenario.calendar
        // The steps in time order, ties in file order: one chained kernel timer fires once per step, exactly
        // as one event per step scheduled here in that order would (a portfolio year has half a million
        // steps; the queue holds one).
        // (The order is kept as indices: a copy of the steps would double the timeline's memory. A step
        // before the start, which validation refuses, runs at the start, as a timer scheduled in the past does.)
        let timeline = scenario.timeline
        let order = timeline.indices.sorted { (timeline[$0].at, $0) < (timeline[$1].at, $1) }.map(Int32.init)
        if let first = order.first {
            let cursor = StepCursor()
            world.schedule(at: timeline[Int(first)].at, then: { fired in cursor.taken(of: timeline, in: order).map { max($0, fired) } }, label: "timeline step") { now in
                let index = Int(order[cursor.running])
                let step = timeline[index]
                let (outcome, note) = await execute(step, in: world)
                state.stepRan(step, index: index, outcome: outcome, note: note, at: now, calendar: calendar)
            }
        }
        // Timed Item and reservation checks: one checkpoint per instant, run once everything else due at
        // that instant has run (steps, automations, device timers), in file order.
        var checkpoints: [SimInstant: [(index: Int, expectation: Expectation)]] = [:]
        for (index, expectation) in scenario.expectations.enumerated() {
            guard let at = expectation.at, isPointCheck(expectation) else { continue }
            checkpoints[at, default: []].append((index, expectation))
        }
        for at in checkpoints.keys.sorted() {
            let due = checkpoints[at] ?? []
            scheduleCheckpoint(at: at, in: world, deferrals: 0) { now in
                for (index, expectation) in due {
                    state.checked(await check(expectation, in: world, at: calendar.localDateTime(at: now).description), index: index, at: now,
                                  atEnd: false)
                }
            }
        }
        return (world, state)
    }

    /// The expectations checked at the end: untimed point checks (against the state now) and every
    /// ledger check (energy, discomfort).
    static func isEndCheck(_ expectation: Expectation) -> Bool {
        expectation.at == nil || !isPointCheck(expectation)
    }

    /// Checks the end expectations (``isEndCheck(_:)``), the world being at the scenario's end.
    static func checkRemaining(_ scenario: Scenario, in world: World, state: RunState) async {
        let calendar = scenario.calendar
        let endText = calendar.localDateTime(at: scenario.end).description
        let ledger = world.ledger
        for (index, expectation) in scenario.expectations.enumerated() where isEndCheck(expectation) {
            let at = expectation.at.map { calendar.localDateTime(at: $0).description } ?? endText
            let failure: ScenarioFailure?
            if isPointCheck(expectation) {
                failure = await check(expectation, in: world, at: at)
            } else if case .ruleRuns(let rule, let from, let to, let runs, let atLeast) = expectation.check {
                failure = checkRuns(expectation, rule: rule, from: from, to: to, runs: runs, atLeast: atLeast, world: world, at: at)
            } else if case .outbox(let o) = expectation.check {
                failure = checkOutbox(expectation, o, world: world, at: at)
            } else {
                failure = checkLedger(expectation, ledger: ledger, scenario: scenario, at: at)
            }
            state.checked(failure, index: index, at: scenario.end, atEnd: true)
        }
    }

    /// The result of what has run so far: failures, counts, the ledger, the stays and one log in time order.
    static func result(_ scenario: Scenario, in world: World, state: RunState) async -> ScenarioResult {
        let calendar = scenario.calendar
        let ledger = world.ledger
        let stays = await world.stayRecords()
        let (failures, steps, checks, stepLog) = state.snapshot
        var result = ScenarioResult(scenario: scenario, failures: failures.map(\.failure), failureOrder: failures.map(\.order), stepsRun: steps, expectationsChecked: checks,
                              kernelEvents: world.eventsProcessed, busEvents: world.busEventsPublished,
                              observedBusEvents: world.observedBusEventCount, ledger: ledger, reports: world.recordedReports,
                              stays: stays,
                              runLog: RunLog(steps: stepLog, timeline: scenario.timeline, automations: world.automationLog, rules: world.ruleRuns,
                                             calendar: calendar),
                              outbox: world.outbox, outboxDropped: world.outboxDropped, ruleRuns: world.ruleRunCount)
        result.ruleCoverage = world.ruleCoverage
        return result
    }
}

/// Where the timeline's chained timer is: how many of its firings the kernel has taken. The kernel asks
/// for the next instant as it takes a firing and then awaits that firing's handler before taking
/// another, so the step running is always the last one taken.
private final class StepCursor: Sendable {
    private let taken = Mutex(0)

    /// Called as a firing is taken: the instant of the step after it in `order`, `nil` after the last.
    func taken(of steps: [Step], in order: [Int32]) -> SimInstant? {
        taken.withLock { taken in
            taken += 1
            return taken < order.count ? steps[Int(order[taken])].at : nil
        }
    }

    /// The position in `order` of the step whose firing runs now.
    var running: Int { taken.withLock { $0 - 1 } }
}
