/// Live runs: the kernel keeps running and waits for outside work instead of ending when its
/// queue is empty.
extension SimulationKernel {
    /// How a live run (``run(_:)``) moves virtual time.
    public enum LiveMode: Sendable, Equatable {
        /// Virtual time follows wall time, `speed` virtual seconds per wall second (1 = real time).
        case paced(speed: Double)
        /// Virtual time stands still until ``SimulationKernel/advance(to:)`` or
        /// ``SimulationKernel/advance(by:)`` moves it; submissions run at once at the current instant.
        case manual
    }

    /// Runs live until ``stop()`` is called or the calling task is cancelled.
    ///
    /// Both modes run every event that is due and every submission as soon as it arrives, at the
    /// current instant and in the kernel's order: all submissions waiting when the loop looks
    /// enter the queue together, ordered by their `order` key, then by arrival. A manual run
    /// moves time only on ``advance(to:)``; a paced run moves it with wall time and sleeps until
    /// the next event is due or a submission arrives. Submissions still waiting when the run
    /// ends run in the next run.
    /// - Throws: ``SimulationError`` `kernel.busy` if another run is active; `kernel.speed` for a
    ///   paced speed that is not a positive, finite number.
    public func run(_ mode: LiveMode) async throws(SimulationError) {
        if case .paced(let speed) = mode, !(speed > 0 && speed.isFinite) {
            throw SimulationError(.invalidSpeed, "cannot pace the simulation at \(speed)× wall time; give a positive speed such as 1 (real time) or 60.")
        }
        try state.withLock { state throws(SimulationError) in
            guard state.phase == .idle else {
                throw SimulationError(.kernelBusy, "cannot start a \(mode) run: the kernel is already in \(state.phase); stop that run first.")
            }
            state.phase = .live(mode)
            state.stopRequested = false
        }
        switch mode {
        case .manual: await runManual()
        case .paced(let speed): await runPaced(speed: speed)
        }
        let unserved = state.withLock { state in
            state.phase = .idle
            state.stopRequested = false
            defer { state.advanceRequests.removeAll() }
            return state.advanceRequests.map(\.continuation)
        }
        for continuation in unserved {
            continuation.resume(returning: .failure(SimulationError(.kernelStopped, "the live run stopped before this advance ran; start a new run.")))
        }
    }

    /// Ends a live run once the event it is running returns (a no-op when none is active).
    public func stop() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard case .live = state.phase else { return nil }
            state.stopRequested = true
            return state.wake.signal()
        }
        waiter?.resume()
    }

    /// Runs events until `target` and sets ``now`` to it.
    ///
    /// During a manual live run this is a request to that run, served in arrival order after the
    /// submissions already waiting; otherwise (no run active) it runs the events itself, as
    /// ``run(until:)``.
    /// - Returns: the number of events that fired.
    /// - Throws: ``SimulationError`` `schedule.past` if `target` is before ``now``; `kernel.busy`
    ///   during a run-to-end or paced run; `kernel.stopped` if the live run stops first.
    @discardableResult
    public func advance(to target: SimInstant) async throws(SimulationError) -> Int {
        enum Route { case direct, queued }
        let route = try state.withLock { state throws(SimulationError) -> Route in
            switch state.phase {
            case .idle: return .direct
            case .live(.manual): return .queued
            case .running, .live(.paced):
                throw SimulationError(.kernelBusy, "cannot advance to \(target): a \(state.phase) run moves the clock itself.")
            }
        }
        if route == .direct { return try await run(until: target) }
        let result = await withCheckedContinuation { continuation in
            let waiter = state.withLock { state in
                state.advanceRequests.append((target, continuation))
                return state.wake.signal()
            }
            waiter?.resume()
        }
        return try result.get()
    }

    /// Runs events until `duration` after ``now`` (see ``advance(to:)``).
    @discardableResult
    public func advance(by duration: SimDuration) async throws(SimulationError) -> Int {
        try await advance(to: now + duration)
    }

    // MARK: The loops

    private func runManual() async {
        while true {
            await runDue(notAfter: now)  // submissions, and events that became due at this instant
            if let request = state.withLock({ $0.advanceRequests.isEmpty ? nil : $0.advanceRequests.removeFirst() }) {
                let current = now
                guard request.target >= current else {
                    request.continuation.resume(returning: .failure(SimulationError(
                        .scheduledInPast, "cannot advance to \(request.target): the clock is already at \(current).")))
                    continue
                }
                let fired = await runDue(notAfter: request.target)
                state.withLock { $0.now = request.target }
                request.continuation.resume(returning: .success(fired))
                continue
            }
            if state.withLock({ $0.stopRequested }) || Task.isCancelled { return }
            await waitForWake()
        }
    }

    /// The one place where wall time paces the simulation: virtual time is
    /// `start + speed × (wall time since the run began)`; nothing else in the twin reads a wall clock.
    private func runPaced(speed: Double) async {
        let clock = ContinuousClock()  // wall-clock: a paced run follows wall time by design (serve --clock paced)
        let wallStart = clock.now
        let virtualStart = now
        func horizon() -> SimInstant {
            let elapsed = wallStart.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            return virtualStart + SimDuration(milliseconds: Int64((seconds * speed * 1_000).rounded(.down)))
        }
        while true {
            let target = horizon()
            await runDue(notAfter: target)
            let waiting = state.withLock { state in
                state.now = max(state.now, target)
                return !state.inbox.isEmpty
            }
            if waiting { continue }
            if state.withLock({ $0.stopRequested }) || Task.isCancelled { return }
            guard let next = nextEventTime else {
                await waitForWake()
                continue
            }
            // Rounded up to the microsecond, so the loop never wakes just before the event is due.
            let wallMicroseconds = (Double((next - virtualStart).milliseconds) * 1_000 / speed).rounded(.up)
            let deadline = wallStart + .microseconds(Int64(min(wallMicroseconds, 9.0e15)))
            await withDiscardingTaskGroup { group in
                group.addTask { [self] in  // wall-clock: a timer task that only wakes the loop; no simulation work runs here
                    do {
                        try await Task.sleep(until: deadline, clock: clock)  // wall-clock: sleep until the next event is due in paced time
                        wakeLoop()
                    } catch {}  // cancelled: a submission woke the loop first
                }
                await waitForWake()
                group.cancelAll()
            }
        }
    }

    /// Runs every event due at or before `end`. - Returns: how many fired.
    @discardableResult
    private func runDue(notAfter end: SimInstant) async -> Int {
        var fired = 0
        while let (time, work) = nextDue(notAfter: end) {
            await work.fire(at: time)
            fired += 1
        }
        return fired
    }

    /// Suspends the live loop until a submission, an advance request, ``stop()`` or the pacing timer wakes it.
    private func waitForWake() async {
        await withCheckedContinuation { continuation in
            if !state.withLock({ $0.wake.park(continuation) }) { continuation.resume() }
        }
    }

    /// Wakes the live loop if it waits (or makes its next wait return at once).
    func wakeLoop() {
        state.withLock { $0.wake.signal() }?.resume()
    }
}
