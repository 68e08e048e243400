import Synchronization

/// The deterministic discrete-event kernel: a virtual clock, an event queue and a run loop.
///
/// Everything in a simulation happens inside an event handler. ``run(until:)`` pops events
/// in (time, insertion sequence) order, advances ``now`` to each event's time, and awaits
/// its handler to completion before looking at the queue again — one simulation task, so
/// the order of effects never depends on the thread pool.
///
/// Scheduling is synchronous and thread-safe (a `Mutex` guards the queue), so an actor can
/// plan its next event from inside an isolated method without a suspension point:
///
/// ```swift
/// let kernel = SimulationKernel(start: start)
/// kernel.schedule(after: .minutes(30)) { now in print("half an hour in:", now) }
/// try await kernel.run(until: start + .hours(1))
/// ```
///
/// The run loop must not be called from the main actor (each actor hop from there costs
/// ~75× more); call it from a plain task.
///
/// No run can spin at one instant: after ``maxEventsPerInstant`` events without the clock moving,
/// ``run(until:)`` ends with ``SimulationError/Code/stalled`` naming the label of the event that
/// went over the bound. A component that detects a runaway of its own calls ``stop(_:)``. The run
/// loop also checks for task cancellation every ``cancellationCheckInterval`` events.
///
/// Work from outside the simulation task (a socket handler, a test's task) enters through
/// ``submit(order:_:)``: it waits in an inbox and runs as an event at the current virtual
/// instant, in the kernel's order. ``run(until:)`` runs to an end and returns; ``run(_:)``
/// keeps running, ``LiveMode/paced(speed:)`` at a multiple of wall time or
/// ``LiveMode/manual`` advanced by ``advance(to:)``, and waits for submissions until ``stop()``.
public final class SimulationKernel: SimulationScheduler {
    /// What an event does when it fires; it receives the firing instant.
    public typealias Handler = @Sendable (SimInstant) async -> Void

    /// What an event does at once when it fires, with a plain call (no async frame): it receives the firing
    /// instant and returns what is left of its work that may pause (`nil`: it is done), which the loop awaits
    /// before it takes the next event — so the order is that of a ``Handler`` doing both parts. For the many
    /// events that never pause (a rule run whose actions cannot pause), the loop makes no suspension.
    public typealias Step = @Sendable (SimInstant) -> Handler?

    /// A timer's work: a ``Handler``, or a ``Step`` that may leave a handler for the rest.
    enum Work: Sendable {
        case handler(Handler)
        case step(Step)

        /// Does the work at `time`: a step with a plain call, awaiting only what it leaves.
        @inline(__always)
        func fire(at time: SimInstant) async {
            switch self {
            case .handler(let handler): await handler(time)
            case .step(let step): if let rest = step(time) { await rest(time) }
            }
        }
    }

    /// The kernel's life cycle: idle between runs, running inside ``run(until:)`` or ``run(_:)``.
    public enum Phase: Sendable, Equatable {
        /// No run loop is active; events may be scheduled.
        case idle
        /// A run loop is active until the given instant.
        case running(until: SimInstant)
        /// A live run loop is active until ``stop()``.
        case live(LiveMode)
    }

    struct Timer {
        var sequence: UInt64
        var work: Work
        /// For a recurring timer: the instant after a given firing (`nil`: none), queued anew when a firing is taken.
        var recurrence: (@Sendable (SimInstant) -> SimInstant?)?
        /// For a chain (``schedule(at:then:label:_:)``): the instant after a given one, `nil` after the last.
        var chain: (@Sendable (SimInstant) -> SimInstant?)? = nil
        /// The call site's description, kept for the message of a stalled run.
        var label: String
    }

    /// Outside work waiting to enter the queue: its caller's order key and its arrival number.
    struct Submission {
        var order: Int
        var arrival: UInt64
        var handler: Handler
    }

    struct State {
        var now: SimInstant
        var phase: Phase = .idle
        var queue = EventQueue()
        var timers: [TimerID: Timer] = [:]
        var nextSequence: UInt64 = 0
        var eventsProcessed = 0
        /// Events fired at ``now`` so far (for the per-instant bound).
        var eventsAtNow = 0
        /// Why the run must end, once something asked it to (``stop(_:)`` or the per-instant bound).
        var stopReason: SimulationError?
        /// Submissions not yet in the queue, in arrival order.
        var inbox: [Submission] = []
        var nextArrival: UInt64 = 0
        /// Callers of ``submissionsWaiting(atLeast:)`` and the count each waits for.
        var inboxWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// The live loop's wake-up (see ``SimulationKernel/waitForWake()``).
        var wake = WakeSignal()
        /// ``SimulationKernel/advance(to:)`` requests for the manual loop, in arrival order.
        var advanceRequests: [(target: SimInstant, continuation: CheckedContinuation<Result<Int, SimulationError>, Never>)] = []
        var stopRequested = false

