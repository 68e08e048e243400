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
    /// `UP` / `DOWN` (Rollershutter).
    case upDown(UpDown)
    /// `STOP` / `MOVE` (Rollershutter).
    case stopMove(StopMove)
    /// A colour (Color).
    case hsb(HSB)
    /// A location (Location).
    case point(GeoPoint)
    /// `PLAY` / `PAUSE` (Player).
    case playPause(PlayPause)
    /// `REWIND` / `FASTFORWARD` (Player).
    case rewindFastforward(RewindFastforward)
    /// `NEXT` / `PREVIOUS` (Player).
    case nextPrevious(NextPrevious)

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
        case .upDown(let v): return v.rawValue
        case .stopMove(let v): return v.rawValue
        case .hsb(let v): return v.description
        case .point(let v): return v.description
        case .playPause(let v): return v.rawValue
        case .rewindFastforward(let v): return v.rawValue
        case .nextPrevious(let v): return v.rawValue
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
        case .upDown: return "UpDown"
        case .stopMove: return "StopMove"
        case .hsb: return "HSB"
        case .point: return "Point"
        case .playPause: return "PlayPause"
        case .rewindFastforward: return "RewindFastforward"
        case .nextPrevious: return "NextPrevious"
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
        case .upDown(let v): return .percent(DecimalNumber(integer: v == .up ? 0 : 100))
        case .hsb(let v): return .hsb(v)
        case .point(let v): return .point(v)
        case .playPause(let v): return .playPause(v)
        case .rewindFastforward(let v): return .rewindFastforward(v)
        case .increaseDecrease, .refresh, .stopMove, .nextPrevious: return nil
        }
    }
}
