import Foundation
import Simulation

/// How a Group with a base type aggregates its members' states (`Group:Switch:OR(ON,OFF)`,
/// `Group:Number:Temperature:AVG`), with openhab-core's rules: `ArithmeticGroupFunction` (AND, OR, NAND,
/// NOR, XOR, AVG, MEDIAN, SUM, MIN, MAX, COUNT), `QuantityTypeArithmeticGroupFunction` (the same over quantities, in the
/// Group's unit), `DateTimeGroupFunction` (EARLIEST, LATEST) and `GroupFunction.Equality` (no function).
public enum GroupFunction: Sendable, Hashable, CustomStringConvertible {
    /// No function: every member in the same state gives that state, else `UNDEF` (none: `UNDEF`).
    case equality
    /// All members in `active` → `active`, else `passive`; no members → `passive`.
    case and(active: State, passive: State)
    /// Any member in `active` → `active`, else `passive`.
    case or(active: State, passive: State)
    /// AND, negated: gives `passive` where AND gives `active`, else `active`.
    case nand(active: State, passive: State)
    /// OR, negated.
    case nor(active: State, passive: State)
    /// Exactly one member in `active` → `active`, else `passive` (`ArithmeticGroupFunction.Xor`).
    case xor(active: State, passive: State)
    /// The mean of the numeric members (none: `UNDEF`).
    case avg
    /// The median of the numeric members (none: `UNDEF`).
    case median
    /// The sum of the numeric members (none: 0).
    case sum
    /// The least numeric member (none: `UNDEF`).
    case min
    /// The greatest numeric member (none: `UNDEF`).
    case max
    /// How many members' state text fully matches the regular expression (Java's `Matcher.matches`).
    case count(pattern: String)
    /// The earliest DateTime member (none: `UNDEF`).
    case earliest
    /// The latest DateTime member (none: `UNDEF`).
    case latest

    /// The function names of the `.items` syntax, for hints.
    public static let names = ["AND", "OR", "NAND", "NOR", "XOR", "AVG", "MEDIAN", "SUM", "MIN", "MAX", "COUNT", "EARLIEST", "LATEST", "EQUALITY"]

    /// How many parameters `name` takes (AND/OR/NAND/NOR: 2, COUNT: 1, others: 0), or `nil` if unknown.
    public static func parameterCount(_ name: String) -> Int? {
        switch name.uppercased() {
        case "AND", "OR", "NAND", "NOR", "XOR": return 2
        case "COUNT": return 1
        case "AVG", "MEDIAN", "SUM", "MIN", "MAX", "EARLIEST", "LATEST", "EQUALITY": return 0
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .equality: return "EQUALITY"
        case .and(let a, let p): return "AND(\(a),\(p))"
        case .or(let a, let p): return "OR(\(a),\(p))"
        case .nand(let a, let p): return "NAND(\(a),\(p))"
        case .nor(let a, let p): return "NOR(\(a),\(p))"
        case .xor(let a, let p): return "XOR(\(a),\(p))"
        case .avg: return "AVG"
        case .median: return "MEDIAN"
        case .sum: return "SUM"
        case .min: return "MIN"
        case .max: return "MAX"
        case .count(let p): return "COUNT(\"\(p)\")"
        case .earliest: return "EARLIEST"
        case .latest: return "LATEST"
        }
    }