        mutating func insert(_ timerID: TimerID, at time: SimInstant) -> UInt64 {
            let sequence = nextSequence
            nextSequence += 1
            queue.push(.init(time: time, sequence: sequence, timer: timerID))
            return sequence
        }

        /// Moves the inbox into the queue at ``now``, ordered by (order key, arrival).
        mutating func admitSubmissions() {
            let waiting = inbox.sorted { ($0.order, $0.arrival) < ($1.order, $1.arrival) }
            inbox.removeAll(keepingCapacity: true)
            for submission in waiting {
                let id = TimerID(nextSequence)
                let sequence = insert(id, at: now)
                timers[id] = Timer(sequence: sequence, work: .handler(submission.handler), recurrence: nil, label: "submitted work")
            }
        }
    }

    let state: Mutex<State>

    /// The default of ``maxEventsPerInstant``: far above what any scenario needs at one instant
    /// (a few events per device and automation), low enough that a loop ends within seconds.
    public static let defaultMaxEventsPerInstant = 1_000_000

    /// How often, in events, the run loop checks whether its task was cancelled.
    public static let cancellationCheckInterval = 4_096

    /// The most events that may fire at one virtual instant before the run ends as stalled.
    public let maxEventsPerInstant: Int

    /// A kernel whose clock starts at `start` with an empty queue.
    /// - Parameters:
    ///   - start: the initial virtual time.
    ///   - maxEventsPerInstant: the bound on events at one instant (at least 1); see ``defaultMaxEventsPerInstant``.
    public init(start: SimInstant, maxEventsPerInstant: Int = SimulationKernel.defaultMaxEventsPerInstant) {
        state = Mutex(State(now: start))
        self.maxEventsPerInstant = max(1, maxEventsPerInstant)
    }

    /// The current virtual time: the time of the event being handled, or where the last run stopped.
    public var now: SimInstant { state.withLock { $0.now } }

    /// Whether a run loop is active.
    public var phase: Phase { state.withLock { $0.phase } }

    /// How many events have fired so far (cancelled ones not counted).
    public var eventsProcessed: Int { state.withLock { $0.eventsProcessed } }

    /// How many events are waiting (one per live timer).
    public var pendingCount: Int { state.withLock { $0.timers.count } }

    /// The time of the next live event, if any.
    public var nextEventTime: SimInstant? {
        state.withLock { state in
            while let first = state.queue.first {
                if state.timers[first.timer]?.sequence == first.sequence { return first.time }
                _ = state.queue.popFirst()  // stale entry of a cancelled timer
            }
            return nil
        }
    }

    /// Schedules `handler` at `time`; an event at the current time runs after those already queued for it.
    /// - Parameters:
    ///   - time: when to fire; a time in the past is moved to ``now`` (never fires "back in time").
    ///   - label: a short description of the event, named in the error of a stalled run.
    /// - Returns: an id for ``cancel(_:)``.
    @discardableResult
    public func schedule(at time: SimInstant, label: String = "", _ handler: @escaping Handler) -> TimerID {
        add(at: time, label: label, .handler(handler))
    }

    /// Schedules `handler` at `first` and then at each instant `next` gives after the one before
    /// (`nil` ends the chain), as one timer that keeps its place among events at the same instant:
    /// each firing comes after the events scheduled before this call and before those scheduled
    /// after it, exactly as if every instant had been scheduled here at once — but only the next
    /// one is ever held, so a run's length does not grow the queue.
    ///
    /// `next` is asked once per firing, in order, when the firing is taken from the queue (before its
    /// handler runs); it may give the same instant again (several firings at one instant, as several
    /// events scheduled one after another here would be).
    /// - Parameters:
    ///   - next: the instant of the firing after the one at the given instant; not earlier (an earlier one ends the chain).
    /// - Returns: an id for ``cancel(_:)``, which ends the chain.
    @discardableResult
    public func schedule(at first: SimInstant, then next: @escaping @Sendable (SimInstant) -> SimInstant?, label: String = "",
                         _ handler: @escaping Handler) -> TimerID {
        add(at: first, chain: next, label: label, .handler(handler))
    }

