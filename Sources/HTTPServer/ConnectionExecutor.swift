import Synchronization

/// A task executor whose jobs run on one connection's own thread.
///
/// The handler and the iteration of a streamed body run as tasks that prefer this executor, so
/// serving a request needs no thread of the cooperative pool: a pool kept busy by other work
/// (a long simulation step, other tests) cannot stall the server. Default actors the handler
/// calls may run their jobs here too. The connection thread waits only through ``wait(for:stop:timeout:)``,
/// which also watches a wake pipe that a job enqueued from another thread writes to while the
/// thread sleeps — so jobs run promptly whether the thread waits for a response, a chunk or the
/// next request. Once the connection ends, ``close()`` hands queued and later jobs to the global
/// concurrent executor, so no task is ever stranded.
final class ConnectionExecutor: TaskExecutor {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var wake: (read: Int32, write: Int32)
        var sleeping = false
        var signalled = false
        var closed = false
        /// A ``wake()`` that came while the thread was awake: its next wait returns at once.
        var wakeRequested = false
    }

    private let queue: Mutex<Queue>
    private let wakeSignal: Int32

    /// Creates the executor and its wake pipe; `nil` when no descriptor is left for the pipe.
    init?() {
        guard let pipe = Socket.makePipe(nonBlocking: true) else { return nil }
        queue = Mutex(Queue(wake: pipe))
        wakeSignal = pipe.read
    }

    /// Queues a job for the connection thread (or the global executor once closed).
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = queue.withLock { queue in
            if queue.closed { return false }
            queue.jobs.append(job)
            if queue.sleeping && !queue.signalled {
                queue.signalled = true
                Socket.signal(queue.wake.write)
            }
            return true
        }
        if !accepted { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// Runs the jobs queued now on the calling thread (the connection's). - Returns: whether there were any.
    @discardableResult
    func runQueuedJobs() -> Bool {
        let jobs = queue.withLock { queue in
            defer { queue.jobs.removeAll(keepingCapacity: true) }
            return queue.jobs
        }
        for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        return !jobs.isEmpty
    }

    /// Waits until `fd` or `stop` is readable, a job arrives (``Socket/Readiness/woken``; the
    /// jobs are then run), or `timeout` passes. Pass -1 for a descriptor not to watch.
    func wait(for fd: Int32, stop: Int32, timeout: Duration?) -> Socket.Readiness {
        let idle = queue.withLock { queue in
            queue.sleeping = queue.jobs.isEmpty && !queue.wakeRequested
            queue.wakeRequested = false
            return queue.sleeping
        }
        guard idle else {
            runQueuedJobs()
            return .woken
        }
        let readiness = Socket.waitReadable(fd, stop: stop, wake: wakeSignal, timeout: timeout)
        queue.withLock { queue in
            queue.sleeping = false
            if queue.signalled {
                Socket.drain(queue.wake.read)
                queue.signalled = false
            }
        }
        if readiness == .woken { runQueuedJobs() }
        return readiness
    }

    /// Wakes the connection thread from ``wait(for:stop:timeout:)`` (it returns ``Socket/Readiness/woken``),
    /// or makes its next wait return at once; callable from any thread (a WebSocket outbox's sender).
    func wake() {
        queue.withLock { queue in
            guard !queue.closed else { return }
            if queue.sleeping {
                if !queue.signalled {
                    queue.signalled = true
                    Socket.signal(queue.wake.write)
                }
            } else {
                queue.wakeRequested = true
            }
        }
    }

    /// Runs jobs on the calling thread until `done()` holds or `timeout` (wall time) passes.
    /// - Returns: whether `done()` held.
    func run(until done: () -> Bool, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout  // wall-clock: the connection's own timeout, not simulation time
        while true {
            runQueuedJobs()
            if done() { return true }
            let left = deadline - ContinuousClock.now  // wall-clock: time left of that timeout
            guard left > .zero, wait(for: -1, stop: -1, timeout: left) != .timedOut else { return done() }
        }
    }

    /// Stops taking jobs: queued and later ones go to the global concurrent executor; closes the wake pipe.
    func close() {
        let left = queue.withLock { queue in
            queue.closed = true
            Socket.close(queue.wake.read)
            Socket.close(queue.wake.write)
            defer { queue.jobs.removeAll() }
            return queue.jobs
        }
        for job in left { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}
