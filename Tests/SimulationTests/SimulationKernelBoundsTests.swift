import Synchronization
import Testing
@testable import Simulation

/// A handler that schedules itself again at the same instant, forever (the shape of every "defer until
/// now" loop).
func rescheduleForever(_ kernel: SimulationKernel, label: String) {
    kernel.schedule(at: kernel.now, label: label) { _ in rescheduleForever(kernel, label: label) }
}

@Suite("Simulation kernel bounds")
struct SimulationKernelBoundsTests {
    let start = SimInstant(unixSeconds: 1_767_913_200)

    @Test func aLoopAtOneInstantEndsTheRunNamingTheEvent() async throws {
        let kernel = SimulationKernel(start: start, maxEventsPerInstant: 1_000)
        let fired = Mutex(0)
        kernel.schedule(at: start + .minutes(5), label: "fine") { _ in fired.withLock { $0 += 1 } }
        kernel.schedule(at: start + .minutes(10), label: "first") { _ in rescheduleForever(kernel, label: "preheat r1") }
        let error = await #expect(throws: SimulationError.self) { try await kernel.run(until: start + .hours(1)) }
        #expect(error?.code == .stalled)
        #expect(error?.message.contains("more than 1000 events at 2026-01-08T23:10:00Z without the clock moving; the last was \"preheat r1\"") == true,
                "\(error?.message ?? "")")
        #expect(fired.withLock { $0 } == 1)
        #expect(kernel.now == start + .minutes(10))
        #expect(kernel.eventsProcessed == 1 + 1_000)
        #expect(kernel.phase == .idle)
    }

    @Test func manyEventsAtOneInstantBelowTheBoundRun() async throws {
        let kernel = SimulationKernel(start: start, maxEventsPerInstant: 1_000)
        for _ in 0..<1_000 { kernel.schedule(at: start + .minutes(1)) { _ in } }
        for _ in 0..<1_000 { kernel.schedule(at: start + .minutes(2)) { _ in } }
        try await kernel.run(until: start + .hours(1))
        #expect(kernel.eventsProcessed == 2_000)
    }

    @Test func stopEndsTheRunAfterTheCurrentEvent() async throws {
        let kernel = SimulationKernel(start: start)
        let fired = Mutex<[Int]>([])
        for minute in 1...5 {
            kernel.schedule(after: .minutes(Int64(minute))) { _ in
                fired.withLock { $0.append(minute) }
                if minute == 3 { kernel.stop(SimulationError(.stalled, "zone z ran away.")) }
            }
        }
        let error = await #expect(throws: SimulationError.self) { try await kernel.run(until: start + .hours(1)) }
        #expect(error == SimulationError(.stalled, "zone z ran away."))
        #expect(fired.withLock { $0 } == [1, 2, 3])
        #expect(kernel.now == start + .minutes(3))
    }

    @Test func aCancelledTaskStopsTheRun() async throws {
        let kernel = SimulationKernel(start: start)
        // An event every millisecond of a virtual day: far more than one cancellation check interval.
        kernel.schedule(after: .zero) { _ in tick(kernel) }
        let task = Task { try await kernel.run(until: start + .hours(24)) }
        task.cancel()
        let error = await #expect(throws: SimulationError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        #expect(kernel.eventsProcessed <= SimulationKernel.cancellationCheckInterval)
        #expect(kernel.now < start + .hours(24))
    }
}

private func tick(_ kernel: SimulationKernel) {
    kernel.schedule(after: .milliseconds(1)) { _ in tick(kernel) }
}
