import Synchronization

/// Values handed from a connection's tasks to its thread: the handler's response, a stream's chunks.
///
/// Both sides run on the connection thread (the tasks through ``ConnectionExecutor``), but the
/// type is `Sendable` so task closures may capture it; the lock makes that sound.
final class ThreadHandoff<Value: Sendable>: Sendable {
    private struct Contents {
        var values: [Value] = []
        var finished = false
    }

    private let contents = Mutex(Contents())

    /// Adds a value.
    func push(_ value: Value) {
        contents.withLock { $0.values.append(value) }
    }

    /// Marks the end: no value follows.
    func finish() {
        contents.withLock { $0.finished = true }
    }

    /// Whether a value or the end is waiting to be taken.
    var isReady: Bool {
        contents.withLock { !$0.values.isEmpty || $0.finished }
    }

    /// Takes every value that arrived, and whether the producer finished.
    func take() -> (values: [Value], finished: Bool) {
        contents.withLock { contents in
            defer { contents.values.removeAll() }
            return (contents.values, contents.finished)
        }
    }
}
