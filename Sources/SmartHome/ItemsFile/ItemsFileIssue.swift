import Simulation

/// One problem of an `.items` file (``ModelFileIssue``).
public typealias ItemsFileIssue = ModelFileIssue<ItemsFileCode>

/// Stable codes of `.items` problems.
public enum ItemsFileCode: String, Sendable, CaseIterable {
    /// Text the `.items` grammar (openhab-core `Items.xtext`) does not allow here.
    case syntax = "items.syntax"
    /// The bytes are not UTF-8 (openHAB reads model files as UTF-8).
    case encoding = "items.encoding"
    /// An Item type openHAB does not have (`Swtich`).
    case unknownType = "items.unknownType"
    /// `Number:<Dimension>` with a dimension openHAB does not know.
    case unknownDimension = "items.unknownDimension"
    /// A unit (in `unit` metadata or a state pattern) that is not a unit, or not of the Item's dimension.
    case unknownUnit = "items.unknownUnit"
    /// A Group function openHAB does not have, or with the wrong parameters.
    case unknownFunction = "items.unknownFunction"
    /// Two Items with one name.
    case duplicate = "items.duplicate"
    /// Groups that are members of each other.
    case groupCycle = "items.groupCycle"
    /// `expire` metadata openHAB's ExpireManager would refuse (a bad duration, a state or command the
    /// Item does not take, an unknown key).
    case invalidExpire = "items.invalidExpire"
    /// A name, label or file beyond the twin's bounds (names up to 256 characters, files up to 16 MB).
    case tooLarge = "items.tooLarge"
}
