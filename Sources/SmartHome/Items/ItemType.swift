/// An Item's type: what states it holds and what commands it accepts.
public enum ItemType: Sendable, Hashable, CustomStringConvertible {
    /// `Switch`: ON/OFF.
    case switchItem
    /// `Contact`: OPEN/CLOSED, read-only.
    case contactItem
    /// `Number` or `Number:Dimension`.
    case numberItem(Dimension?)
    /// `String`.
    case stringItem
    /// `Dimmer`: a percentage.
    case dimmerItem
    /// `DateTime`: a date and time.
    case dateTimeItem
    /// `Group` without a base type: members by their `groupNames`; its own state is whatever is posted
    /// to it (`NULL` at first), and a command to it goes to every member (openHAB's group semantics).
    case groupItem
    /// `Rollershutter`: a position 0–100 %; UP, DOWN, STOP, MOVE.
    case rollershutterItem
    /// `Color`: an HSB colour, also switched and dimmed.
    case colorItem
    /// `Location`: a point (latitude, longitude, altitude).
    case locationItem
    /// `Player`: PLAY/PAUSE, REWIND/FASTFORWARD; NEXT/PREVIOUS commands.
    case playerItem
    /// `Call`: the numbers of a call, read-only.
    case callItem
    /// `Image`: a picture (raw bytes as a `data:` text), read-only.
    case imageItem

    /// Every type name the twin accepts, for error hints.
    public static let allNames: [String] = ["Switch", "Contact", "Number"]
        + Dimension.allCases.map { "Number:\($0.rawValue)" }
        + ["String", "Dimmer", "DateTime", "Group", "Rollershutter", "Color", "Location", "Player", "Call", "Image"]

    /// Parses `Switch`, `Number:Temperature`, … (case-sensitive, as openHAB).
    public init?(rawValue: String) {
        switch rawValue {
        case "Switch": self = .switchItem
        case "Contact": self = .contactItem
        case "Number": self = .numberItem(nil)
        case "String": self = .stringItem
        case "Dimmer": self = .dimmerItem
        case "DateTime": self = .dateTimeItem
        case "Group": self = .groupItem
        case "Rollershutter": self = .rollershutterItem
        case "Color": self = .colorItem
        case "Location": self = .locationItem
        case "Player": self = .playerItem
        case "Call": self = .callItem
        case "Image": self = .imageItem
        default:
            guard rawValue.hasPrefix("Number:"), let d = Dimension(rawValue: String(rawValue.dropFirst(7))) else { return nil }
            self = .numberItem(d)
        }
    }

    /// Parses a type name.
    /// - Throws: ``SmartHomeError`` `item.typeUnknown` listing the known types.
    public static func parse(_ text: String) throws(SmartHomeError) -> ItemType {
        guard let type = ItemType(rawValue: text) else {
            throw SmartHomeError(.unknownItemType,
                                 "Item type \"\(text)\" is not known; use one of \(allNames.joined(separator: ", ")).")
        }
        return type
    }

    /// The openHAB type name.
    public var rawValue: String {
        switch self {
        case .switchItem: return "Switch"
        case .contactItem: return "Contact"
        case .numberItem(nil): return "Number"
        case .numberItem(let d?): return "Number:\(d.rawValue)"
        case .stringItem: return "String"
        case .dimmerItem: return "Dimmer"
        case .dateTimeItem: return "DateTime"
        case .groupItem: return "Group"
        case .rollershutterItem: return "Rollershutter"
        case .colorItem: return "Color"
        case .locationItem: return "Location"
        case .playerItem: return "Player"
        case .callItem: return "Call"
        case .imageItem: return "Image"
        }
    }

    public var description: String { rawValue }

    /// The unit states of this type are shown in without `unit` metadata (`nil` for non-dimensioned
    /// types); an Item's own unit is ``Item/unit``.
    public var unit: QuantityUnit? {
        if case .numberItem(let d?) = self { return d.defaultUnit }
        return nil
    }
}
