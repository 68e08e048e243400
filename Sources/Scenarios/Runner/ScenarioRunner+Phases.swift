import Booking
import Simulation

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
        for step in scenario.timeline {
            world.kernel.schedule(at: step.at, label: step.path) { now in
                let (outcome, note) = await execute(step, in: world)
                state.stepRan(step, outcome: outcome, note: note, at: calendar.localDateTime(at: now).description, instant: now)
            }
        }
        // Timed Item and reservation checks: one checkpoint per instant, run once everything else due at
        // that instant has run (steps, automations, device timers), in file order.
        var checkpoints: [SimInstant: [Expectation]] = [:]
        for expectation in scenario.expectations {
            guard let at = expectation.at, isPointCheck(expectation) else { continue }
            checkpoints[at, default: []].append(expectation)
        }
        for at in checkpoints.keys.sorted() {
            let due = checkpoints[at] ?? []
            scheduleCheckpoint(at: at, in: world, deferrals: 0) { now in
                for expectation in due {
                    state.checked(await check(expectation, in: world, at: calendar.localDateTime(at: now).description))
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
        let ledger = world.meters.ledger
        for expectation in scenario.expectations where isEndCheck(expectation) {
            let at = expectation.at.map { calendar.localDateTime(at: $0).description } ?? endText
            if isPointCheck(expectation) {
                state.checked(await check(expectation, in: world, at: at))
            } else if case .ruleRuns(let rule, let from, let to, let runs, let atLeast) = expectation.check {
                state.checked(checkRuns(expectation, rule: rule, from: from, to: to, runs: runs, atLeast: atLeast, world: world, at: at))
            } else {
                state.checked(checkLedger(expectation, ledger: ledger, scenario: scenario, at: at))
            }
        }
    }

    /// The result of what has run so far: failures, counts, the ledger, the stays and one log in time order.
    static func result(_ scenario: Scenario, in world: World, state: RunState) async -> ScenarioResult {
        let calendar = scenario.calendar
        let ledger = world.meters.ledger
        let stays = await world.stayRecords()
        let (failures, steps, checks, stepLog) = state.snapshot
        // One log in time order: steps, then the automations' actions with their reasons, then rule runs, in local time.
        let automationLog = world.automations.log.entries.map { entry in
            (entry.at, "\(calendar.localDateTime(at: entry.at))  \(entry.automation) \(entry.listing): \(entry.action) — \(entry.reason)")
        }
        let ruleLog = world.rules.runs.map { run in (run.at, "\(calendar.localDateTime(at: run.at))  \(run.logText)") }
        let log = (stepLog.enumerated().map { ($0.element.0, 0, $0.offset, $0.element.1) }
                   + automationLog.enumerated().map { ($0.element.0, 1, $0.offset, $0.element.1) }
                   + ruleLog.enumerated().map { ($0.element.0, 2, $0.offset, $0.element.1) })
            .sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.map(\.3)
        return ScenarioResult(scenario: scenario, failures: failures, stepsRun: steps, expectationsChecked: checks,
                              kernelEvents: world.kernel.eventsProcessed, busEvents: world.runtime.events.publishedCount,
                              observedBusEvents: world.observedBusEvents?.value, ledger: ledger, reports: world.meters.reports,
                              stays: stays, log: log)
    }
}
