import ScenarioFormat
import Simulation
import Synchronization
import Twin

/// A scenario run live: its world, timeline and expectations on a kernel that runs until
/// stopped, paced by wall time or moved by hand (`rental-twin serve`).
///
/// ``prepare(_:options:)`` builds the world and schedules the steps and timed checks exactly as
/// ``ScenarioRunner/run(_:options:)`` does, plus one checkpoint at the scenario's `end` that
/// checks the end expectations there. ``run(_:)`` then runs the kernel live until ``stop()``;
/// virtual time may go past `end` (devices and automations keep running). Outside work — a
/// request, a fault, a look at the result — enters through the kernel's `submit`.
public final class LiveScenarioRun: Sendable {
    /// The world being run.
    public let world: World
    let state: RunState
    /// Timed point checks in the order their checkpoints run them (time, then file order).
    private let timedChecks: [Expectation]
    /// Whether the end checkpoint has run.
    private let ended = Mutex(false)

    private init(world: World, state: RunState) {
        self.world = world
        self.state = state
        timedChecks = world.scenario.expectations
            .filter { !ScenarioRunner.isEndCheck($0) }
            .enumerated().sorted { ($0.element.at ?? .epoch, $0.offset) < ($1.element.at ?? .epoch, $1.offset) }
            .map(\.element)
    }

    /// The scenario being run.
    public var scenario: Scenario { world.scenario }

    /// Builds the world of `scenario` at its start and schedules its timeline and expectations.
    /// - Throws: ``ScenarioError`` `scenario.runFailed` or `scenario.cancelled` when the world cannot be built.
    public static func prepare(_ scenario: Scenario, options: World.Options = World.Options()) async throws(ScenarioError) -> LiveScenarioRun {
        let (world, state) = try await ScenarioRunner.prepare(scenario, options: options)
        let run = LiveScenarioRun(world: world, state: state)
        ScenarioRunner.scheduleCheckpoint(at: scenario.end, in: world, deferrals: 0) { [run] _ in
            await ScenarioRunner.checkRemaining(scenario, in: world, state: state)
            run.ended.withLock { $0 = true }
        }
        return run
    }

    /// Runs the kernel live in `mode` until ``stop()`` or the calling task is cancelled.
    /// - Throws: ``ScenarioError`` `scenario.runFailed` when the kernel refuses the mode (already running, a bad speed).
    public func run(_ mode: SimulationKernel.LiveMode) async throws(ScenarioError) {
        do throws(SimulationError) {
            try await world.runLive(mode)
        } catch {
            throw ScenarioError(.runFailed, "the live run of \(scenario.name) could not start: \(error.message)", file: scenario.file)
        }
    }

    /// Ends the live run once the event it is running returns.
    public func stop() { world.stop() }

    /// Performs `action` now, as a timeline step of that kind would (a `thing` or `feed` fault from
    /// outside); not counted as a step of the scenario. Call it on the simulation (inside `submit`).
    /// - Returns: `nil` when it was done, else the refusal's stable code and message.
    public func perform(_ action: Step.Action) async -> (code: String, message: String)? {
        do {
            _ = try await world.perform(action)
            return nil
        } catch let error as any CodedError {
            return (error.codeName, error.message)
        } catch {
            return ("unexpected", "\(error)")
        }
    }

    /// Whether the scenario's `end` has passed and its end expectations were checked.
    public var endReached: Bool { ended.withLock { $0 } }

    /// The result so far: every step run and expectation checked until now, and the expectations
    /// whose time has not come, as pending.
    ///
    /// Call it on the simulation (inside the kernel's `submit`) while the run is live, or after it ended.
    public func resultSoFar() async -> LiveScenarioResult {
        let result = await ScenarioRunner.result(scenario, in: world, state: state)
        let finished = endReached
        let pending = finished ? [] : Array(timedChecks.dropFirst(result.expectationsChecked))
            + scenario.expectations.filter(ScenarioRunner.isEndCheck)
        return LiveScenarioResult(result: result, pending: pending, now: world.now, endReached: finished)
    }
}

/// What a live run has found so far (``LiveScenarioRun/resultSoFar()``).
public struct LiveScenarioResult: Sendable {
    /// Steps run and expectations checked until ``now``; its failures are final.
    public let result: ScenarioResult
    /// Expectations not checked yet, in the order they will be.
    public let pending: [Expectation]
    /// The virtual time of the look.
    public let now: SimInstant
    /// Whether the scenario's end has passed (nothing is pending then).
    public let endReached: Bool

    /// `pass` (the end passed with no failure), `fail` (any failure; final) or `pending`.
    public var verdict: String {
        if !result.failures.isEmpty { return "fail" }
        return endReached ? "pass" : "pending"
    }
}
