import Synchronization
import Testing
@testable import Simulation

/// A ``SimulationKernel/Step`` fires in the place a ``SimulationKernel/Handler`` would, and what it leaves runs before
/// the next event: the order of a run is the same whichever form its events take.
@Suite("Simulation kernel: steps")
struct SimulationKernelStepTests {
    let start = SimInstant(unixSeconds: 1_767_913_200)

    /// Each event logs, schedules a follower at its instant and, every third one, a later event; as steps, every other
    /// one leaves the scheduling to a rest that first yields (a real suspension). Handlers and steps give the same trace.
    @Test func stepsAndWhatTheyLeaveKeepTheOrderOfHandlers() async throws {
        func runOnce(steps: Bool) async throws -> [String] {
            let kernel = SimulationKernel(start: start)
            let trace = Trace()
            var rng = SplitMix64(seed: 40)
            for i in 0..<200 {
                let at = start + .seconds(Int64(rng.next() % 50))
                @Sendable func effects(_ now: SimInstant) {
                    trace.add("\(i)@\(now.unixSeconds - 1_767_913_200)")
                    kernel.schedule(at: now) { later in trace.add("follower of \(i)@\(later.unixSeconds - 1_767_913_200)") }
                    if i % 3 == 0 { kernel.schedule(after: .seconds(7)) { later in trace.add("later of \(i)@\(later.unixSeconds - 1_767_913_200)") } }
                }
                if !steps {
                    kernel.schedule(at: at) { now in
                        if i % 2 == 1 { await Task.yield() }
                        effects(now)
                    }
                } else if i % 2 == 0 {
                    kernel.scheduleStep(after: at - kernel.now, label: "step \(i)") { now in
                        effects(now)
                        return nil
                    }
                } else {
                    kernel.scheduleStep(after: at - kernel.now, label: "step \(i)") { _ in
                        { now in
                            await Task.yield()
                            effects(now)
                        }
                    }
                }
            }
            try await kernel.run(until: start + .minutes(5))
            return trace.all
        }
        let handlers = try await runOnce(steps: false)
        #expect(handlers.count == 200 * 2 + 67)
        #expect(try await runOnce(steps: true) == handlers)
    }

    /// A recurring step fires where a recurring handler does, and each firing's rest ends before the next event.
    @Test func aRecurringStepFiresWhereARecurringHandlerDoes() async throws {
        func runOnce(steps: Bool) async throws -> [String] {
            let kernel = SimulationKernel(start: start)
            let trace = Trace()
            let start = self.start
            let next: @Sendable (SimInstant) -> SimInstant? = { $0 + .seconds(10) <= start + .seconds(60) ? $0 + .seconds(10) : nil }
            @Sendable func fire(_ now: SimInstant) {
                trace.add("fire@\(now.unixSeconds - start.unixSeconds)")
                kernel.schedule(at: now + .seconds(10)) { later in trace.add("by-fire@\(later.unixSeconds - start.unixSeconds)") }
            }
            if steps {
                kernel.scheduleStep(at: start + .seconds(10), recurring: next, label: "recurring step") { now in
                    guard (now.unixSeconds - start.unixSeconds) % 20 == 0 else {
                        fire(now)
                        return nil
                    }
                    return { later in
                        await Task.yield()
                        fire(later)
                    }
                }
            } else {
                kernel.schedule(at: start + .seconds(10), recurring: next, label: "recurring") { now in fire(now) }
            }
            for s in stride(from: 5, through: 45, by: 10) {
                kernel.schedule(at: start + .seconds(Int64(s))) { now in
                    kernel.schedule(at: now + .seconds(15)) { later in trace.add("earlier@\(later.unixSeconds - start.unixSeconds)") }
                }
            }
            try await kernel.run(until: start + .minutes(2))
            #expect(kernel.pendingCount == 0)
            return trace.all
        }
        let handlers = try await runOnce(steps: false)
        #expect(handlers.filter { $0.hasPrefix("fire") } == ["fire@10", "fire@20", "fire@30", "fire@40", "fire@50", "fire@60"])
        #expect(try await runOnce(steps: true) == handlers)
    }
}
