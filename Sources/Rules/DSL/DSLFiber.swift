import Simulation
import Synchronization

/// A parked side of a hand-over: a continuation, or a resume that came before anyone waited.
private struct Baton {
    var waiter: UnsafeContinuation<Void, Never>?
    var early = false

    mutating func take() -> UnsafeContinuation<Void, Never>? {
        if let w = waiter { waiter = nil; return w }
        early = true
        return nil
    }
}

/// One run of a rule that may call `Thread::sleep`: it runs on its own task, and the kernel event that
/// started (or woke) it waits until it ends or sleeps. Only one of them runs at a time, so runs stay
/// deterministic; while the run sleeps, the world goes on, and the kernel event that ends the sleep
/// resumes it at its virtual instant.
///
/// openHAB runs each rule on one thread: a trigger that comes while the rule sleeps waits for it (see
/// ``DSLLock``).
final class DSLFiber: Sendable {
    private let kernelSide = Mutex(Baton())
    private let fiberSide = Mutex(Baton())
    private let recorded = Mutex<(first: Bool, count: Int)>((true, 0))
    let execution: RuleExecution

    init(execution: RuleExecution) { self.execution = execution }

    /// Runs `body` as a fiber and returns when it ends or first sleeps.
    func start(_ body: @escaping @Sendable () async -> Void) async {
        Task { [self] in  // simulation task: the fiber runs only while the kernel has handed control to it (virtual time)
            await body()
            yieldToKernel()
        }
        await waitForYield()
    }

    /// The kernel side: waits until the fiber ends or sleeps.
    func waitForYield() async {
        await withUnsafeContinuation { (k: UnsafeContinuation<Void, Never>) in
            let now = kernelSide.withLock { side -> Bool in
                if side.early { side.early = false; return true }
                side.waiter = k
                return false
            }
            if now { k.resume() }
        }
    }

    /// The fiber side: hands control back to the kernel event waiting on it, recording what the run did
    /// since it last handed over (the first part is recorded by the engine as the run itself).
    func yieldToKernel() {
        flush()
        recorded.withLock { $0.first = false }
        kernelSide.withLock { $0.take() }?.resume()
    }

    /// Records what the run did since it last handed over, once it has slept (before that, the engine
    /// records the run itself when the fiber first hands over).
    func flush() {
        let (first, from) = recorded.withLock { ($0.first, $0.count) }
        let effects = execution.effectRecords
        recorded.withLock { $0.count = effects.count }
        if !first, effects.count > from {
            execution.engine.recordContinuation(execution.rule, summary: "rule \"\(execution.rule.shownName)\" continues", effects: Array(effects[from...]))
        }
    }

    /// The fiber side: parks until ``wake()``.
    func park() async {
        await withUnsafeContinuation { (k: UnsafeContinuation<Void, Never>) in
            let now = fiberSide.withLock { side -> Bool in
                if side.early { side.early = false; return true }
                side.waiter = k
                return false
            }
            if now { k.resume() }
        }
    }

    /// The kernel side: lets a parked fiber go on (the caller then waits with ``waitForYield()``).
    func wake() {
        fiberSide.withLock { $0.take() }?.resume()
    }

    /// `Thread::sleep(ms)`: the run pauses for `ms` of virtual time while the world goes on.
    func sleep(milliseconds: Int64) async {
        let scheduler = execution.scheduler
        _ = scheduler.schedule(at: scheduler.now + .milliseconds(milliseconds), label: "Thread::sleep of rule \(execution.rule.shownName)") { [self] _ in
            wake()
            await waitForYield()
        }
        yieldToKernel()
        await park()
    }
}

/// A lock between runs on fibers: the one thread of a rule in openHAB (a run that starts while another run
/// of the same rule sleeps waits until that one ends), and `java.util.concurrent.locks.ReentrantLock` as rules
/// use it (`lock`, `unlock`, `tryLock`, `isLocked`, `isHeldByCurrentThread`). A run that wants a lock another
/// run holds (one that sleeps inside it) parks until it is its turn, in the order they came, as Java's
/// queue does; the owner may take it again (it counts its holds, as `ReentrantLock`).
final class DSLLock: Sendable {
    private struct State {
        /// The run holding the lock, kept alive while it holds it (an identifier of a fiber that ended could
        /// be reused by a new fiber at the same address, which would then pass for the owner).
        var owner: DSLFiber?
        var holds = 0
        var waiting: [DSLFiber] = []
    }
    private let state = Mutex(State())

    /// Takes the lock for `fiber`: at once when it is free or the fiber's own, else parks until its turn.
    func acquire(_ fiber: DSLFiber) async {
        let wait = state.withLock { s -> Bool in
            if s.owner == nil || s.owner === fiber { s.owner = fiber; s.holds += 1; return false }
            s.waiting.append(fiber)
            return true
        }
        guard wait else { return }
        fiber.yieldToKernel()
        await fiber.park()
    }

    /// `tryLock()`: takes the lock when it is free or the fiber's own. - Returns: whether it did.
    func tryAcquire(_ fiber: DSLFiber) -> Bool {
        return state.withLock { s -> Bool in
            guard s.owner == nil || s.owner === fiber else { return false }
            s.owner = fiber
            s.holds += 1
            return true
        }
    }

    /// Gives one hold back; the last one hands the lock to the next waiting run, which goes on now (this
    /// run's kernel event waits for it). - Returns: false when `fiber` does not hold the lock.
    func release(_ fiber: DSLFiber) async -> Bool {
        var owned = true
        let next = state.withLock { s -> DSLFiber? in
            guard s.owner === fiber else { owned = false; return nil }
            s.holds -= 1
            if s.holds > 0 { return nil }
            if s.waiting.isEmpty { s.owner = nil; return nil }
            let next = s.waiting.removeFirst()
            s.owner = next
            s.holds = 1
            return next
        }
        guard owned else { return false }
        if let next {
            fiber.flush()  // what this run did up to the unlock shows before what the next one does
            next.wake()
            await next.waitForYield()
        }
        return true
    }

    var isLocked: Bool { state.withLock { $0.owner != nil } }

    func isHeld(by fiber: DSLFiber?) -> Bool {
        guard let fiber else { return false }
        return state.withLock { $0.owner === fiber }
    }

    var holdCount: Int { state.withLock { $0.holds } }
}
