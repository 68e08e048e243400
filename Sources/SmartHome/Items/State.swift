import Foundation

/// The state of an Item, as openHAB's `State` implementations.
public enum State: Sendable, Hashable, CustomStringConvertible {
    /// Never set (`NULL`): the state of a fresh Item.
    case null
    /// Set, but undefined (`UNDEF`).
    case undef
    /// `ON` / `OFF`.
    case onOff(OnOff)
    /// `OPEN` / `CLOSED`.
    case openClosed(OpenClosed)
    /// A plain number (`DecimalType`).
    case decimal(DecimalNumber)
    /// A number with a unit (`QuantityType`).
    case quantity(Quantity)
    /// A percentage 0–100 (`PercentType`).
    case percent(DecimalNumber)
    /// Text (`StringType`).
    case string(String)
    /// A date and time (`DateTimeType`).
    case dateTime(DateTimeValue)
    /// A colour (`HSBType`).
    case hsb(HSB)
    /// A location (`PointType`).
    case point(GeoPoint)
    /// A player's state (`PlayPauseType`).
    case playPause(PlayPause)
    /// A player's winding state (`RewindFastforwardType`).
    case rewindFastforward(RewindFastforward)
    /// A call's numbers (`StringListType`, printed comma-separated).
    case stringList([String])
    /// An image (`RawType`), kept as its `data:` text.
    case raw(String)

    /// The text openHAB 5 shows: `ON`, `21.5 °C`, `21 °C` (a quantity, narrowed), `21.50` (a decimal, `toPlainString`), `NULL`.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .undef: return "UNDEF"
        case .onOff(let v): return v.rawValue
        case .openClosed(let v): return v.rawValue
        case .decimal(let n), .percent(let n): return n.text
        case .quantity(let q): return q.description
        case .string(let s): return s
        case .dateTime(let d): return d.description
        case .hsb(let v): return v.description
        case .point(let v): return v.description
        case .playPause(let v): return v.rawValue
        case .rewindFastforward(let v): return v.rawValue
        case .stringList(let v): return v.map { $0.replacingOccurrences(of: ",", with: "\\,") }.joined(separator: ",")
        case .raw(let v): return v
        }
    }

    /// The event payload `type`: the state class name without `Type` (`OnOff`, `Quantity`, `UnDef`).
    public var typeName: String {
        switch self {
        case .null, .undef: return "UnDef"
        case .onOff: return "OnOff"
        case .openClosed: return "OpenClosed"
        case .decimal: return "Decimal"
        case .quantity: return "Quantity"
        case .percent: return "Percent"
        case .string: return "String"
        case .dateTime: return "DateTime"
        case .hsb: return "HSB"
        case .point: return "Point"
        case .playPause: return "PlayPause"
        case .rewindFastforward: return "RewindFastforward"
        case .stringList: return "StringList"
        case .raw: return "Raw"
        }
    }

    /// The numeric part of a number, quantity or percent state; `nil` otherwise.
    public var numericValue: Double? {
        switch self {
        case .decimal(let n), .percent(let n): return n.value
        case .quantity(let q): return q.value
        case .hsb(let v): return v.brightness.value
        default: return nil
        }
    }

    /// Whether this is `NULL` or `UNDEF`.
    public var isUndefined: Bool {
        switch self {
        case .null, .undef: return true
        default: return false
        }
    }

    /// Case and payload equal, as the synthesized `==` (which ``hash(into:)`` still is) — written out because
    /// the synthesized one switches over a tuple of both states, copying each (every Item update compares two).
    public static func == (lhs: State, rhs: State) -> Bool {
        switch lhs {
        case .null: if case .null = rhs { return true }
        case .undef: if case .undef = rhs { return true }
        case .onOff(let a): if case .onOff(let b) = rhs { return a == b }
        case .openClosed(let a): if case .openClosed(let b) = rhs { return a == b }
        case .decimal(let a): if case .decimal(let b) = rhs { return a == b }
        case .quantity(let a): if case .quantity(let b) = rhs { return a == b }
        case .percent(let a): if case .percent(let b) = rhs { return a == b }
        case .string(let a): if case .string(let b) = rhs { return a == b }
        case .dateTime(let a): if case .dateTime(let b) = rhs { return a == b }
        case .hsb(let a): if case .hsb(let b) = rhs { return a == b }
        case .point(let a): if case .point(let b) = rhs { return a == b }
        case .playPause(let a): if case .playPause(let b) = rhs { return a == b }
        case .rewindFastforward(let a): if case .rewindFastforward(let b) = rhs { return a == b }
        case .stringList(let a): if case .stringList(let b) = rhs { return a == b }
        case .raw(let a): if case .raw(let b) = rhs { return a == b }
        }
        return false
    }
}
