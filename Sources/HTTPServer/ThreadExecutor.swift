import Foundation

/// A task executor with one thread of its own, for work that must not wait for the cooperative pool.
///
/// The pool has one thread per core, and a process that also runs batch simulations (the test suite,
/// an in-process `fuzz --target http`) can keep every pool thread busy for seconds with one long job
/// each. `serve`'s live run prefers a ``ThreadExecutor`` so that it answers requests meanwhile (seen
/// in CI before: two fuzz inputs unanswered for 5 s on a 2-core machine); tests run blocking socket
/// and process code on one. Child tasks inherit the preference, and default actors called from them
/// run here too; an unstructured task started inside does not inherit it.
///
/// Jobs run in arrival order. ``shutdown()`` ends the thread after the jobs queued by then; a job
/// that comes later (a late continuation) goes to the global concurrent executor, never stranded.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `finished` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    /// Starts the thread, named `name` for debuggers and `top -H`.
    public init(name: String) {
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        let accepted = !finished
        if accepted {
            jobs.append(job)
            condition.signal()
        }
        condition.unlock()
        if !accepted { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// Ends the thread once the jobs queued now have run; later jobs go to the global concurrent executor.
    public func shutdown() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            let done = finished
            condition.unlock()
            if done && batch.isEmpty { return }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
