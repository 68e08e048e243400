import Synchronization
import Testing
@testable import Simulation

/// Collects what handlers saw, in order.
final class Trace: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

@Suite("Simulation kernel")
struct SimulationKernelTests {
    let start = SimInstant(unixSeconds: 1_767_913_200)

    @Test func ordersByTimeThenInsertion() async throws {
        let kernel = SimulationKernel(start: start)
        let trace = Trace()
        kernel.schedule(at: start + .minutes(10)) { _ in trace.add("b") }
        kernel.schedule(at: start + .minutes(5)) { _ in trace.add("a") }
        kernel.schedule(at: start + .minutes(10)) { _ in trace.add("c") }
        kernel.schedule(after: .minutes(10)) { _ in trace.add("d") }
        try await kernel.run(until: start + .hours(1))
        #expect(trace.all == ["a", "b", "c", "d"])
        #expect(kernel.now == start + .hours(1))
        #expect(kernel.eventsProcessed == 4)
    }

    @Test func clockIsAtEventTimeInsideHandler() async throws {
        let kernel = SimulationKernel(start: start)
        let trace = Trace()
        kernel.schedule(after: .seconds(90)) { now in trace.add("\(now == kernel.now) \(now - self.start)") }
        try await kernel.run(until: start + .hours(1))
        #expect(trace.all == ["true PT1M30S"])
    }

    @Test func handlerScheduledEventsAtSameTimeRunAfterQueuedOnes() async throws {
        let kernel = SimulationKernel(start: start)
        let trace = Trace()
        kernel.schedule(after: .minutes(1)) { _ in
            trace.add("first")
            kernel.schedule(after: .zero) { _ in trace.add("spawned") }
        }
        kernel.schedule(after: .minutes(1)) { _ in trace.add("second") }
        try await kernel.run(until: start + .minutes(2))
        #expect(trace.all == ["first", "second", "spawned"])
    }

    @Test func aChainFiresInOrderAndKeepsTheSameInstantPlaceOfInstantsScheduledAtOnce() async throws {
        // Reference: every instant scheduled up front, between an event scheduled before and one after.
        func run(chained: Bool) async throws -> ([String], Int) {
            let kernel = SimulationKernel(start: start)
            let trace = Trace()
            let instants = (0...4).map { start + .minutes(Int64(10 * $0)) }
            kernel.schedule(at: start + .minutes(20)) { _ in trace.add("before") }
            if chained {
                let last = instants[instants.count - 1]
                kernel.schedule(at: instants[0], then: { $0 + .minutes(10) <= last ? $0 + .minutes(10) : nil }) { now in
                    trace.add("tick \(Int((now - self.start).seconds) / 60)")
                    if now == self.start + .minutes(10) { kernel.schedule(at: self.start + .minutes(20)) { _ in trace.add("spawned") } }
                }
            } else {
                for instant in instants {
                    kernel.schedule(at: instant) { now in
                        trace.add("tick \(Int((now - self.start).seconds) / 60)")
                        if now == self.start + .minutes(10) { kernel.schedule(at: self.start + .minutes(20)) { _ in trace.add("spawned") } }
                    }
                }
            }
            kernel.schedule(at: start + .minutes(20)) { _ in trace.add("after") }
            let pending = kernel.pendingCount
            try await kernel.run(until: start + .hours(1))
            return (trace.all, pending)
        }
        let (chained, chainPending) = try await run(chained: true)
        let (reference, _) = try await run(chained: false)
        #expect(chained == ["tick 0", "tick 10", "before", "tick 20", "after", "spawned", "tick 30", "tick 40"])
        #expect(chained == reference)
        #expect(chainPending == 3)  // the chain holds one event, not five
    }

    @Test func aChainMayFireSeveralTimesAtOneInstantAsEventsScheduledOneAfterAnother() async throws {
        // Three firings at 10 minutes and one at 20, as a timeline's steps: each firing comes before an
        // event scheduled after the chain and before one a firing spawns at its own instant.
        func run(chained: Bool) async throws -> ([String], Int) {
            let kernel = SimulationKernel(start: start)
            let trace = Trace()
            let instants = [10, 10, 10, 20].map { start + .minutes(Int64($0)) }
            kernel.schedule(at: start + .minutes(10)) { _ in trace.add("before") }
            @Sendable func fire(_ index: Int, _ now: SimInstant) {
                trace.add("step \(index)")
                if index == 0 { kernel.schedule(at: now) { _ in trace.add("spawned") } }
            }
            if chained {
                let taken = Mutex(0), started = Mutex(0)
                kernel.schedule(at: instants[0], then: { _ in
                    taken.withLock { count in
                        count += 1
                        return count < instants.count ? instants[count] : nil
                    }
                }) { now in
                    fire(started.withLock { count in
                        defer { count += 1 }
                        return count
                    }, now)
                }
            } else {
                for (index, instant) in instants.enumerated() { kernel.schedule(at: instant) { now in fire(index, now) } }
            }
            kernel.schedule(at: start + .minutes(10)) { _ in trace.add("after") }
            let pending = kernel.pendingCount
            try await kernel.run(until: start + .hours(1))
            return (trace.all, pending)
        }
        let (chained, chainPending) = try await run(chained: true)
        let (reference, _) = try await run(chained: false)
        #expect(chained == ["before", "step 0", "step 1", "step 2", "after", "spawned", "step 3"])
        #expect(chained == reference)
        #expect(chainPending == 3)
    }

