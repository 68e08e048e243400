/// The live loop's wake-up: one waiter at most, and a signal that arrives while nobody waits is
/// kept for the next wait (so a submission made just before the loop goes to sleep is not lost).
struct WakeSignal {
    private var pending = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// Records a signal. - Returns: the waiting loop's continuation, to resume outside the lock.
    mutating func signal() -> CheckedContinuation<Void, Never>? {
        if let waiter {
            self.waiter = nil
            return waiter
        }
        pending = true
        return nil
    }

    /// Parks `continuation` unless a signal is pending. - Returns: `true` if it was parked.
    mutating func park(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        if pending {
            pending = false
            return false
        }
        waiter = continuation
        return true
    }
}
