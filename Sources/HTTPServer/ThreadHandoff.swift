import Dispatch
import Synchronization

/// Hands values from async code to a connection's blocking thread: a locked queue plus a semaphore.
///
/// The async side calls ``push(_:)`` and ``finish()``; the thread calls ``take(waiting:)``, which
/// blocks at most the given wall time. Used for the handler's response (one value) and for the
/// chunks of a streamed body.
final class ThreadHandoff<Value: Sendable>: Sendable {
    private struct Contents {
        var values: [Value] = []
        var finished = false
    }

    private let contents = Mutex(Contents())
    private let signal = DispatchSemaphore(value: 0)

    /// Adds a value and wakes the thread.
    func push(_ value: Value) {
        contents.withLock { $0.values.append(value) }
        signal.signal()
    }

    /// Marks the end: no value follows.
    func finish() {
        contents.withLock { $0.finished = true }
        signal.signal()
    }

    /// Waits up to `timeout` (wall time) for values, then returns all that arrived and whether the producer finished.
    func take(waiting timeout: Duration) -> (values: [Value], finished: Bool) {
        let ready = contents.withLock { !$0.values.isEmpty || $0.finished }
        if !ready {
            let (seconds, attoseconds) = timeout.components
            _ = signal.wait(timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
        }
        return contents.withLock { contents in
            defer { contents.values.removeAll() }
            return (contents.values, contents.finished)
        }
    }
}
