/// What code that plans its own future needs from a simulation: the virtual clock, timers and
/// cancellation. ``SimulationKernel`` implements it; automations hold this, not the kernel.
///
/// Handlers run on the simulation task, one at a time, at their instant (see ``SimulationKernel``).
public protocol SimulationScheduler: Sendable {
    /// The current virtual time.
    var now: SimInstant { get }

    /// Schedules `handler` at `time` (a time in the past is moved to ``now``).
    /// - Returns: an id for ``cancel(_:)``.
    @discardableResult
    func schedule(at time: SimInstant, label: String, _ handler: @escaping SimulationKernel.Handler) -> TimerID

    /// Schedules `handler` `delay` after ``now`` (a negative delay counts as zero).
    /// - Returns: an id for ``cancel(_:)``.
    @discardableResult
    func schedule(after delay: SimDuration, label: String, _ handler: @escaping SimulationKernel.Handler) -> TimerID

    /// Schedules `step` `delay` after ``now``: a plain call at its instant, which may leave a handler that may pause
    /// (see ``SimulationKernel/Step``), in the place a handler scheduled here would have.
    /// - Returns: an id for ``cancel(_:)``.
    @discardableResult
    func scheduleStep(after delay: SimDuration, label: String, _ step: @escaping SimulationKernel.Step) -> TimerID

    /// Schedules `handler` at `first` and then at each instant `next` gives after the one it fired at, until `next`
    /// gives `nil` or the timer is cancelled. Each next firing is queued when the one before is taken from the
    /// queue, before its handler runs — exactly as a handler that schedules its own next firing first would be —
    /// but as one timer, not a new one per firing. `next` is asked inside the scheduler's lock: it must not call the
    /// scheduler.
    /// - Returns: an id for ``cancel(_:)``, which ends the recurrence.
    @discardableResult
    func schedule(at first: SimInstant, recurring next: @escaping @Sendable (SimInstant) -> SimInstant?, label: String,
                  _ handler: @escaping SimulationKernel.Handler) -> TimerID

    /// ``schedule(at:recurring:label:_:)`` with a ``SimulationKernel/Step``: each firing is a plain call, which may
    /// leave a handler that may pause.
    /// - Returns: an id for ``cancel(_:)``, which ends the recurrence.
    @discardableResult
    func scheduleStep(at first: SimInstant, recurring next: @escaping @Sendable (SimInstant) -> SimInstant?, label: String,
                      _ step: @escaping SimulationKernel.Step) -> TimerID

    /// Schedules `handler` at every local wall time whose minute of day is `atMinute` modulo
    /// `everyMinutes`, strictly after ``now``, until cancelled.
    /// - Throws: ``SimulationError`` `schedule.recurrence` for a bad period or offset.
    @discardableResult
    func every(minutes everyMinutes: Int, atMinute: Int, in calendar: LocalCalendar, label: String,
               _ handler: @escaping SimulationKernel.Handler) throws(SimulationError) -> TimerID

    /// Cancels a pending event or a whole recurrence. - Returns: `true` if it was still pending.
    @discardableResult
    func cancel(_ id: TimerID) -> Bool
}
