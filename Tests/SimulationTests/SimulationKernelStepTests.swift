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

    /// A reusable step timer (a thermal zone's) that re-arms itself from its firing, is moved while armed, disarmed and
    /// re-armed fires exactly where a one-shot timer cancelled and scheduled anew at each of those moments does.
    @Test func aReusableTimerFiresWhereCancelAndScheduleWould() async throws {
        func runOnce(reusable: Bool) async throws -> ([String], pendingArmed: Int, pendingAfter: Int) {
            let kernel = SimulationKernel(start: start)
            let trace = Trace()
            let start = self.start
            let current = Mutex<TimerID?>(nil)
            @Sendable func log(_ what: String, _ now: SimInstant) { trace.add("\(what)@\(now.unixSeconds - start.unixSeconds)") }
            let reusableID = Mutex<TimerID?>(nil)
            // Plans the timer's next firing: re-arms (or cancels and schedules) it; `nil` disarms (or cancels) it.
            @Sendable func plan(_ at: SimInstant?) {
                if reusable {
                    let id = reusableID.withLock { $0 }!
                    if let at { kernel.arm(id, at: at) } else { kernel.disarm(id) }
                    return
                }
                if let old = current.withLock({ $0 }) { kernel.cancel(old) }
                current.withLock { $0 = nil }
                guard let at else { return }
                let id = kernel.scheduleStep(after: at - kernel.now, label: "zone") { now in
                    log("zone", now)
                    plan(now + .seconds(10) <= start + .seconds(100) ? now + .seconds(10) : nil)
                    return nil
                }
                current.withLock { $0 = id }
            }
            if reusable {
                reusableID.withLock { $0 = kernel.makeStepTimer(label: "zone") { now in
                    log("zone", now)
                    plan(now + .seconds(10) <= start + .seconds(100) ? now + .seconds(10) : nil)
                    return nil
                } }
            }
            for s in stride(from: 0, through: 100, by: 5) {
                kernel.schedule(at: start + .seconds(Int64(s))) { now in log("other", now) }
            }
            plan(start + .seconds(10))
            kernel.schedule(at: start + .seconds(25)) { now in log("moves", now); plan(now + .seconds(5)) }
            kernel.schedule(at: start + .seconds(50)) { now in log("disarms", now); plan(nil) }
            kernel.schedule(at: start + .seconds(60)) { now in log("arms", now); plan(now) }
            let pendingArmed = kernel.pendingCount
            try await kernel.run(until: start + .minutes(5))
            return (trace.all, pendingArmed, kernel.pendingCount)
        }
        let (scheduled, armedScheduled, afterScheduled) = try await runOnce(reusable: false)
        let zone = scheduled.filter { $0.hasPrefix("zone") }
        #expect(zone == ["zone@10", "zone@20", "zone@30", "zone@40", "zone@60", "zone@70", "zone@80", "zone@90", "zone@100"])
        let (reused, armedReused, afterReused) = try await runOnce(reusable: true)
        #expect(reused == scheduled)
        #expect(armedReused == armedScheduled && afterReused == afterScheduled && afterReused == 0)
    }
}