    @Test func cancelledEventsNeverFire() async throws {
        let kernel = SimulationKernel(start: start)
        let trace = Trace()
        let id = kernel.schedule(after: .minutes(1)) { _ in trace.add("cancelled") }
        kernel.schedule(after: .minutes(2)) { _ in trace.add("kept") }
        #expect(kernel.cancel(id))
        #expect(!kernel.cancel(id))
        #expect(kernel.pendingCount == 1)
        try await kernel.run(until: start + .hours(1))
        #expect(trace.all == ["kept"])
        #expect(kernel.eventsProcessed == 1)
    }

    @Test func eventsAfterTheEndWaitForTheNextRun() async throws {
        let kernel = SimulationKernel(start: start)
        let trace = Trace()
        kernel.schedule(after: .hours(2)) { _ in trace.add("later") }
        #expect(try await kernel.run(until: start + .hours(1)) == 0)
        #expect(trace.all.isEmpty)
        #expect(kernel.nextEventTime == start + .hours(2))
        #expect(try await kernel.advance(by: .hours(1)) == 1)
        #expect(trace.all == ["later"])
    }

    @Test func runningBackwardsIsAnError() async throws {
        let kernel = SimulationKernel(start: start)
        await #expect(throws: SimulationError.self) { try await kernel.run(until: start - .seconds(1)) }
        #expect(kernel.phase == .idle)
    }

    @Test func pastTimesAreClampedToNow() async throws {
        let kernel = SimulationKernel(start: start)
        let trace = Trace()
        kernel.schedule(at: start - .hours(5)) { now in trace.add("\(now == self.start)") }
        try await kernel.run(until: start)
        #expect(trace.all == ["true"])
    }

    @Test func recurrenceFiresHourlyAtMinuteFiveUntilCancelled() async throws {
        let calendar = try LocalCalendar(identifier: "Europe/Budapest")
        let kernel = SimulationKernel(start: try calendar.parseInstant("2026-01-09T00:00"))
        let trace = Trace()
        let fired = Mutex(0)
        let box = Mutex<TimerID?>(nil)
        let id = try kernel.every(minutes: 60, atMinute: 5, in: calendar) { now in
            trace.add(calendar.localDateTime(at: now).time.description)
            let count = fired.withLock { $0 += 1; return $0 }
            if count == 3, let id = box.withLock({ $0 }) { kernel.cancel(id) }
        }
        box.withLock { $0 = id }
        try await kernel.run(until: try calendar.parseInstant("2026-01-10T00:00"))
        #expect(trace.all == ["00:05", "01:05", "02:05"])
        #expect(kernel.pendingCount == 0)
    }

    /// A recurring timer (a cron) fires where a handler that schedules its own next firing first would: an event queued
    /// for an instant before the firing there was queued comes before it (a chain, which keeps the place it was first
    /// scheduled with, would fire first), one queued by the firing before comes after it.
    @Test func aRecurringTimerFiresWhereASelfSchedulingOneWould() async throws {
        let start = self.start
        enum Arming { case selfScheduling, recurring, chain }
        func runOnce(_ arming: Arming) async throws -> [String] {
            let kernel = SimulationKernel(start: start)
            let trace = Trace()
            @Sendable func second(_ at: SimInstant) -> Int64 { at.unixSeconds - start.unixSeconds }
            let next: @Sendable (SimInstant) -> SimInstant? = { at in second(at) <= 40 ? at + .seconds(10) : nil }
            let fire: SimulationKernel.Handler = { now in
                trace.add("fire@\(second(now))")
                kernel.schedule(at: now + .seconds(10)) { later in trace.add("by-fire@\(second(later))") }
            }
            switch arming {
            case .recurring:
                kernel.schedule(at: start + .seconds(10), recurring: next, label: "recurring", fire)
            case .chain:
                kernel.schedule(at: start + .seconds(10), then: next, label: "chain", fire)
            case .selfScheduling:
                @Sendable func arm(_ at: SimInstant) {
                    kernel.schedule(at: at) { now in
                        if let following = next(now) { arm(following) }
                        await fire(now)
                    }
                }
                arm(start + .seconds(10))
            }
            // Queued after the timer was armed, each at 5 s past a firing, for the instant of the firing after the next.
            for s in stride(from: 5, through: 35, by: 10) {
                kernel.schedule(at: start + .seconds(Int64(s))) { now in
                    kernel.schedule(at: now + .seconds(15)) { later in trace.add("earlier@\(second(later))") }
                }
            }
            try await kernel.run(until: start + .minutes(2))
            #expect(kernel.pendingCount == 0)
            return trace.all
        }
        let selfScheduling = try await runOnce(.selfScheduling)
        #expect(try await runOnce(.recurring) == selfScheduling)
        #expect(try await runOnce(.chain).prefix(4) == ["fire@10", "fire@20", "earlier@20", "by-fire@20"])  // what the test tells apart
        #expect(selfScheduling.prefix(4) == ["fire@10", "earlier@20", "fire@20", "by-fire@20"])
        #expect(selfScheduling.filter { $0.hasPrefix("fire") } == ["fire@10", "fire@20", "fire@30", "fire@40", "fire@50"])
    }

