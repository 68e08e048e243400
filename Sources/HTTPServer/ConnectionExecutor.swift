import Dispatch
import Synchronization

/// A task executor whose jobs run on one connection's own thread.
///
/// The handler and the iteration of a streamed body run as tasks that prefer this executor, so
/// serving a request needs no thread of the cooperative pool: a pool kept busy by other work
/// (a long simulation step, other tests) cannot stall the server. Default actors the handler
/// calls run their jobs here too while it awaits them. The connection thread drives the
/// executor with ``run(until:timeout:)``; once it leaves, ``close()`` hands any late job to the
/// global concurrent executor, so no task is ever stranded.
final class ConnectionExecutor: TaskExecutor {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var closed = false
    }

    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)

    /// Queues a job for the connection thread (or the global executor once closed).
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = queue.withLock { queue in
            if queue.closed { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted {
            wake.signal()
        } else {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// Runs queued jobs on the calling thread until `done()` holds or `timeout` (wall time) passes.
    /// - Returns: whether `done()` held.
    func run(until done: () -> Bool, timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        // Wall clock: the connection's pacing, not simulation time.
        let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        while true {
            let jobs = queue.withLock { queue in
                defer { queue.jobs.removeAll(keepingCapacity: true) }
                return queue.jobs
            }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            if done() { return true }
            if jobs.isEmpty && wake.wait(timeout: deadline) == .timedOut {
                return done()
            }
        }
    }

    /// Stops taking jobs: queued and later ones go to the global concurrent executor.
    func close() {
        let left = queue.withLock { queue in
            queue.closed = true
            defer { queue.jobs.removeAll() }
            return queue.jobs
        }
        for job in left { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}
