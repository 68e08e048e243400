/// `java.util.concurrent.locks.ReentrantLock` as rules use it to keep two runs out of the same section:
/// `lock`, `unlock` (in a `finally`), `tryLock`, `isLocked`, `isHeldByCurrentThread`, `getHoldCount`.
///
/// openHAB runs each rule on its own thread, so a lock matters only when a run pauses inside it (a
/// `Thread::sleep`): another rule's run that calls `lock()` then waits until the holder unlocks, as Java's
/// does, while the world goes on. A file that makes a `ReentrantLock` runs its rules on fibers so that such
/// a run can wait (the checker treats it like `Thread::sleep`).
enum DSLConcurrency {
    private static func lock(_ r: DSLValue, _ i: DSLInterpreter, _ at: DSLLocation) throws(DSLFlow) -> (DSLLock, DSLFiber) {
        guard case .lock(let l) = r else { throw DSLFlow.failure("\(r.kindName) is not a ReentrantLock", at, type: "ClassCastException") }
        guard let fiber = i.fiber else {
            throw DSLFlow.fatal("a ReentrantLock was used outside a fiber (the file was not compiled for it) (rules.dslRuntime)", at)
        }
        return (l, fiber)
    }

    /// The lock methods that may pause the run (a run waits for the lock).
    static let suspendingLockMethods: [String: DSLSuspendingMethod] = [
        "lock": { i, r, _, at in
            let (l, fiber) = try lock(r, i, at)
            await l.acquire(fiber)
            return .null
        },
        "lockInterruptibly": { i, r, _, at in
            let (l, fiber) = try lock(r, i, at)
            await l.acquire(fiber)
            return .null
        },
        "unlock": { i, r, _, at in
            let (l, fiber) = try lock(r, i, at)
            guard await l.release(fiber) else {
                throw DSLFlow.failure("unlock of a ReentrantLock this run does not hold", at, type: "IllegalMonitorStateException")
            }
            return .null
        },
    ]

    static let lockMethods: [String: DSLMethodCode] = [
        "tryLock": .init { i, r, a, at in
            // tryLock(timeout, unit) waits at most the timeout in Java; the twin's runs cannot wait with a
            // deadline, so it answers at once, as tryLock() does.
            let (l, fiber) = try lock(r, i, at)
            _ = a
            return .bool(l.tryAcquire(fiber))
        },
        "isLocked": .init { _, r, _, _ in
            guard case .lock(let l) = r else { return .bool(false) }
            return .bool(l.isLocked)
        },
        "isHeldByCurrentThread": .init { i, r, _, _ in
            guard case .lock(let l) = r else { return .bool(false) }
            return .bool(l.isHeld(by: i.fiber))
        },
        "getHoldCount": .init { i, r, _, _ in
            guard case .lock(let l) = r, l.isHeld(by: i.fiber) else { return .int(0) }
            return .int(Int64(l.holdCount))
        },
    ]
}
