import Simulation

/// Where a built-in automation registers its recurring run: in a world, the twin's rule engine, so the
/// weather watcher is an openHAB rule like a user's (listed by `GET /rest/rules`, counted by `rule`
/// expectations), with the schedule semantics of every other clock trigger.
public protocol AutomationRuleHost: Sendable {
    /// Adds (or keeps, if `uid` is there) a rule that runs `run` at local minute-of-day `m` with
    /// `m % everyMinutes == atMinute` in `calendar`; the first run is strictly after now.
    /// - Throws: ``BookingError`` `configuration.invalid` for a schedule that cannot run.
    func addRecurringRule(uid: String, name: String, everyMinutes: Int, atMinute: Int, calendar: LocalCalendar,
                          run: @escaping @Sendable () async -> Void) throws(BookingError)
    /// Removes the rule; its runs stop.
    func removeRule(uid: String)
}
