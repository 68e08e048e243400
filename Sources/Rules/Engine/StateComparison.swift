import Simulation
import SmartHome

/// How `core.ItemStateCondition` compares an Item's state with the configured text — openHAB's
/// `ItemStateConditionHandler`, quirks included:
/// - the text is parsed with the Item's accepted types (`21` is a number, `21 °C` a quantity);
/// - `<=`/`>=`: a plain number against a quantity takes the quantity's unit; quantities compare after
///   conversion; percent and decimal states compare as numbers; DateTime states compare instants;
///   anything else (NULL, UNDEF, ON…) is not ordered, so both are false;
/// - `<` is "not `>=`" and `>` is "not `<=`": so `<` and `>` are **true** for a NULL state;
/// - `=`: a plain number equals a quantity only when the quantity's unit is ONE (`21` never equals
///   `21 °C`, openHAB warns), otherwise the parsed states must be equal (quantities by value).
public enum StateComparison {
    /// A comparison operator of the condition's `operator`.
    public enum Operator: String, Sendable, CaseIterable {
        case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

        /// Reads an operator; openHAB also accepts `=<` and `=>`.
        public init?(text: String) {
            switch text {
            case "=<": self = .lessOrEqual
            case "=>": self = .greaterOrEqual
            default: self.init(rawValue: text)
            }
        }
    }

    /// Whether `item`'s state stands in relation `op` to the text `text`.
    public static func holds(_ item: Item, _ op: Operator, _ text: String, calendar: LocalCalendar) -> Bool {
        holds(item.state, op, item.type.parseState(text, in: calendar))
    }

    /// Whether `state` stands in relation `op` to `compare` (the text already parsed for the Item's type).
    public static func holds(_ state: State, _ op: Operator, _ compare: State?) -> Bool {
        switch op {
        case .equal: return equal(state, compare)
        case .notEqual: return !equal(state, compare)
        case .lessOrEqual: return order(state, compare).map { $0 <= 0 } ?? false
        case .greaterOrEqual: return order(state, compare).map { $0 >= 0 } ?? false
        case .less: return !(order(state, compare).map { $0 >= 0 } ?? false)
        case .greater: return !(order(state, compare).map { $0 <= 0 } ?? false)
        }
    }

    /// `itemState.equals(compareState)` with the plain-number rule for ONE.
    static func equal(_ state: State, _ compare: State?) -> Bool {
        guard let compare else { return false }
        switch (state, compare) {
        case (.quantity(let q), .decimal(let n)):
            return q.unit == .one && q.value == n.value
        case (.quantity(let a), .quantity(let b)):
            guard let converted = b.converted(to: a.unit) else { return false }
            return a.value == converted.value
        default:
            return state == compare
        }
    }

    /// -1, 0, 1 when the states are ordered, `nil` when they are not.
    static func order(_ state: State, _ compare: State?) -> Int? {
        guard let compare else { return nil }
        func sign(_ a: Double, _ b: Double) -> Int { a < b ? -1 : (a > b ? 1 : 0) }
        switch (state, compare) {
        case (.dateTime(let a), .dateTime(let b)): return sign(Double(a.instant.unixMilliseconds), Double(b.instant.unixMilliseconds))
        case (.quantity(let q), .decimal(let n)): return sign(q.value, n.value)
        case (.quantity(let a), .quantity(let b)): return b.converted(to: a.unit).map { sign(a.value, $0.value) }
        case (.percent(let a), .percent(let b)), (.percent(let a), .decimal(let b)): return sign(a.value, b.value)
        case (.decimal(let a), .decimal(let b)): return sign(a.value, b.value)
        case (.decimal(let a), .quantity(let b)): return sign(a.value, b.value)
        default: return nil
        }
    }
}
