import Simulation

/// One problem of a `.things` file (``ModelFileIssue``).
public typealias ThingsFileIssue = ModelFileIssue<ThingsFileCode>

/// Stable codes of `.things` problems.
public enum ThingsFileCode: String, Sendable, CaseIterable {
    /// Text the `.things` grammar (openhab-core `Thing.xtext`) does not allow here.
    case syntax = "things.syntax"
    /// The bytes are not UTF-8 (openHAB reads model files as UTF-8).
    case encoding = "things.encoding"
    /// A Thing UID openHAB would not build (too few segments, a short `type id` form outside a Bridge).
    case invalidUID = "things.invalidUID"
    /// A configuration value openHAB's value converter refuses (an unquoted word that is no number or boolean).
    case invalidValue = "things.invalidValue"
    /// A Thing UID declared twice, or a channel id twice in one Thing.
    case duplicate = "things.duplicate"
    /// A file or a nesting beyond the twin's bounds.
    case tooLarge = "things.tooLarge"
}