    /// Schedules `handler` at `first` and then at each instant `next` gives after the one it fired at (see
    /// ``SimulationScheduler/schedule(at:recurring:label:_:)``): when a firing is taken from the queue, the next one is
    /// queued with a new place among the events of its instant, before the handler runs (so the handler may cancel it).
    /// `next` is asked inside the kernel's lock, as a chain's is: it must not call the kernel.
    /// - Returns: an id for ``cancel(_:)``, which ends the recurrence.
    @discardableResult
    public func schedule(at first: SimInstant, recurring next: @escaping @Sendable (SimInstant) -> SimInstant?, label: String = "",
                         _ handler: @escaping Handler) -> TimerID {
        add(at: first, recurrence: next, label: label, .handler(handler))
    }

    /// ``schedule(at:recurring:label:_:)`` with a ``Step``: each firing is a plain call that may leave a handler.
    @discardableResult
    public func scheduleStep(at first: SimInstant, recurring next: @escaping @Sendable (SimInstant) -> SimInstant?, label: String = "",
                             _ step: @escaping Step) -> TimerID {
        add(at: first, recurrence: next, label: label, .step(step))
    }

    /// Schedules `handler` `delay` after ``now``.
    @discardableResult
    public func schedule(after delay: SimDuration, label: String = "", _ handler: @escaping Handler) -> TimerID {
        add(after: delay, label: label, .handler(handler))
    }

    /// ``schedule(after:label:_:)`` with a ``Step``: the firing is a plain call that may leave a handler.
    @discardableResult
    public func scheduleStep(after delay: SimDuration, label: String = "", _ step: @escaping Step) -> TimerID {
        add(after: delay, label: label, .step(step))
    }

    /// Queues one timer at `time` (or `delay` after ``now``; never before ``now``), with its recurrence or chain.
    private func add(at time: SimInstant? = nil, after delay: SimDuration = .zero, recurrence: (@Sendable (SimInstant) -> SimInstant?)? = nil,
                     chain: (@Sendable (SimInstant) -> SimInstant?)? = nil, label: String, _ work: Work) -> TimerID {
        state.withLock { state in
            let id = TimerID(state.nextSequence)
            let sequence = state.insert(id, at: time.map { max($0, state.now) } ?? state.now + max(delay, .zero))
            state.timers[id] = Timer(sequence: sequence, work: work, recurrence: recurrence, chain: chain, label: label)
            return id
        }
    }

    /// Schedules `handler` at every local wall time whose minute of day is `atMinute` modulo
    /// `everyMinutes` ("hourly at minute 5"), strictly after ``now``, until cancelled.
    ///
    /// See ``LocalCalendar/nextRecurrence(after:everyMinutes:atMinute:)`` for daylight saving.
    /// - Throws: ``SimulationError`` `schedule.recurrence` for a bad period or offset.
    @discardableResult
    public func every(minutes everyMinutes: Int, atMinute: Int, in calendar: LocalCalendar,
                      label: String = "", _ handler: @escaping Handler) throws(SimulationError) -> TimerID {
        try LocalCalendar.validateRecurrence(everyMinutes: everyMinutes, atMinute: atMinute)
        let first = try calendar.nextRecurrence(after: now, everyMinutes: everyMinutes, atMinute: atMinute)
        return schedule(at: first, recurring: { try? calendar.nextRecurrence(after: $0, everyMinutes: everyMinutes, atMinute: atMinute) },
                        label: label, handler)
    }

    /// Drops every pending event and recurrence — their handlers and everything those capture — so a
    /// finished world can be freed (handlers hold the objects that schedule them, which hold the kernel).
    /// Submissions still waiting stay for a next run.
    public func discardPendingEvents() {
        let dropped = state.withLock { state -> [TimerID: Timer] in
            state.queue = EventQueue()
            defer { state.timers.removeAll() }
            return state.timers
        }
        _ = dropped  // released here, outside the lock
    }

    /// Cancels a pending event or a whole recurrence.
    /// - Returns: `true` if it was still pending.
    @discardableResult
    public func cancel(_ id: TimerID) -> Bool {
        state.withLock { $0.timers.removeValue(forKey: id) != nil }
    }

    /// Asks the active run to end after the current event with `error` (a component that detected a
    /// runaway of its own); the first request wins. Between runs, the next ``run(until:)`` throws it.
    public func stop(_ error: SimulationError) {
        state.withLock { state in
            if state.stopReason == nil { state.stopReason = error }
        }
    }