    /// The Group's state from its members' states, before the base type takes it.
    /// - Parameters:
    ///   - members: the states of the Group's state members (see ``ItemRegistry/stateMembers(of:)``).
    ///   - unit: the Group's unit when its base is `Number:<Dimension>`: quantities are summed in it and
    ///     members of another dimension are left out, as `QuantityTypeArithmeticGroupFunction` does.
    public func calculate(_ members: [State], unit: QuantityUnit? = nil) -> State {
        switch self {
        case .equality:
            guard let first = members.first else { return .undef }
            return members.allSatisfy({ $0 == first }) ? first : .undef
        case .and(let active, let passive):
            guard !members.isEmpty else { return passive }
            return members.allSatisfy({ Self.matches($0, active) }) ? active : passive
        case .or(let active, let passive):
            return members.contains(where: { Self.matches($0, active) }) ? active : passive
        case .nand(let active, let passive):
            return GroupFunction.and(active: active, passive: passive).calculate(members) == active ? passive : active
        case .nor(let active, let passive):
            return GroupFunction.or(active: active, passive: passive).calculate(members) == active ? passive : active
        case .xor(let active, let passive):
            return members.filter({ Self.matches($0, active) }).count == 1 ? active : passive
        case .avg, .median, .sum, .min, .max:
            let values = Self.numbers(members, unit: unit)
            let number: DecimalNumber?
            switch self {
            // Min and Max keep the member's own number (openHAB returns that BigDecimal).
            case .min: number = values.min { $0.value < $1.value }
            case .max: number = values.max { $0.value < $1.value }
            case .avg: number = values.isEmpty ? nil : Self.computed(values.map(\.value).reduce(0, +) / Double(values.count))
            case .sum: number = Self.computed(values.map(\.value).reduce(0, +))
            default:
                let sorted = values.map(\.value).sorted()
                if sorted.isEmpty { number = nil }
                else if sorted.count % 2 == 1 { number = Self.computed(sorted[sorted.count / 2]) }
                else { number = Self.computed((sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2) }
            }
            guard let number else { return .undef }
            if let unit { return .quantity(Quantity(number, unit)) }
            return .decimal(number)
        case .count(let pattern):
            // Java's Matcher.matches(): the whole text, whatever the alternation order.
            guard let regex = try? NSRegularExpression(pattern: "^(?:\(pattern))$") else { return .undef }
            let matching = members.filter { state in
                let text = state.description
                return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            }
            return .decimal(DecimalNumber(integer: matching.count))
        case .earliest, .latest:
            let times = members.compactMap { state -> DateTimeValue? in
                if case .dateTime(let d) = state { return d }
                return nil
            }
            let pick = self == .earliest ? times.min { $0.instant < $1.instant } : times.max { $0.instant < $1.instant }
            return pick.map(State.dateTime) ?? .undef
        }
    }

    /// `activeState.equals(item.getStateAs(activeState.getClass()))`: the member's state as the active
    /// state's type (a Dimmer above 0 is ON, a number other than 0 is ON).
    static func matches(_ state: State, _ active: State) -> Bool {
        if state == active { return true }
        switch (state, active) {
        case (.percent(let n), .onOff(let v)), (.decimal(let n), .onOff(let v)): return (n.value != 0) == v.isOn
        case (.hsb(let c), .onOff(let v)): return (c.brightness.value != 0) == v.isOn
        default: return false
        }
    }

    /// The members' numbers: `getStateAs(DecimalType)` (a quantity's number, a percent, ON as 1), or with a
    /// `unit` the quantities of its dimension converted to it (and plain numbers taken as in it).
    static func numbers(_ members: [State], unit: QuantityUnit?) -> [DecimalNumber] {
        members.compactMap { state in
            switch state {
            case .quantity(let q):
                guard let unit else { return q.number }
                return q.converted(to: unit)?.number
            case .decimal(let n), .percent(let n): return n
            case .onOff(let v): return unit == nil ? DecimalNumber(integer: v.isOn ? 1 : 0) : nil
            case .openClosed(let v): return unit == nil ? DecimalNumber(integer: v == .open ? 1 : 0) : nil
            default: return nil
            }
        }
    }

    /// A computed sum or mean: whole numbers print without a fraction (`BigDecimal` sums of whole numbers
    /// do), others with the shortest digits of the `Double`.
    static func computed(_ value: Double) -> DecimalNumber {
        value == value.rounded() && abs(value) < 1e15 ? DecimalNumber(integer: Int(value)) : DecimalNumber(value)
    }
}

/// A Group's base type and function (`Group:Number:Temperature:AVG`): what the Group's state is made of.
public struct GroupAggregation: Sendable, Hashable {
    /// The type the Group's state takes (`Number:Temperature`, `Switch`).
    public var baseType: ItemType
    /// How members' states combine.
    public var function: GroupFunction

    public init(baseType: ItemType, function: GroupFunction) {
        self.baseType = baseType
        self.function = function
    }
}
