import Simulation

/// A condition module; a run goes ahead only if all of a rule's conditions hold when it starts.
public struct RuleCondition: Sendable {
    /// What is checked.
    public enum Kind: Sendable {
        /// `core.ItemStateCondition`: the Item's state compared with `state` (`=`, `!=`, `<`, `<=`, `>`, `>=`),
        /// as ``StateComparison`` (openHAB's `ItemStateConditionHandler`, quirks included).
        case itemState(item: String, operator: StateComparison.Operator, state: String)
        /// `core.TimeOfDayCondition`: local time in [start, end), minute resolution; wraps past midnight
        /// when end ≤ start; a missing bound is open.
        case timeOfDay(start: LocalTime?, end: LocalTime?)
        /// `timer.DayOfWeekCondition`: the local weekday is one of these (ISO 1 = Monday … 7 = Sunday).
        case dayOfWeek(Set<Int>)
        /// `ephemeris.WeekdayCondition` (Monday–Friday, the default ephemeris) or `WeekendCondition`.
        case weekday(weekend: Bool)
        /// `core.ThingStatusCondition`: the Thing's status is (or with `equal == false`, is not) `status`.
        case thingStatus(thing: String, status: String, equal: Bool)
        /// `timer.IntervalCondition`: at least this long since this condition last let the rule run.
        case interval(minimum: SimDuration)
        /// `script.ScriptCondition` in the Rules DSL: the script's value decides.
        case script(any RuleScript)
    }

    /// The module's `id`.
    public let id: String
    /// What is checked.
    public let kind: Kind

    /// Creates a condition.
    public init(id: String, _ kind: Kind) {
        self.id = id
        self.kind = kind
    }
}
