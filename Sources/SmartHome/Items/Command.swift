/// A command sent to an Item, as openHAB's `Command` implementations.
public enum Command: Sendable, Hashable, CustomStringConvertible {
    /// `ON` / `OFF`.
    case onOff(OnOff)
    /// A plain number.
    case decimal(DecimalNumber)
    /// A number with a unit.
    case quantity(Quantity)
    /// A percentage 0–100.
    case percent(DecimalNumber)
    /// `INCREASE` / `DECREASE`.
    case increaseDecrease(IncreaseDecrease)
    /// Text.
    case string(String)
    /// A date and time (`DateTimeType`).
    case dateTime(DateTimeValue)
    /// `REFRESH`: ask the device to report its current state.
    case refresh

    /// The command text.
    public var description: String {
        switch self {
        case .onOff(let v): return v.rawValue
        case .decimal(let n), .percent(let n): return n.text
        case .quantity(let q): return q.description
        case .increaseDecrease(let v): return v.rawValue
        case .string(let s): return s
        case .dateTime(let d): return d.description
        case .refresh: return "REFRESH"
        }
    }

    /// The event payload `type` (`OnOff`, `Decimal`, `Quantity`, `Refresh`, …).
    public var typeName: String {
        switch self {
        case .onOff: return "OnOff"
        case .decimal: return "Decimal"
        case .quantity: return "Quantity"
        case .percent: return "Percent"
        case .increaseDecrease: return "IncreaseDecrease"
        case .string: return "String"
        case .dateTime: return "DateTime"
        case .refresh: return "Refresh"
        }
    }

    /// The state this command implies, for autoupdate; `nil` for `REFRESH` and `INCREASE`/`DECREASE`.
    public var impliedState: State? {
        switch self {
        case .onOff(let v): return .onOff(v)
        case .decimal(let n): return .decimal(n)
        case .quantity(let q): return .quantity(q)
        case .percent(let n): return .percent(n)
        case .string(let s): return .string(s)
        case .dateTime(let d): return .dateTime(d)
        case .increaseDecrease, .refresh: return nil
        }
    }
}