    @Test func sameScheduleSameOrderEveryTime() async throws {
        func runOnce() async throws -> [String] {
            let kernel = SimulationKernel(start: start)
            let trace = Trace()
            var rng = SplitMix64(seed: 7)
            for i in 0..<500 {
                let at = start + .seconds(Int64(rng.next() % 100))
                kernel.schedule(at: at) { now in trace.add("\(i)@\(now.unixSeconds)") }
            }
            try await kernel.run(until: start + .hours(1))
            return trace.all
        }
        let a = try await runOnce(), b = try await runOnce()
        #expect(a == b)
        #expect(a.count == 500)
    }

    /// A handler that reschedules itself at the same instant forever stops at the limit, idle and usable.
    @Test func anEventLimitStopsAStormAtOneInstant() async throws {
        let kernel = SimulationKernel(start: start)
        @Sendable func again(_ now: SimInstant) { kernel.schedule(at: now) { again($0) } }
        kernel.schedule(at: start + .minutes(1)) { again($0) }
        await #expect(throws: SimulationError.self) { try await kernel.run(until: start + .hours(1), eventLimit: 100) }
        do { try await kernel.run(until: start + .hours(1), eventLimit: 100) } catch {
            #expect(error.code == .eventLimit)
            #expect(error.message.contains("after 100 events"))
        }
        #expect(kernel.phase == .idle)
        #expect(kernel.now == start + .minutes(1))
        // A run that needs no more than its limit ends normally.
        let calm = SimulationKernel(start: start)
        calm.schedule(after: .minutes(5)) { _ in }
        #expect(try await calm.run(until: start + .hours(1), eventLimit: 1) == 1)
    }
}

@Suite("Seeded randomness")
struct RandomTests {
    @Test func splitMix64ReferenceValues() {
        // Reference outputs of Vigna's splitmix64.c for seed 0.
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(rng.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func fnv1aReferenceValues() {
        #expect(StableHash.fnv1a64("") == 0xCBF2_9CE4_8422_2325)
        #expect(StableHash.fnv1a64("a") == 0xAF63_DC4C_8601_EC8C)
        #expect(StableHash.fnv1a64("foobar") == 0x8594_4171_F739_67E8)
    }

    @Test func fnv1aAppendingDecimalIsTheHashOfTheWholeText() {
        let numbers: [Int64] = [0, 1, 9, 10, 99, 100, 493_000, -1, -10, -493_123, 9_999_999_999,
                                Int64.max, Int64.min, Int64.min + 1]
        for prefix in ["", "weather/Budapest/", "weather/São Paulo/"] {
            for number in numbers {
                #expect(StableHash.fnv1a64(StableHash.fnv1a64(prefix), appendingDecimal: number)
                        == StableHash.fnv1a64(prefix + String(number)), "\(prefix)\(number)")
            }
        }
        var a = SplitMix64.stream(seed: 42, named: "weather/Budapest/493000")
        var b = SplitMix64.stream(seed: 42, nameHash: StableHash.fnv1a64(StableHash.fnv1a64("weather/Budapest/"), appendingDecimal: 493_000))
        #expect(a.next() == b.next())
    }

    @Test func streamsAreStableAndIndependent() {
        var a1 = SplitMix64.stream(seed: 42, named: "flat-1/heating")
        var a2 = SplitMix64.stream(seed: 42, named: "flat-1/heating")
        var b = SplitMix64.stream(seed: 42, named: "flat-2/heating")
        var c = SplitMix64.stream(seed: 43, named: "flat-1/heating")
        let x = a1.next()
        #expect(x == a2.next())
        #expect(x != b.next())
        #expect(x != c.next())
    }

    @Test func unitAndGaussianAreInRangeAndCentred() {
        var rng = SplitMix64(seed: 1)
        var sum = 0.0, sumSq = 0.0
        let n = 20_000
        for _ in 0..<n {
            let u = rng.nextUnit()
            #expect(u >= 0 && u < 1)
            let g = rng.nextGaussian()
            sum += g
            sumSq += g * g
        }
        let mean = sum / Double(n), variance = sumSq / Double(n) - mean * mean
        #expect(abs(mean) < 0.05)
        #expect(abs(variance - 1) < 0.05)
    }
}
