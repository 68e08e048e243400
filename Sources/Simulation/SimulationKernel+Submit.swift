/// Outside work: how a task that is not the simulation task (a socket handler, a test) gets
/// something done inside the simulation.
extension SimulationKernel {
    /// Runs `work` as an event at the current virtual instant, in the kernel's order, and returns its result.
    ///
    /// The work waits in an inbox until the run loop next looks (before its next event, or at
    /// once in a live run, see ``run(_:)``); then every waiting submission enters the queue at
    /// the current instant, ordered by `order`, then by arrival (the order the `submit` calls
    /// reached the kernel), behind the events already queued for that instant. So a given
    /// sequence of requests gives the same run every time; requests that race each other are
    /// ordered by their `order` keys when they wait together (see ``submissionsWaiting(atLeast:)``).
    /// When no run is active the work waits for the next one.
    ///
    /// Work runs on the simulation task: it must not wait for anything that needs the simulation
    /// to move on (such as ``advance(to:)``), or it waits forever.
    /// - Parameters:
    ///   - order: ranks submissions that wait together; lower runs first (default 0).
    ///   - work: what to do; it may schedule events, publish, command Items.
    /// - Returns: what `work` returned. - Throws: what `work` threw.
    @discardableResult
    public func submit<T: Sendable, E: Error>(order: Int = 0, _ work: @escaping @Sendable () async throws(E) -> T) async throws(E) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, E>, Never>) in
            enqueue(order: order) { _ in continuation.resume(returning: await Self.outcome(of: work)) }
        }
        return try result.get()
    }

    /// Puts a submission in the inbox, releases ``submissionsWaiting(atLeast:)`` callers it
    /// satisfies and wakes a live loop.
    private func enqueue(order: Int, _ handler: @escaping Handler) {
        let (waiters, loop) = state.withLock { state -> ([CheckedContinuation<Void, Never>], CheckedContinuation<Void, Never>?) in
            state.inbox.append(Submission(order: order, arrival: state.nextArrival, handler: handler))
            state.nextArrival += 1
            var ready: [CheckedContinuation<Void, Never>] = []
            let count = state.inbox.count
            state.inboxWaiters.removeAll { waiter in
                guard waiter.count <= count else { return false }
                ready.append(waiter.continuation)
                return true
            }
            guard case .live = state.phase else { return (ready, nil) }
            return (ready, state.wake.signal())
        }
        for waiter in waiters { waiter.resume() }
        loop?.resume()
    }

    private static func outcome<T, E: Error>(of work: @Sendable () async throws(E) -> T) async -> Result<T, E> {
        do {
            return .success(try await work())
        } catch {
            return .failure(error)
        }
    }

    /// How many submissions wait to enter the queue.
    public var waitingSubmissions: Int { state.withLock { $0.inbox.count } }

    /// Returns once at least `count` submissions wait together to enter the queue.
    ///
    /// With it a caller can make racing submissions run in their `order` (not arrival) order: hold
    /// the simulation task in one submission that awaits this, so the others pile up behind it;
    /// they then enter the queue together. It returns at once if enough are already waiting.
    public func submissionsWaiting(atLeast count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                guard state.inbox.count < count else { return true }
                state.inboxWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