    /// Runs events in order until the queue holds nothing at or before `end`, then sets ``now`` to `end`.
    ///
    /// Events scheduled by handlers for times up to `end` run in the same call.
    /// - Parameter eventLimit: stop after firing this many events (a work budget for untrusted
    ///   input); `nil` for no limit.
    /// - Returns: the number of events that fired during this call.
    /// - Throws: ``SimulationError`` `schedule.past` if `end` is before ``now``; `kernel.busy` if a run
    ///   is already active; `run.stalled` after ``maxEventsPerInstant`` events at one instant or after
    ///   ``stop(_:)``; `run.cancelled` when the calling task is cancelled (``now`` then stays where the
    ///   run stopped); `schedule.eventLimit` when `eventLimit` events fired and more were due (``now``
    ///   stays at the last event, the kernel is idle again).
    @discardableResult
    public func run(until end: SimInstant, eventLimit: Int? = nil) async throws(SimulationError) -> Int {
        try state.withLock { state throws(SimulationError) in
            guard state.phase == .idle else {
                throw SimulationError(.kernelBusy, "cannot run until \(end): the kernel is already in \(state.phase); one run at a time.")
            }
            guard end >= state.now else {
                throw SimulationError(.scheduledInPast, "cannot run until \(end): the clock is already at \(state.now).")
            }
            if let reason = state.stopReason { throw reason }
            state.phase = .running(until: end)
        }
        var fired = 0
        while let (time, work) = nextDue(notAfter: end) {
            await work.fire(at: time)
            fired += 1
            if fired % Self.cancellationCheckInterval == 0, Task.isCancelled {
                stop(SimulationError(.cancelled, "the run was cancelled at \(time), before reaching \(end)."))
            }
            if let eventLimit, fired >= eventLimit, nextEventTime.map({ $0 <= end }) == true {
                let stoppedAt = state.withLock { state in
                    state.phase = .idle
                    return state.now
                }
                throw SimulationError(.eventLimit, "stopped at \(stoppedAt) after \(fired) events, before \(end): the run's limit is \(eventLimit) events.")
            }
        }
        return try state.withLock { state throws(SimulationError) in
            state.phase = .idle
            if let reason = state.stopReason { throw reason }
            state.now = end
            return fired
        }
    }

    /// Pops the next live event due at or before `end`, advances the clock to it and, for a
    /// recurrence, queues its next occurrence before the handler runs (so the handler may cancel it).
    /// Waiting submissions enter the queue first, at the current instant.
    func nextDue(notAfter end: SimInstant) -> (SimInstant, Work)? {
        state.withLock { state in
            guard state.stopReason == nil else { return nil }
            if !state.inbox.isEmpty { state.admitSubmissions() }
            while let first = state.queue.first, first.time <= end {
                _ = state.queue.popFirst()
                // One hash look-up: the index serves the check, the update and the removal. The timer is read in
                // place (`inPlace`): a read through `Dictionary.Values`' getter copied the whole timer each time.
                guard let index = state.timers.index(forKey: first.timer) else { continue }
                let (sequence, chain, isRecurring) = inPlace(&state.timers.values[index]) {
                    ($0.sequence, $0.chain, $0.recurrence != nil)
                }
                guard sequence == first.sequence else { continue }
                if first.time == state.now {
                    state.eventsAtNow += 1
                    if state.eventsAtNow > maxEventsPerInstant {
                        state.stopReason = SimulationError(.stalled,
                            "more than \(maxEventsPerInstant) events at \(first.time) without the clock moving; the last was \"\(inPlace(&state.timers.values[index]) { $0.label })\". Something keeps rescheduling itself at one instant; the run was ended.")
                        return nil
                    }
                } else {
                    state.eventsAtNow = 1
                }
                state.now = first.time
                state.eventsProcessed += 1
                if let chain {
                    if let next = chain(first.time), next >= first.time {
                        // The same sequence: its place among events at the same instant is the one it was scheduled with.
                        state.queue.push(.init(time: next, sequence: first.sequence, timer: first.timer))
                        return (first.time, inPlace(&state.timers.values[index]) { $0.work })
                    }
                    return (first.time, state.timers.remove(at: index).value.work)
                }
                if isRecurring, let recurrence = inPlace(&state.timers.values[index], { $0.recurrence }) {
                    if let next = recurrence(first.time) {
                        let sequence = state.insert(first.timer, at: max(next, first.time))
                        return (first.time, inPlace(&state.timers.values[index]) { timer in
                            timer.sequence = sequence
                            return timer.work
                        })
                    }
                }
                return (first.time, state.timers.remove(at: index).value.work)
            }
            return nil
        }
    }
}
