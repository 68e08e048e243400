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
    public var isUndefined: Bool { self == .null || self == .undef }
}
