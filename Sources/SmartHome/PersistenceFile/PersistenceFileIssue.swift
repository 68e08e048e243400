import Simulation

/// One problem of a `.persist` file (``ModelFileIssue``).
public typealias PersistenceFileIssue = ModelFileIssue<PersistenceFileCode>

/// Stable codes of `.persist` problems.
public enum PersistenceFileCode: String, Sendable, CaseIterable {
    /// Text the `.persist` grammar (openhab-core `Persistence.xtext`) does not allow here.
    case syntax = "persist.syntax"
    /// The bytes are not UTF-8.
    case encoding = "persist.encoding"
    /// A strategy no `Strategies` entry defines and openHAB does not have (`everyChange`, `everyUpdate`,
    /// `restoreOnStartup`, `forecast`).
    case unknownStrategy = "persist.unknownStrategy"
    /// A filter no `Filters` entry defines.
    case unknownFilter = "persist.unknownFilter"
    /// A cron strategy whose expression openHAB's `CronAdjuster` refuses.
    case invalidCron = "persist.invalidCron"
    /// A name defined twice (a strategy, a filter).
    case duplicate = "persist.duplicate"
    /// A file beyond the twin's bounds.
    case tooLarge = "persist.tooLarge"
}
