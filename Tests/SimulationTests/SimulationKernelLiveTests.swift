import Synchronization
import Testing
@testable import Simulation

/// An order-sensitive accumulator: `value = (value × 31 + n) mod 1 000 003` per ``add(_:)``.
final class Fold: Sendable {
    private let state = Mutex(0)
    func add(_ n: Int) -> Int { state.withLock { $0 = ($0 * 31 + n) % 1_000_003; return $0 } }
    var value: Int { state.withLock { $0 } }
}

/// Live runs and outside work: `submit`, manual and paced runs.
@Suite("Simulation kernel, live")
struct SimulationKernelLiveTests {
    let start = SimInstant(unixSeconds: 1_767_913_200)

    /// What one manual run with 50 racing submitters produced.
    struct Outcome: Equatable {
        var trace: [String]
        var results: [Int: Int]
        var total: Int
        var now: SimInstant
    }

    /// Fifty tasks submit at once to a manual run. Their order is defined by the `order` key:
    /// a first submission holds the simulation task until all fifty wait together
    /// (``SimulationKernel/submissionsWaiting(atLeast:)``), so they enter the queue together
    /// and run by key, whatever order the tasks reached the kernel in.
    func manualRunWithFiftySubmitters() async throws -> Outcome {
        let kernel = SimulationKernel(start: start)
        let trace = Trace()
        let total = Fold()
        kernel.schedule(after: .seconds(30)) { now in trace.add("timer \(now - self.start)") }
        let (gateRunning, gateSignal) = AsyncStream.makeStream(of: Void.self)
        let results = try await withThrowingTaskGroup(of: [Int: Int].self) { group in
            group.addTask {
                try await kernel.run(.manual)
                return [:]
            }
            group.addTask {
                await kernel.submit(order: -1) {
                    trace.add("gate")
                    gateSignal.yield()
                    await kernel.submissionsWaiting(atLeast: 50)
                }
                return [:]
            }
            for await _ in gateRunning { break }
            let results = await withTaskGroup(of: (Int, Int).self) { submitters in
                for index in 0..<50 {
                    submitters.addTask {
                        let seen = await kernel.submit(order: index) {
                            // Order-sensitive state: every submission sees the ones before it.
                            let value = total.add(index)
                            trace.add("submission \(index) at \(kernel.now - self.start)")
                            kernel.schedule(after: .seconds(Int64(index % 7))) { now in
                                trace.add("follow-up \(index) at \(now - self.start)")
                            }
                            return value
                        }
                        return (index, seen)
                    }
                }
                var results: [Int: Int] = [:]
                for await (index, seen) in submitters { results[index] = seen }
                return results
            }
            try await kernel.advance(by: .minutes(1))
            kernel.stop()
            try await group.waitForAll()
            return results
        }
        #expect(kernel.phase == .idle)
        return Outcome(trace: trace.all, results: results, total: total.value, now: kernel.now)
    }

    @Test func fiftyConcurrentSubmissionsGiveTheSameStateAndOrderOnEveryRun() async throws {
        let first = try await manualRunWithFiftySubmitters()
        for _ in 0..<9 {
            #expect(try await manualRunWithFiftySubmitters() == first)
        }
        // The order is the key order, at the instant the run stood at; the follow-ups they
        // scheduled run in time order, ties in scheduling order; the timer queued first at +30 s
        // runs after the follow-ups at or before it.
        #expect(first.trace.first == "gate")
        #expect(Array(first.trace[1...50]) == (0..<50).map { "submission \($0) at PT0S" })
        let followUps = first.trace.dropFirst(51).filter { $0.hasPrefix("follow-up") }
        #expect(followUps.count == 50)
        #expect(followUps.first == "follow-up 0 at PT0S")
        #expect(followUps.last == "follow-up 48 at PT6S")
        #expect(first.trace.last == "timer PT30S")
        var total = 0
        for index in 0..<50 {
            total = (total * 31 + index) % 1_000_003
            #expect(first.results[index] == total)
        }
        #expect(first.total == total)
        #expect(first.now == start + .minutes(1))
    }

    @Test func submissionsWaitForARunAndReturnWhatTheWorkReturns() async throws {
        let kernel = SimulationKernel(start: start)
        let trace = Trace()
        kernel.schedule(after: .zero) { _ in trace.add("queued first") }
        async let answer = kernel.submit { () throws(SimulationError) -> String in
            trace.add("submitted at \(kernel.now - self.start)")
            return "done"
        }
        async let failure: Void = kernel.submit { () throws(SimulationError) in
            throw SimulationError(.kernelBusy, "refused")
        }
        await kernel.submissionsWaiting(atLeast: 2)
        #expect(kernel.waitingSubmissions == 2)
        try await kernel.run(until: start + .minutes(1))
        #expect(try await answer == "done")
        do {
            try await failure
            Issue.record("the submission's error was not rethrown")
        } catch {
            #expect(error as? SimulationError == SimulationError(.kernelBusy, "refused"))
        }
        #expect(trace.all == ["queued first", "submitted at PT0S"])
    }

    @Test func advanceAndRunsAreRefusedWhileARunMovesTheClockAndAManualRunAdvancesOnRequest() async throws {
        let kernel = SimulationKernel(start: start)
        kernel.schedule(after: .minutes(1)) { _ in
            await #expect(throws: SimulationError.self) { try await kernel.advance(by: .minutes(1)) }
            await #expect(throws: SimulationError.self) { try await kernel.run(.manual) }  // one run at a time
        }
        try await kernel.run(until: start + .minutes(2))
        for speed in [0, -1, Double.infinity, Double.nan] {
            await #expect(throws: SimulationError.self) { try await kernel.run(.paced(speed: speed)) }
        }
        await #expect(throws: SimulationError.self) { try await kernel.advance(to: start) }  // in the past
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await kernel.run(.manual) }
            await kernel.submit {}  // returns once the manual run is live: only a run takes submissions
            try await kernel.advance(by: .hours(1))
            #expect(kernel.now == start + .minutes(62))
            kernel.stop()
            try await group.waitForAll()
        }
        #expect(kernel.phase == .idle)
    }

    @Test func aPacedRunMovesVirtualTimeWithWallTimeAndRunsSubmissions() async throws {
        let kernel = SimulationKernel(start: start)
        let trace = Trace()
        kernel.schedule(after: .hours(1)) { now in trace.add("hour \(now - self.start)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            // 10⁷ virtual seconds per wall second: the hour passes in well under a wall second.
            group.addTask { try await kernel.run(.paced(speed: 1e7)) }
            let seen = await kernel.submit { kernel.now }
            #expect(seen >= self.start)
            await kernel.submit {
                kernel.schedule(after: .hours(2)) { _ in
                    trace.add("stop")
                    kernel.stop()
                }
            }
            try await group.waitForAll()
        }
        #expect(trace.all == ["hour PT1H", "stop"])
        #expect(kernel.now >= start + .hours(2))
    }
}
